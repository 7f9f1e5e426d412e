// Playhead: the ASS header the window gives subtitles that carry no styles of their own
// (SubRip, WebVTT, mov_text, captions), made from the user's `SubtitleAppearance`.
// Concurrency: pure functions.
import Foundation
import OpenAVFoundation

/// Builds the script header for plain subtitle formats. FFmpeg's decoders emit their events
/// with the style "Default"; this header defines that style.
enum PlainSubtitleHeader {
    /// The script's height; sizes below are in its units.
    static let scriptHeight = 288.0
    /// The text size when the appearance does not set one, as a fraction of the video's
    /// height (the size mpv uses by default: 55 px on a 720-line picture).
    static let defaultSizeFraction = 55.0 / 720.0
    /// The outline width relative to the text size (mpv: 3 px on 55 px text).
    static let defaultOutlineFraction = 3.0 / 55.0
    /// The gap under the text, as a fraction of the video's height (mpv: 22 px at 720).
    static let defaultBottomMargin = 22.0 / 720.0

    /// The header for a video of display aspect `aspect` (width over height).
    static func text(for appearance: SubtitleAppearance, aspect: Double) -> String {
        let height = scriptHeight
        let width = (height * (aspect > 0.1 && aspect < 10 ? aspect : 16.0 / 9.0)).rounded()
        let size = height * (appearance.fontSizeFraction ?? defaultSizeFraction)
        let outline = size * (appearance.outlineFraction ?? defaultOutlineFraction)
        let margin = height * (appearance.bottomMarginFraction ?? defaultBottomMargin)
        let font = (appearance.fontName ?? "sans-serif").replacingOccurrences(of: ",", with: " ")
        let fill = colour(appearance.textColor) ?? "&H00FFFFFF"
        let box = appearance.backgroundColor
        // BorderStyle 3 draws an opaque box in the outline colour instead of an outline.
        let borderStyle = box != nil ? 3 : 1
        let outlineColour = colour(box) ?? colour(appearance.outlineColor) ?? "&H00000000"
        let shadow = appearance.hasShadow == true ? max(1, outline) : 0
        let bold = appearance.isBold == true ? -1 : 0
        let italic = appearance.isItalic == true ? -1 : 0
        let sideMargin = Int((width * 0.03).rounded())
        return """
            [Script Info]
            ScriptType: v4.00+
            PlayResX: \(Int(width))
            PlayResY: \(Int(height))
            ScaledBorderAndShadow: yes
            WrapStyle: 0

            [V4+ Styles]
            Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding
            Style: Default,\(font),\(format(size)),\(fill),&H000000FF,\(outlineColour),&H80000000,\(bold),\(italic),0,0,100,100,0,0,\(borderStyle),\(format(box != nil ? max(1, outline) : outline)),\(format(shadow)),2,\(sideMargin),\(sideMargin),\(Int(margin.rounded())),1

            [Events]
            Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text

            """
    }

    /// An ASS colour (`&HAABBGGRR`, alpha 0 opaque) for `colour`.
    static func colour(_ colour: AVSubtitleColor?) -> String? {
        guard let colour else { return nil }
        func byte(_ value: Double) -> Int { Int((max(0, min(1, value)) * 255).rounded()) }
        let alpha = 255 - byte(colour.alpha)
        return "&H" + [alpha, byte(colour.blue), byte(colour.green), byte(colour.red)]
            .map { String(format: "%02X", $0) }.joined()
    }

    private static func format(_ value: Double) -> String { String(format: "%.2f", value) }
}
