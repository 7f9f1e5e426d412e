// Playhead: the options of `playhead thumbnail`, parsed and checked.
import Foundation

/// What `playhead thumbnail` was asked to do.
public struct ThumbnailOptions: Sendable, Equatable {
    /// The input as typed.
    public var input: String
    /// The requested times in seconds, in command-line order (empty with `--sheet`: evenly
    /// spaced).
    public var times: [Double]
    /// The image (or tile) width in pixels; nil keeps the video's width (320 for sheet tiles).
    public var width: Int?
    /// The output path as typed; its extension picks PNG or JPEG.
    public var output: String
    /// Columns and rows of a contact sheet, when one was asked for.
    public var sheet: (columns: Int, rows: Int)?
    /// Use the keyframe before each time instead of the exact frame.
    public var keyframesOnly = false

    /// Equal when every field is.
    public static func == (lhs: ThumbnailOptions, rhs: ThumbnailOptions) -> Bool {
        lhs.input == rhs.input && lhs.times == rhs.times && lhs.width == rhs.width
            && lhs.output == rhs.output && lhs.sheet?.columns == rhs.sheet?.columns
            && lhs.sheet?.rows == rhs.sheet?.rows && lhs.keyframesOnly == rhs.keyframesOnly
    }

    static let atOption = CommandOption.value(
        "at", valueName: "S",
        help: "A time in seconds (or M:SS, H:MM:SS).", repeatable: true)
    static let widthOption = CommandOption.value(
        "width", valueName: "W", help: "Image width in pixels (height follows the aspect ratio).")
    static let outputOption = CommandOption.value(
        "output", short: "o", valueName: "OUT",
        help: "The image to write (.png, .jpg or .jpeg); several times write OUT-1, OUT-2, ...")
    static let sheetOption = CommandOption.value(
        "sheet", valueName: "COLSxROWS",
        help: "Write one contact sheet with a time stamp on each tile (evenly spaced without --at).")
    static let keyframesOption = CommandOption.flag(
        "keyframes", help: "Use the keyframe at or before each time (faster, not exact).")

    /// Every option, in help order.
    static let all = [atOption, widthOption, outputOption, sheetOption, keyframesOption]

    /// Reads and checks the options.
    ///
    /// - Throws: `UsageError` for a missing or malformed value.
    static func from(_ arguments: ParsedArguments, input: String) throws(UsageError) -> ThumbnailOptions {
        guard let output = arguments.value(outputOption.name), !output.isEmpty else {
            throw UsageError(.other("missing -o OUT (the image to write)"))
        }
        let ext = URL(fileURLWithPath: output).pathExtension.lowercased()
        guard ["png", "jpg", "jpeg"].contains(ext) else {
            throw UsageError(
                .invalidValue(option: "--output", value: output, expected: "a .png, .jpg or .jpeg file name"))
        }
        var times: [Double] = []
        for text in arguments.values(atOption.name) {
            guard let seconds = parseTime(text) else {
                throw UsageError(
                    .invalidValue(option: "--at", value: text, expected: "a time of 0 or more seconds"))
            }
            times.append(seconds)
        }
        var width: Int?
        if let text = arguments.value(widthOption.name) {
            guard let value = Int(text), value > 0, value <= 16384 else {
                throw UsageError(
                    .invalidValue(option: "--width", value: text, expected: "a width from 1 to 16384"))
            }
            width = value
        }
        var sheet: (Int, Int)?
        if let text = arguments.value(sheetOption.name) {
            let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
            guard parts.count == 2, let columns = Int(parts[0]), let rows = Int(parts[1]),
                (1...32).contains(columns), (1...32).contains(rows)
            else {
                throw UsageError(
                    .invalidValue(option: "--sheet", value: text, expected: "COLSxROWS, each 1 to 32"))
            }
            if times.count > columns * rows {
                throw UsageError(
                    .other("\(times.count) times do not fit a \(columns)x\(rows) sheet"))
            }
            sheet = (columns, rows)
        }
        if times.isEmpty && sheet == nil {
            throw UsageError(.other("missing --at S (or --sheet COLSxROWS)"))
        }
        var options = ThumbnailOptions(input: input, times: times, width: width, output: output, sheet: sheet)
        options.keyframesOnly = arguments.flag(keyframesOption.name)
        return options
    }

    /// Seconds from `12.5`, `1:02.5` or `1:00:02.5`; nil for anything else or a negative time.
    static func parseTime(_ text: String) -> Double? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count) else { return nil }
        var seconds = 0.0
        for (index, part) in parts.enumerated() {
            guard let value = Double(part), value.isFinite, value >= 0 else { return nil }
            // Minutes and seconds after a colon stay below 60; hours and a lone value need not.
            if index > 0 && value >= 60 { return nil }
            seconds = seconds * 60 + value
        }
        return seconds
    }

    /// The files written for `count` images: OUT itself for one, OUT-1, OUT-2, ... otherwise.
    static func outputPaths(for output: String, count: Int) -> [String] {
        guard count > 1 else { return [output] }
        let url = URL(fileURLWithPath: output)
        let ext = url.pathExtension
        let stem = String(output.dropLast(ext.isEmpty ? 0 : ext.count + 1))
        return (1...count).map { "\(stem)-\($0).\(ext)" }
    }
}
