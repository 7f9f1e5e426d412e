// Playhead: the result of parsing one command's arguments.

/// The options and positional arguments found on a command line, keyed by
/// their declared names.
public struct ParsedArguments: Sendable, Equatable {
    /// Every value given for each value option, in command-line order, keyed by long name.
    public var optionValues: [String: [String]]

    /// How many times each flag was given, keyed by long name.
    public var flagCounts: [String: Int]

    /// The positional arguments, keyed by their placeholder (`INPUT`).
    public var positionals: [String: String]

    /// Whether `-h` or `--help` appeared before `--`; the other fields are then empty.
    public var isHelpRequested: Bool

    /// Creates a parse result; normally only `OptionParser` does this.
    public init(
        optionValues: [String: [String]] = [:], flagCounts: [String: Int] = [:],
        positionals: [String: String] = [:], isHelpRequested: Bool = false
    ) {
        self.optionValues = optionValues
        self.flagCounts = flagCounts
        self.positionals = positionals
        self.isHelpRequested = isHelpRequested
    }

    // MARK: - Reading

    /// Whether the flag with this long name was given at least once.
    public func flag(_ name: String) -> Bool {
        flagCounts[name, default: 0] > 0
    }

    /// The last value given for this option, or `nil` if it was not given.
    public func value(_ name: String) -> String? {
        optionValues[name]?.last
    }

    /// Every value given for this option, in order; empty if it was not given.
    public func values(_ name: String) -> [String] {
        optionValues[name] ?? []
    }

    /// The positional argument with this placeholder, or `nil` if an optional one was left out.
    /// For a variadic argument, the first of its words.
    public func argument(_ name: String) -> String? {
        positionals[name] ?? variadicPositionals[name]?.first
    }

    /// Every word of a variadic positional argument, in order; for a single one, that word.
    public func arguments(_ name: String) -> [String] {
        variadicPositionals[name] ?? positionals[name].map { [$0] } ?? []
    }

    /// The words of variadic positional arguments, keyed by placeholder.
    public var variadicPositionals: [String: [String]] = [:]

    /// The last value of an option converted to `T`.
    ///
    /// - Parameters:
    ///   - name: The option's long name.
    ///   - type: The type to convert to, such as `Double.self`.
    ///   - expected: How to describe a valid value in the error, such as `"a number of seconds"`.
    /// - Returns: The converted value, or `nil` when the option was not given.
    /// - Throws: `UsageError` with `.invalidValue` when the text does not convert.
    public func value<T: LosslessStringConvertible>(
        _ name: String, as type: T.Type, expected: String
    ) throws(UsageError) -> T? {
        guard let text = value(name) else { return nil }
        guard let converted = T(text) else {
            throw UsageError(.invalidValue(option: "--" + name, value: text, expected: expected))
        }
        return converted
    }
}
