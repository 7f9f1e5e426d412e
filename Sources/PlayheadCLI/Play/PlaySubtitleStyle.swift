// Playhead: `playhead play --sub-delay/--sub-font/--sub-scale`: when and how the window draws
// subtitles, parsed and checked.
// Concurrency: a value.
import OpenAVFoundation

/// When and how the player window draws subtitles; the item and its selection are untouched.
public struct PlaySubtitleStyle: Sendable, Equatable {
    /// Seconds the subtitles show later than their times (negative: earlier).
    public var delay: Double = 0
    /// The font family to draw plain subtitles in (a fontconfig name); nil: the window's own.
    public var fontName: String?
    /// How much larger (or smaller, below 1) every subtitle is drawn.
    public var scale: Double = 1

    /// The window's defaults: no delay, its own font, scale 1.
    public init() {}

    /// The largest delay either way, in seconds.
    static let delayLimit = 600.0
    /// The smallest and largest scale.
    static let scaleRange = 0.1...10.0

    static let delayOption = CommandOption.value(
        "sub-delay", valueName: "S",
        help: "Show subtitles S seconds later (negative: earlier); z and x change it by 0.1 s.")
    static let fontOption = CommandOption.value(
        "sub-font", valueName: "NAME",
        help: "Draw subtitles without styles of their own in font NAME (e.g. \"DejaVu Serif\").")
    static let scaleOption = CommandOption.value(
        "sub-scale", valueName: "FACTOR", help: "Draw every subtitle FACTOR times as large (0.1 to 10).")

    /// The options, in help order.
    static let options = [delayOption, fontOption, scaleOption]

    /// Reads and checks the options.
    static func from(_ arguments: ParsedArguments) throws(UsageError) -> PlaySubtitleStyle {
        var style = PlaySubtitleStyle()
        let delayExpected = "seconds from -\(Int(delayLimit)) to \(Int(delayLimit))"
        if let delay = try arguments.value(delayOption.name, as: Double.self, expected: delayExpected) {
            guard delay.isFinite, abs(delay) <= delayLimit else {
                throw invalid(delayOption, arguments.value(delayOption.name) ?? "\(delay)", delayExpected)
            }
            style.delay = delay
        }
        if let name = arguments.value(fontOption.name) {
            let trimmed = name.trimmingCharacters(in: .whitespaces)
            guard !trimmed.isEmpty, !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
            else {
                throw invalid(fontOption, name, "a font family name such as \"DejaVu Sans\"")
            }
            style.fontName = trimmed
        }
        let scaleExpected = "a factor from 0.1 to 10"
        if let scale = try arguments.value(scaleOption.name, as: Double.self, expected: scaleExpected) {
            guard scaleRange.contains(scale) else {
                throw invalid(scaleOption, arguments.value(scaleOption.name) ?? "\(scale)", scaleExpected)
            }
            style.scale = scale
        }
        return style
    }

    private static func invalid(_ option: CommandOption, _ value: String, _ expected: String) -> UsageError {
        UsageError(.invalidValue(option: option.longSpelling, value: value, expected: expected))
    }

    /// The look these options ask for, for `PlayerWindow.subtitleAppearance`.
    var appearance: SubtitleAppearance {
        var appearance = SubtitleAppearance()
        appearance.fontName = fontName
        appearance.scale = scale
        return appearance
    }
}
