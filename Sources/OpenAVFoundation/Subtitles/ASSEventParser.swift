// Playhead: reads ASS/SSA event text (the form FFmpeg gives every text subtitle codec) into
// styled runs: bold, italic, underline, colour, `\pos` and `\an` alignment.
import Foundation

/// The parts of an ASS script header cues need: the script's coordinate space and its styles.
///
/// Concurrency: an immutable value; parse once per subtitle stream.
struct ASSScript: Sendable {
    /// The coordinate space of `\pos` (ASS default 384x288).
    var playResX = 384.0
    var playResY = 288.0
    /// Styles by name.
    var styles: [String: ASSStyle] = [:]

    /// Reads `[Script Info]` PlayResX/Y and the `[V4+ Styles]` (or `[V4 Styles]`) section.
    init(header: String?) {
        guard let header else { return }
        var format: [String] = []
        for rawLine in header.split(whereSeparator: \.isNewline) {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if let value = Self.value(line, "PlayResX:"), let number = Double(value), number > 0 {
                playResX = number
            }
            if let value = Self.value(line, "PlayResY:"), let number = Double(value), number > 0 {
                playResY = number
            }
            if let value = Self.value(line, "Format:") {
                format = value.split(separator: ",").map {
                    $0.trimmingCharacters(in: .whitespaces).lowercased()
                }
            }
            if let value = Self.value(line, "Style:"), !format.isEmpty {
                let fields = value.split(
                    separator: ",", maxSplits: max(0, format.count - 1),
                    omittingEmptySubsequences: false
                )
                .map { $0.trimmingCharacters(in: .whitespaces) }
                var byName: [String: String] = [:]
                for (index, name) in format.enumerated() where index < fields.count {
                    byName[name] = fields[index]
                }
                guard let name = byName["name"] else { continue }
                var style = ASSStyle()
                style.isBold = Self.flag(byName["bold"])
                style.isItalic = Self.flag(byName["italic"])
                style.isUnderlined = Self.flag(byName["underline"])
                if let colour = byName["primarycolour"].flatMap(ASSEventParser.colour),
                    colour != .assWhite
                {
                    style.color = colour
                }
                if let alignment = byName["alignment"].flatMap({ Int($0) }),
                    (1...9).contains(alignment)
                {
                    style.alignment = alignment
                }
                styles[name] = style
            }
        }
    }

    private static func value(_ line: String, _ key: String) -> String? {
        guard line.hasPrefix(key) else { return nil }
        return line.dropFirst(key.count).trimmingCharacters(in: .whitespaces)
    }

    private static func flag(_ text: String?) -> Bool {
        guard let text, let number = Int(text) else { return false }
        return number != 0
    }
}

/// A named ASS style's basic attributes.
struct ASSStyle: Sendable, Equatable {
    var isBold = false
    var isItalic = false
    var isUnderlined = false
    var color: AVSubtitleColor?
    var alignment = 2
}

/// Parses one ASS event into a cue.
///
/// Concurrency: pure functions.
enum ASSEventParser {
    /// The cue for an ASS "Dialogue" payload
    /// (`ReadOrder,Layer,Style,Name,MarginL,MarginR,MarginV,Effect,Text`) shown over `range`.
    static func cue(line: String, range: CMTimeRange, script: ASSScript) -> AVSubtitleCue {
        let fields = line.split(separator: ",", maxSplits: 8, omittingEmptySubsequences: false)
        let styleName =
            fields.count > 2 ? String(fields[2]).trimmingCharacters(in: .whitespaces) : "Default"
        let text = fields.count == 9 ? String(fields[8]) : line
        let style = script.styles[styleName] ?? script.styles["Default"] ?? ASSStyle()
        return cue(text: text, range: range, style: style, script: script)
    }

