// Playhead: the error for a command line that cannot be understood.

/// A mistake in the command line itself; reported on standard error with a
/// usage hint, and the process exits with `ExitCode.usageError`.
public struct UsageError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What exactly is wrong.
    public enum Reason: Sendable, Equatable {
        /// An option that is not in the table, as typed (`--bogus`, `-x`).
        case unknownOption(String)
        /// A value option came last or was followed by another option; carries the spelling typed.
        case missingValue(option: String)
        /// A flag was given a value with `=`; carries the flag's spelling.
        case unexpectedValue(option: String)
        /// A required positional argument was not given; carries its placeholder.
        case missingArgument(String)
        /// More positional arguments than the command accepts; carries the first extra one.
        case unexpectedArgument(String)
        /// The first word is not a registered command.
        case unknownCommand(String)
        /// A value could not be understood, for example `--at abc`.
        case invalidValue(option: String, value: String, expected: String)
        /// Any other problem, phrased by the command.
        case other(String)
    }

    /// What exactly is wrong.
    public var reason: Reason

    /// Creates a usage error.
    public init(_ reason: Reason) {
        self.reason = reason
    }

    /// The text after `playhead: error: `, in lower case without a final period.
    public var message: String {
        switch reason {
        case .unknownOption(let option):
            return "unknown option '\(option)'"
        case .missingValue(let option):
            return "missing value for option '\(option)'"
        case .unexpectedValue(let option):
            return "option '\(option)' does not take a value"
        case .missingArgument(let name):
            return "missing required argument \(name)"
        case .unexpectedArgument(let argument):
            return "unexpected argument '\(argument)'"
        case .unknownCommand(let name):
            return "unknown command '\(name)'"
        case .invalidValue(let option, let value, let expected):
            return "invalid value '\(value)' for option '\(option)': expected \(expected)"
        case .other(let text):
            return text
        }
    }

    /// Same as `message`.
    public var description: String { message }
}
