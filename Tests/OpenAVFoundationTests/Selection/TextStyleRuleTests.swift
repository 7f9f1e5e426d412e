// Playhead: AVTextStyleRule and AVPlayerItem.textStyleRules: the rules, their property lists,
// and the subtitle look they work out to for the window.
import Foundation
import PlayheadTestSupport
import Testing

@testable import OpenAVFoundation

@Suite struct TextStyleRuleTests {
    @Test func aRuleKeepsItsAttributesAndSelector() throws {
        let rule = try #require(
            AVTextStyleRule(textMarkupAttributes: [kCMTextMarkupAttribute_ItalicStyle: true], textSelector: "speaker"))
        #expect(rule.textSelector == "speaker")
        #expect(rule.textMarkupAttributes[kCMTextMarkupAttribute_ItalicStyle] as? Bool == true)
        let all = try #require(AVTextStyleRule(textMarkupAttributes: [:]))
        #expect(all.textSelector == nil)
        #expect(all.textMarkupAttributes.isEmpty)
        #expect(AVTextStyleRule(textMarkupAttributes: ["x": NSObject()]) == nil)
        #expect(AVTextStyleRule(textMarkupAttributes: ["x": [1, NSObject()] as [Any]]) == nil)
        #expect(rule.copy() as? AVTextStyleRule === rule)
    }

    @Test func rulesSurviveTheirPropertyListAndSerialization() throws {
        let rules = [
            try #require(
                AVTextStyleRule(textMarkupAttributes: [
                    kCMTextMarkupAttribute_ForegroundColorARGB: [1.0, 1.0, 1.0, 0.0],
                    kCMTextMarkupAttribute_RelativeFontSize: 150,
                ])),
            try #require(
                AVTextStyleRule(
                    textMarkupAttributes: [kCMTextMarkupAttribute_FontFamilyName: "DejaVu Serif"],
                    textSelector: "names")),
        ]
        let plist = AVTextStyleRule.propertyList(for: rules)
        let back = try #require(AVTextStyleRule.textStyleRules(fromPropertyList: plist))
        #expect(back == rules)
        let data = try PropertyListSerialization.data(fromPropertyList: plist, format: .xml, options: 0)
        let read = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
        let restored = try #require(AVTextStyleRule.textStyleRules(fromPropertyList: read))
        #expect(restored.map(\.textSelector) == [nil, "names"])
        #expect(SubtitleAppearance(textStyleRules: restored) == SubtitleAppearance(textStyleRules: rules))
        #expect(AVTextStyleRule.textStyleRules(fromPropertyList: "junk") == nil)
        #expect(AVTextStyleRule.textStyleRules(fromPropertyList: [["textSelector": 3]]) == nil)
        #expect(AVTextStyleRule.textStyleRules(fromPropertyList: [Any]())?.isEmpty == true)
    }

    @Test func theMarkupNamesAreApples() {
        #expect(kCMTextMarkupAttribute_BaseFontSizePercentageRelativeToVideoHeight == "BaseFontSizePercentageRelativeToVideoHeight")
        #expect(kCMTextMarkupAttribute_CharacterEdgeStyle == "CharacterEdgeStyle")
        #expect(kCMTextMarkupCharacterEdgeStyle_DropShadow == "DropShadow")
        #expect(kCMTextMarkupGenericFontName_SansSerif == "SansSerif")
        #expect(kCMTextMarkupAlignmentType_Middle == "Middle")
    }
}

@Suite struct TextStyleAppearanceTests {
    func look(_ attributes: [String: Any]) -> SubtitleAppearance {
        SubtitleAppearance(textStyleRules: [AVTextStyleRule(textMarkupAttributes: attributes)!])
    }

    @Test func noRulesLeaveTheRenderersDefaults() {
        #expect(SubtitleAppearance(textStyleRules: []) == SubtitleAppearance())
    }

