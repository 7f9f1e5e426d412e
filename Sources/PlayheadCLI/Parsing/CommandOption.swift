// Playhead: one row of a command's option table.

/// A named option a command accepts, declared once and used for both parsing and help.
///
/// ```swift
/// CommandOption.flag("json", help: "Print one JSON object instead of text.")
/// CommandOption.value("at", valueName: "S", help: "Seek to S seconds.", repeatable: true)
/// ```
public struct CommandOption: Sendable, Equatable {
    /// Whether the option is a switch or carries a value.
    public enum Kind: Sendable, Equatable {
        /// A switch: `--json`. Giving it a value (`--json=yes`) is a usage error.
        case flag
        /// An option with a value: `--at 12`, `--at=12` or `-a 12`.
        /// `valueName` is the placeholder shown in usage and help (`S`, `FILE`).
        case value(valueName: String)
    }

    /// The long name without dashes: `"json"` for `--json`.
    public var name: String

    /// The one-letter short name, if any: `"h"` for `-h`.
    public var shortName: Character?

    /// Whether this is a flag or a value option.
    public var kind: Kind

    /// One sentence for the help listing.
    public var help: String

    /// Whether help should advertise that the option may be given more than once.
    ///
    /// The parser accepts repeats of every option either way; a single-valued
    /// reader (`ParsedArguments.value(_:)`) sees the last occurrence.
    public var isRepeatable: Bool

    /// Creates an option table row.
    ///
    /// - Parameters:
    ///   - name: The long name without dashes.
    ///   - shortName: An optional one-letter alias.
    ///   - kind: `.flag` or `.value(valueName:)`.
    ///   - help: One sentence for the help listing.
    ///   - isRepeatable: Whether help marks the option as repeatable.
    public init(
        name: String, shortName: Character? = nil, kind: Kind, help: String,
        isRepeatable: Bool = false
    ) {
        self.name = name
        self.shortName = shortName
        self.kind = kind
        self.help = help
        self.isRepeatable = isRepeatable
    }

    // MARK: - Builders

    /// Declares a flag (an option without a value).
    public static func flag(
        _ name: String, short shortName: Character? = nil, help: String
    ) -> CommandOption {
        CommandOption(name: name, shortName: shortName, kind: .flag, help: help)
    }

    /// Declares an option that takes a value.
    public static func value(
        _ name: String, short shortName: Character? = nil, valueName: String, help: String,
        repeatable: Bool = false
    ) -> CommandOption {
        CommandOption(
            name: name, shortName: shortName, kind: .value(valueName: valueName), help: help,
            isRepeatable: repeatable)
    }

    /// The `-h, --help` flag every command accepts; it is added automatically.
    public static let help = CommandOption.flag("help", short: "h", help: "Show this help.")

    // MARK: - Spellings

    /// The long spelling with dashes: `--json`.
    public var longSpelling: String { "--" + name }

    /// The value placeholder, or `nil` for a flag.
    public var valueName: String? {
        if case .value(let valueName) = kind { return valueName }
        return nil
    }

    /// How the option appears in a usage line: `[--json]`, `[--at S ...]`.
    public var usageSpelling: String {
        var text = longSpelling
        if let valueName { text += " " + valueName }
        if isRepeatable { text += " ..." }
        return "[" + text + "]"
    }

    /// How the option appears in the help listing: `-h, --help`, `--at S`.
    public var helpSpelling: String {
        var text = shortName.map { "-\($0), " } ?? ""
        text += longSpelling
        if let valueName { text += " " + valueName }
        return text
    }
}

// MARK: - Positional arguments

/// A positional argument a command accepts, such as `INPUT`.
///
/// Required arguments must come before optional ones.
public struct PositionalArgument: Sendable, Equatable {
    /// The placeholder shown in usage and help, conventionally upper case.
    public var name: String

    /// One sentence for the help listing.
    public var help: String

    /// Whether the argument may be left out.
    public var isOptional: Bool

    /// Whether the argument takes every remaining word (it must be the last one).
    public var isVariadic: Bool

    /// Creates a positional argument.
    ///
    /// - Parameters:
    ///   - name: The placeholder, such as `INPUT`.
    ///   - help: One sentence for the help listing.
    ///   - isOptional: Whether the argument may be left out.
    ///   - isVariadic: Whether it collects all remaining words (`INPUT...`).
    public init(_ name: String, help: String, isOptional: Bool = false, isVariadic: Bool = false) {
        self.name = name
        self.help = help
        self.isOptional = isOptional
        self.isVariadic = isVariadic
    }

    /// How the argument appears in a usage line: `INPUT`, `[COMMAND]` or `INPUT...`.
    public var usageSpelling: String {
        let spelled = isVariadic ? name + "..." : name
        return isOptional ? "[" + spelled + "]" : spelled
    }
}
