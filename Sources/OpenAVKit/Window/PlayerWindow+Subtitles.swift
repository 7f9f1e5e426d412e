// Playhead: the player window's subtitle settings: the delay (z and x, `--sub-delay`) and the
// look (`--sub-font`, `--sub-scale`), merged with the current item's `textStyleRules` for the
// subtitle renderer. Nothing here changes the item: the delay and the look are the window's.
//
// Concurrency: like `PlayerWindow`, confined to the thread that runs its loop; the item's
// look is read through its lock.
import Foundation
import OpenAVFoundation

/// What the window's subtitle renderer needs each frame besides the cues.
struct SubtitleRendering: Equatable, Sendable {
    /// Seconds subtitles show later than their times (negative: earlier): cues are looked up
    /// at the item's time minus this.
    var delay: Double
    /// The look of subtitles without styles of their own, and the scale of all.
    var appearance: SubtitleAppearance
}

extension PlayerWindow {
    /// Seconds the window shows subtitles later than their times; negative shows them earlier.
    /// z and x change it by 0.1 s while playing (a note shows the new value). Kept within
    /// ±600 s and rounded to milliseconds. The item and its legible outputs are not affected.
    public var subtitleDelay: Double {
        get { controller.subtitleDelay }
        set { controller.subtitleDelay = SubtitleDelay.clamped(newValue) }
    }

    /// The font family (a fontconfig name such as "DejaVu Serif") the window draws subtitles
    /// without styles of their own in; nil: its own sans-serif. ASS/SSA keeps its fonts.
    public var subtitleFontName: String? {
        get { subtitleLook.fontName }
        set { subtitleLook.fontName = newValue.flatMap { $0.isEmpty ? nil : $0 } }
    }

    /// How much larger (above 1) or smaller every subtitle is drawn, ASS/SSA included; 1 by
    /// default. Values that are not positive and finite are ignored.
    public var subtitleScale: Double {
        get { subtitleLook.scale }
        set { if newValue.isFinite, newValue > 0 { subtitleLook.scale = newValue } }
    }

    /// The window's own subtitle look (what `subtitleFontName` and `subtitleScale` set, and
    /// any other field a caller in the package fills); it overrides the item's
    /// `textStyleRules`.
    package var subtitleAppearance: SubtitleAppearance {
        get { subtitleLook }
        set { subtitleLook = newValue }
    }

    /// The delay and look to draw the current item's subtitles with now: the item's
    /// `textStyleRules` overridden by the window's own look (scales multiply).
    var subtitleRendering: SubtitleRendering {
        let itemLook = player.currentItem?.subtitleAppearance ?? SubtitleAppearance()
        return SubtitleRendering(delay: subtitleDelay, appearance: itemLook.overridden(by: subtitleLook))
    }
}