    @Test func coloursSizesFontsAndStyles() {
        let appearance = look([
            kCMTextMarkupAttribute_ForegroundColorARGB: [1, 1, 1, 0],
            kCMTextMarkupAttribute_BackgroundColorARGB: [0.5, 0, 0, 0],
            kCMTextMarkupAttribute_FontFamilyName: "DejaVu Serif",
            kCMTextMarkupAttribute_GenericFontFamilyName: kCMTextMarkupGenericFontName_Monospace,
            kCMTextMarkupAttribute_BaseFontSizePercentageRelativeToVideoHeight: 5,
            kCMTextMarkupAttribute_RelativeFontSize: 150,
            kCMTextMarkupAttribute_BoldStyle: true,
            kCMTextMarkupAttribute_ItalicStyle: false,
            kCMTextMarkupAttribute_OrthogonalLinePositionPercentageRelativeToWritingDirection: 85,
        ])
        #expect(appearance.textColor == AVSubtitleColor(red: 1, green: 1, blue: 0, alpha: 1))
        #expect(appearance.backgroundColor == AVSubtitleColor(red: 0, green: 0, blue: 0, alpha: 0.5))
        #expect(appearance.fontName == "DejaVu Serif")  // a named family beats a generic one
        #expect(appearance.fontSizeFraction == 0.05)
        #expect(appearance.scale == 1.5)
        #expect(appearance.isBold == true)
        #expect(appearance.isItalic == false)
        #expect(abs((appearance.bottomMarginFraction ?? 0) - 0.15) < 1e-9)
        #expect(look([kCMTextMarkupAttribute_GenericFontFamilyName: kCMTextMarkupGenericFontName_Serif]).fontName == "serif")
        #expect(
            look([kCMTextMarkupAttribute_CharacterBackgroundColorARGB: [NSNumber(value: 1), 0, 0, 1] as [Any]])
                .backgroundColor == AVSubtitleColor(red: 0, green: 0, blue: 1))
    }

    @Test func edgeStylesBecomeOutlineOrShadow() {
        let none = look([kCMTextMarkupAttribute_CharacterEdgeStyle: kCMTextMarkupCharacterEdgeStyle_None])
        #expect(none.outlineFraction == 0)
        #expect(none.hasShadow == false)
        let uniform = look([kCMTextMarkupAttribute_CharacterEdgeStyle: kCMTextMarkupCharacterEdgeStyle_Uniform])
        #expect(uniform.outlineFraction == nil)
        #expect(uniform.hasShadow == false)
        let shadow = look([kCMTextMarkupAttribute_CharacterEdgeStyle: kCMTextMarkupCharacterEdgeStyle_DropShadow])
        #expect(shadow.outlineFraction == 0)
        #expect(shadow.hasShadow == true)
    }

    @Test func badValuesAreIgnoredAndSelectorsApplyToNothing() {
        let appearance = look([
            kCMTextMarkupAttribute_ForegroundColorARGB: [1, 1],
            kCMTextMarkupAttribute_RelativeFontSize: -20,
            kCMTextMarkupAttribute_BaseFontSizePercentageRelativeToVideoHeight: "big",
            kCMTextMarkupAttribute_BoldStyle: "yes",
        ])
        #expect(appearance == SubtitleAppearance())
        let selected = SubtitleAppearance(textStyleRules: [
            AVTextStyleRule(textMarkupAttributes: [kCMTextMarkupAttribute_RelativeFontSize: 200], textSelector: "x")!
        ])
        #expect(selected == SubtitleAppearance())
    }

    @Test func laterRulesWin() {
        let appearance = SubtitleAppearance(textStyleRules: [
            AVTextStyleRule(textMarkupAttributes: [
                kCMTextMarkupAttribute_RelativeFontSize: 200, kCMTextMarkupAttribute_FontFamilyName: "A",
            ])!,
            AVTextStyleRule(textMarkupAttributes: [kCMTextMarkupAttribute_RelativeFontSize: 50])!,
        ])
        #expect(appearance.scale == 0.5)
        #expect(appearance.fontName == "A")
    }

    @Test func anItemsRulesSetItsLookForAnyThread() async throws {
        let item = AVPlayerItem(url: try Fixture.url(.mp4))
        #expect(item.textStyleRules == nil)
        #expect(item.subtitleAppearance == SubtitleAppearance())
        let rule = AVTextStyleRule(textMarkupAttributes: [kCMTextMarkupAttribute_RelativeFontSize: 125])!
        item.textStyleRules = [rule]
        #expect(item.textStyleRules == [rule])
        let fromAnotherThread = await Task.detached { item.subtitleAppearance.scale }.value
        #expect(fromAnotherThread == 1.25)
        item.textStyleRules = nil
        #expect(item.textStyleRules == nil)
        #expect(item.subtitleAppearance == SubtitleAppearance())
    }
}
