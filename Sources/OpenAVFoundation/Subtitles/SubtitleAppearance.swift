// Playhead: how plain subtitles (SubRip, WebVTT, mov_text, captions) should look when the
// player draws them, and how much every subtitle is scaled: the user's choices (CLI options)
// merged with the item's `textStyleRules`.
// Concurrency: a Sendable value.

/// The look the renderer gives subtitles that carry no styles of their own (every format but
/// ASS/SSA), and the scale applied to all subtitles. Nil fields keep the renderer's default.
package struct SubtitleAppearance: Sendable, Equatable {
    /// A fontconfig family name ("DejaVu Serif"); nil: the renderer's sans-serif.
    package var fontName: String?
    /// The text size as a fraction of the video's height; nil: a sixteenth.
    package var fontSizeFraction: Double?
    /// Multiplies every subtitle's size, ASS included (`--sub-scale`); 1 leaves sizes alone.
    package var scale: Double = 1
    /// The fill colour; nil: white.
    package var textColor: AVSubtitleColor?
    /// The outline colour; nil: black.
    package var outlineColor: AVSubtitleColor?
    /// The outline width as a fraction of the text size; nil: the renderer's default.
    package var outlineFraction: Double?
    /// A box behind the text (Apple's background colour); nil: none.
    package var backgroundColor: AVSubtitleColor?
    /// A drop shadow under the text; nil: the renderer's default (none).
    package var hasShadow: Bool?
    /// Bold by default.
    package var isBold: Bool?
    /// Italic by default.
    package var isItalic: Bool?
    /// The gap between the video's bottom edge and the text, as a fraction of its height; nil:
    /// the renderer's default.
    package var bottomMarginFraction: Double?

    /// The renderer's defaults.
    package init() {}

    /// `self` with every field `other` sets replacing this one's (scales multiply).
    package func overridden(by other: SubtitleAppearance) -> SubtitleAppearance {
        var merged = self
        merged.fontName = other.fontName ?? fontName
        merged.fontSizeFraction = other.fontSizeFraction ?? fontSizeFraction
        merged.scale = scale * other.scale
        merged.textColor = other.textColor ?? textColor
        merged.outlineColor = other.outlineColor ?? outlineColor
        merged.outlineFraction = other.outlineFraction ?? outlineFraction
        merged.backgroundColor = other.backgroundColor ?? backgroundColor
        merged.hasShadow = other.hasShadow ?? hasShadow
        merged.isBold = other.isBold ?? isBold
        merged.isItalic = other.isItalic ?? isItalic
        merged.bottomMarginFraction = other.bottomMarginFraction ?? bottomMarginFraction
        return merged
    }
}
