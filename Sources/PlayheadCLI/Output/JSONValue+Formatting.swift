// Playhead: the deterministic JSON writer (escaping, number formatting, layout).

import Foundation

extension JSONValue {
    /// How `formatted(_:)` lays out its output.
    public enum Style: Sendable {
        /// One line, no spaces: `{"a":[1,2]}`.
        case compact
        /// Two-space indentation, one member or element per line, `": "` after keys.
        case pretty
    }

    /// The JSON text of this value, without a trailing newline.
    public func formatted(_ style: Style = .pretty) -> String {
        var output = ""
        write(to: &output, style: style, depth: 0)
        return output
    }

    // MARK: - Writing

    private func write(to output: inout String, style: Style, depth: Int) {
        switch self {
        case .null: output += "null"
        case .bool(let value): output += value ? "true" : "false"
        case .integer(let value): output += String(value)
        case .number(let value): output += JSONValue.formatNumber(value)
        case .string(let value): output += JSONValue.quote(value)
        case .array(let elements):
            writeContainer(
                elements, open: "[", close: "]", to: &output, style: style, depth: depth
            ) { element, output in
                element.write(to: &output, style: style, depth: depth + 1)
            }
        case .object(let object):
            writeContainer(
                object.members, open: "{", close: "}", to: &output, style: style, depth: depth
            ) { member, output in
                output += JSONValue.quote(member.key) + (style == .pretty ? ": " : ":")
                member.value.write(to: &output, style: style, depth: depth + 1)
            }
        }
    }

    private func writeContainer<Element>(
        _ elements: [Element], open: String, close: String, to output: inout String,
        style: Style, depth: Int, writeElement: (Element, inout String) -> Void
    ) {
        output += open
        guard !elements.isEmpty else {
            output += close
            return
        }
        let inner = style == .pretty ? "\n" + String(repeating: "  ", count: depth + 1) : ""
        for (index, element) in elements.enumerated() {
            if index > 0 { output += "," }
            output += inner
            writeElement(element, &output)
        }
        output += style == .pretty ? "\n" + String(repeating: "  ", count: depth) : ""
        output += close
    }

    // MARK: - Scalars

    /// A number with at most six decimals, trailing zeros removed and no exponent:
    /// `60.0` → `60`, `29.97002997` → `29.97003`, `1e20` → `100000000000000000000`.
    /// Infinity and NaN become `null`, which JSON has no other spelling for.
    public static func formatNumber(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        return DecimalText.format(value, maximumFractionDigits: 6)
    }

    /// A quoted JSON string. `"` and `\` are escaped, control characters use the short
    /// escapes or `\u00XX`, and U+2028 / U+2029 are escaped so the text is also valid
    /// JavaScript; all other Unicode is written as UTF-8.
    public static func quote(_ text: String) -> String {
        var output = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case "\u{08}": output += "\\b"
            case "\u{0C}": output += "\\f"
            case "\u{2028}", "\u{2029}", "\u{00}"..."\u{1F}", "\u{7F}":
                output += "\\u" + hex4(scalar.value)
            default: output.unicodeScalars.append(scalar)
            }
        }
        return output + "\""
    }

    private static func hex4(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: false)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}

// MARK: - Decimal text

/// Fixed-point decimal text without exponents, shared by the JSON writer and the
/// human-readable formatters.
enum DecimalText {
    /// `value` rounded to `maximumFractionDigits` decimals with trailing zeros (and a
    /// bare point) removed; `-0` prints as `0`. `value` must be finite.
    static func format(_ value: Double, maximumFractionDigits: Int) -> String {
        var text = String(format: "%.\(maximumFractionDigits)f", value)
        if text.contains(".") {
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        return text == "-0" ? "0" : text
    }
}
