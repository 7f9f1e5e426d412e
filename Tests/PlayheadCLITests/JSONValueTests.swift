// Playhead: tests for the JSON writer's escaping, numbers, layout and key order.

import Foundation
import PlayheadCLI
import Testing

@Suite struct JSONValueTests {
    // MARK: - Strings

    @Test func quotesAndBackslashesAreEscaped() async {
        #expect(JSONValue.quote(#"say "hi" \ bye"#) == #""say \"hi\" \\ bye""#)
    }

    @Test func controlCharactersUseShortOrUnicodeEscapes() async {
        #expect(JSONValue.quote("a\nb\rc\td\u{08}e\u{0C}f") == #""a\nb\rc\td\be\ff""#)
        #expect(JSONValue.quote("\u{00}\u{01}\u{1F}\u{7F}") == #""\u0000\u0001\u001f\u007f""#)
    }

    @Test func unicodeIsWrittenAsIsExceptLineSeparators() async {
        #expect(JSONValue.quote("Café 🎬 日本") == "\"Café 🎬 日本\"")
        #expect(JSONValue.quote("a\u{2028}b\u{2029}") == #""a\u2028b\u2029""#)
        #expect(JSONValue.quote("e\u{301}") == "\"e\u{301}\"")
        #expect(JSONValue.quote("/") == "\"/\"")
    }

    @Test func escapedStringsRoundTripThroughJSONSerialization() async throws {
        let original = "tab\t nul\u{0} quote\" emoji🎬 \u{2028} back\\slash"
        let text = JSONValue.array([.string(original)]).formatted(.compact)
        let parsed = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String]
        #expect(parsed == [original])
    }

    // MARK: - Numbers

    @Test func integersPrintAsIntegers() async {
        #expect(JSONValue.integer(0).formatted() == "0")
        #expect(JSONValue.integer(-42).formatted() == "-42")
        #expect(JSONValue.integer(Int.max).formatted() == "9223372036854775807")
    }

    @Test func doublesHaveAtMostSixDecimalsAndNoExponent() async {
        #expect(JSONValue.number(63.5).formatted() == "63.5")
        #expect(JSONValue.number(60).formatted() == "60")
        #expect(JSONValue.number(30000.0 / 1001.0).formatted() == "29.97003")
        #expect(JSONValue.number(0.1 + 0.2).formatted() == "0.3")
        #expect(JSONValue.number(1e20).formatted() == "100000000000000000000")
        #expect(JSONValue.number(1e-7).formatted() == "0")
        #expect(JSONValue.number(-0.0).formatted() == "0")
        #expect(JSONValue.number(-2.5e-7).formatted() == "0")
        #expect(JSONValue.number(-1.25).formatted() == "-1.25")
        #expect(JSONValue.number(0.000001).formatted() == "0.000001")
    }

    @Test func nonFiniteNumbersBecomeNull() async {
        #expect(JSONValue.number(.nan).formatted() == "null")
        #expect(JSONValue.number(.infinity).formatted() == "null")
        #expect(JSONValue.number(-.infinity).formatted() == "null")
    }

    // MARK: - Containers

    @Test func objectsKeepLiteralOrder() async {
        let value: JSONValue = ["z": 1, "a": 2, "m": nil]
        #expect(value.formatted(.compact) == #"{"z":1,"a":2,"m":null}"#)
    }

    @Test func settingAnExistingKeyKeepsItsPlaceAndNilRemovesIt() async {
        var object: JSONObject = ["a": 1, "b": 2, "c": 3]
        object["a"] = "first"
        object["b"] = nil
        object["d"] = true
        #expect(object.keys == ["a", "c", "d"])
        #expect(JSONValue.object(object).formatted(.compact) == #"{"a":"first","c":3,"d":true}"#)
    }

    @Test func prettyOutputIndentsByTwoSpacesAndKeepsEmptyContainersInline() async {
        let value: JSONValue = [
            "name": "x", "list": [1, 2.5, false], "empty": [], "nested": ["inner": [:]],
        ]
        #expect(
            value.formatted(.pretty) == """
                {
                  "name": "x",
                  "list": [
                    1,
                    2.5,
                    false
                  ],
                  "empty": [],
                  "nested": {
                    "inner": {}
                  }
                }
                """)
    }

    @Test func optionalInitializersMapNilToNull() async {
        #expect(JSONValue(Int?.none) == .null)
        #expect(JSONValue(Double?.some(1.5)) == .number(1.5))
        #expect(JSONValue(String?.some("s")) == .string("s"))
        #expect(JSONValue(Bool?.none) == .null)
    }
}
