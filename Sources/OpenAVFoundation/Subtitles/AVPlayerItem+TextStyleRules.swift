// Playhead: `AVPlayerItem.textStyleRules`, the app's styling of the subtitles the player draws,
// and the look it works out to for Playhead's window.
//
// Concurrency: the rules and their look are stored together in the item's state (a lock), so
// the window's render thread reads a look that always matches the rules last set, from any
// thread.
import Foundation

extension AVPlayerItem {
    /// Styling for the subtitles the player draws, as Core Media text markup attributes;
    /// nil (the default) leaves the player's own look. Rules without a `textSelector` apply to
    /// all text; Playhead's window draws plain subtitles (SubRip, WebVTT, mov_text) with them
    /// and scales every subtitle by their relative size. Legible outputs are not affected.
    nonisolated public var textStyleRules: [AVTextStyleRule]? {
        get { state.withLock { $0.textStyleRules } }
        set {
            let appearance = SubtitleAppearance(textStyleRules: newValue ?? [])
            state.withLock { state in
                state.textStyleRules = newValue
                state.subtitleAppearance = appearance
            }
        }
    }

    /// The look `textStyleRules` ask for (the renderer's defaults when there are none), for the
    /// window's subtitle renderer. Thread-safe.
    nonisolated package var subtitleAppearance: SubtitleAppearance {
        state.withLock { $0.subtitleAppearance }
    }
}