    /// The cue for ASS event text (override blocks `{\b1}` and escapes `\N` included).
    static func cue(text: String, range: CMTimeRange, style: ASSStyle, script: ASSScript)
        -> AVSubtitleCue
    {
        var runs: [AVSubtitleTextRun] = []
        var current = AVSubtitleTextRun(
            text: "", isBold: style.isBold, isItalic: style.isItalic,
            isUnderlined: style.isUnderlined,
            color: style.color)
        var alignment = style.alignment
        var position: (x: Double, y: Double)?
        func flush() {
            if !current.text.isEmpty { runs.append(current) }
            current.text = ""
        }
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            if character == "{", let close = text[index...].firstIndex(of: "}") {
                flush()
                let block = text[text.index(after: index)..<close]
                for tag in block.split(separator: "\\").map(String.init) where !tag.isEmpty {
                    apply(
                        tag: tag, to: &current, style: style, alignment: &alignment,
                        position: &position, script: script)
                }
                index = text.index(after: close)
                continue
            }
            if character == "\\", text.index(after: index) < text.endIndex {
                let next = text[text.index(after: index)]
                if next == "N" || next == "n" || next == "h" {
                    current.text.append(next == "h" ? " " : "\n")
                    index = text.index(index, offsetBy: 2)
                    continue
                }
                // Escaped braces are text, as libass reads them.
                if next == "{" || next == "}" {
                    current.text.append(next)
                    index = text.index(index, offsetBy: 2)
                    continue
                }
            }
            current.text.append(character)
            index = text.index(after: index)
        }
        flush()
        return AVSubtitleCue(timeRange: range, runs: runs, alignment: alignment, position: position)
    }

    private static func apply(
        tag: String, to run: inout AVSubtitleTextRun, style: ASSStyle, alignment: inout Int,
        position: inout (x: Double, y: Double)?, script: ASSScript
    ) {
        func number(after prefix: String) -> Int? {
            Int(tag.dropFirst(prefix.count).prefix { $0.isNumber })
        }
        if tag.hasPrefix("pos(") {
            let inside = tag.dropFirst(4).prefix { $0 != ")" }.split(separator: ",")
            if inside.count == 2, let x = Double(inside[0].trimmingCharacters(in: .whitespaces)),
                let y = Double(inside[1].trimmingCharacters(in: .whitespaces))
            {
                position = (
                    min(max(x / script.playResX, 0), 1), min(max(y / script.playResY, 0), 1)
                )
            }
        } else if tag.hasPrefix("an"), let value = number(after: "an"), (1...9).contains(value) {
            alignment = value
        } else if tag.hasPrefix("bord") || tag.hasPrefix("blur") || tag.hasPrefix("be") {
            return
        } else if tag.hasPrefix("b"), let value = number(after: "b") {
            run.isBold = value != 0
        } else if tag.hasPrefix("i"), let value = number(after: "i") {
            run.isItalic = value != 0
        } else if tag.hasPrefix("u"), let value = number(after: "u") {
            run.isUnderlined = value != 0
        } else if tag.hasPrefix("c&") || tag.hasPrefix("1c&") {
            let code = tag.hasPrefix("c") ? tag.dropFirst(1) : tag.dropFirst(2)
            if let colour = colour(String(code)) { run.color = colour == .assWhite ? nil : colour }
        } else if tag == "r" {
            run.isBold = style.isBold
            run.isItalic = style.isItalic
            run.isUnderlined = style.isUnderlined
            run.color = style.color
        }
    }

    /// An ASS colour `&HAABBGGRR&` or `&HBBGGRR&` (alpha 00 is opaque) as RGBA.
    static func colour(_ code: String) -> AVSubtitleColor? {
        var hex = code.trimmingCharacters(in: CharacterSet(charactersIn: "&Hh"))
        if hex.hasPrefix("H") || hex.hasPrefix("h") { hex.removeFirst() }
        guard !hex.isEmpty, hex.count <= 8, let value = UInt32(hex, radix: 16) else { return nil }
        let red = Double(value & 0xFF) / 255
        let green = Double((value >> 8) & 0xFF) / 255
        let blue = Double((value >> 16) & 0xFF) / 255
        let alpha = 1 - Double((value >> 24) & 0xFF) / 255
        return AVSubtitleColor(red: red, green: green, blue: blue, alpha: alpha)
    }
}

extension AVSubtitleColor {
    static let assWhite = AVSubtitleColor(red: 1, green: 1, blue: 1, alpha: 1)
}
