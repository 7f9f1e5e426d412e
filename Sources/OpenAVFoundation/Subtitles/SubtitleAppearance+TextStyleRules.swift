// Playhead: the subtitle look an item's `textStyleRules` ask for, as a `SubtitleAppearance`.
// Concurrency: pure functions on values.
import Foundation

extension SubtitleAppearance {
    /// The look `textStyleRules` give all text: the rules without a selector, in order (a later
    /// rule's attribute replaces an earlier one's). Understood attributes: foreground colour
    /// (text colour), background or character background colour (the box behind the text),
    /// font family name (else a generic family), base size as a percentage of the video's
    /// height, relative size (the scale), bold, italic, character edge style (outline or
    /// shadow) and the line position across the writing direction (the bottom margin).
    /// Others (alignment, text position, vertical layout, underline) are ignored.
    package init(textStyleRules: [AVTextStyleRule]) {
        self.init()
        for rule in textStyleRules where rule.textSelector == nil {
            apply(rule.textMarkupAttributes)
        }
    }

    /// Sets the fields `attributes` name.
    private mutating func apply(_ attributes: [String: Any]) {
        if let color = attributes[kCMTextMarkupAttribute_ForegroundColorARGB].flatMap(Self.color) {
            textColor = color
        }
        for key in [kCMTextMarkupAttribute_CharacterBackgroundColorARGB, kCMTextMarkupAttribute_BackgroundColorARGB] {
            if let color = attributes[key].flatMap(Self.color) { backgroundColor = color }
        }
        if let generic = attributes[kCMTextMarkupAttribute_GenericFontFamilyName] as? String {
            fontName = Self.fontconfigFamily(forGeneric: generic)
        }
        if let names = attributes[kCMTextMarkupAttribute_FontFamilyNameList] as? [Any],
            let first = names.first(where: { !(($0 as? String) ?? "").isEmpty }) as? String
        {
            fontName = first
        }
        if let name = attributes[kCMTextMarkupAttribute_FontFamilyName] as? String, !name.isEmpty {
            fontName = name
        }
        if let percent = attributes[kCMTextMarkupAttribute_BaseFontSizePercentageRelativeToVideoHeight]
            .flatMap(Self.number), percent > 0, percent.isFinite
        {
            fontSizeFraction = percent / 100
        }
        if let percent = attributes[kCMTextMarkupAttribute_RelativeFontSize].flatMap(Self.number),
            percent > 0, percent.isFinite
        {
            scale = percent / 100
        }
        if let bold = attributes[kCMTextMarkupAttribute_BoldStyle].flatMap(Self.flag) { isBold = bold }
        if let italic = attributes[kCMTextMarkupAttribute_ItalicStyle].flatMap(Self.flag) { isItalic = italic }
        if let edge = attributes[kCMTextMarkupAttribute_CharacterEdgeStyle] as? String { applyEdgeStyle(edge) }
        if let percent = attributes[kCMTextMarkupAttribute_OrthogonalLinePositionPercentageRelativeToWritingDirection]
            .flatMap(Self.number), percent.isFinite
        {
            // The line's position down from the top; the margin is what lies below it.
            bottomMarginFraction = min(1, max(0, (100 - percent) / 100))
        }
    }

    /// Outline and shadow for a `kCMTextMarkupCharacterEdgeStyle_…` value. Raised and depressed
    /// edges have no counterpart here: both become a shadow without an outline.
    private mutating func applyEdgeStyle(_ style: String) {
        switch style {
        case kCMTextMarkupCharacterEdgeStyle_None:
            outlineFraction = 0
            hasShadow = false
        case kCMTextMarkupCharacterEdgeStyle_Uniform:
            hasShadow = false
        case kCMTextMarkupCharacterEdgeStyle_DropShadow, kCMTextMarkupCharacterEdgeStyle_Raised,
            kCMTextMarkupCharacterEdgeStyle_Depressed:
            outlineFraction = 0
            hasShadow = true
        default:
            break
        }
    }

    /// The fontconfig family for a `kCMTextMarkupGenericFontName_…` value; nil for the default.
    static func fontconfigFamily(forGeneric generic: String) -> String? {
        switch generic {
        case kCMTextMarkupGenericFontName_Serif, kCMTextMarkupGenericFontName_ProportionalSerif:
            return "serif"
        case kCMTextMarkupGenericFontName_SansSerif, kCMTextMarkupGenericFontName_ProportionalSansSerif:
            return "sans-serif"
        case kCMTextMarkupGenericFontName_Monospace, kCMTextMarkupGenericFontName_MonospaceSerif,
            kCMTextMarkupGenericFontName_MonospaceSansSerif:
            return "monospace"
        case kCMTextMarkupGenericFontName_Cursive, kCMTextMarkupGenericFontName_Casual: return "cursive"
        case kCMTextMarkupGenericFontName_Fantasy: return "fantasy"
        default: return nil
        }
    }

    /// A colour from `[alpha, red, green, blue]` numbers from 0 to 1 (clamped); nil otherwise.
    static func color(_ value: Any) -> AVSubtitleColor? {
        let items: [Any]
        if let array = value as? [Any] {
            items = array
        } else if let array = value as? NSArray {
            items = array.map { $0 }
        } else {
            return nil
        }
        let numbers = items.compactMap(number)
        guard items.count == 4, numbers.count == 4, numbers.allSatisfy(\.isFinite) else { return nil }
        let c = numbers.map { min(1, max(0, $0)) }
        return AVSubtitleColor(red: c[1], green: c[2], blue: c[3], alpha: c[0])
    }

    /// A number from any numeric value (not a boolean).
    static func number(_ value: Any) -> Double? {
        // The exact type: a cast would bridge NSNumber 0 and 1 to Bool.
        if type(of: value) == Bool.self { return nil }
        switch value {
        case let number as Double: return number
        case let number as Float: return Double(number)
        case let number as Int: return Double(number)
        case let number as CGFloat: return Double(number)
        case let number as NSNumber: return number.doubleValue
        default: return nil
        }
    }

    /// A boolean from `true`/`false` or a number (non-zero is true).
    static func flag(_ value: Any) -> Bool? {
        if let flag = value as? Bool { return flag }
        return number(value).map { $0 != 0 }
    }
}
