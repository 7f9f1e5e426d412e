// Playhead: the one-line error messages `playhead` prints on standard error.

import Foundation

/// A failure tied to one input (a file or URL) that could not be used; reported
/// as `playhead: <input>: <reason>` with `ExitCode.failure`.
public struct InputFailure: Error, Sendable, Equatable {
    /// The input as the user typed it.
    public var input: String

    /// Why it failed, already on a single line.
    public var reason: String

    /// Creates a failure from a ready-made reason (newlines are collapsed).
    public init(input: String, reason: String) {
        self.input = input
        self.reason = Diagnostics.singleLine(reason)
    }

    /// Creates a failure from any error, using its user-facing description.
    public init(input: String, error: any Error) {
        self.init(input: input, reason: Diagnostics.reason(for: error))
    }
}

/// Formats the messages `playhead` writes on standard error.
public enum Diagnostics {
    /// The user-facing text of an error on one line.
    ///
    /// Uses `LocalizedError.errorDescription` when the error provides one, and
    /// otherwise the bridged `NSError.localizedDescription`.
    public static func reason(for error: any Error) -> String {
        let text =
            (error as? LocalizedError)?.errorDescription
            ?? (error as NSError).localizedDescription
        return singleLine(text)
    }

    /// Collapses every run of whitespace that contains a line break into one
    /// space and trims the ends; an empty result becomes `"unknown error"`.
    public static func singleLine(_ text: String) -> String {
        var lines: [Substring] = []
        for line in text.split(omittingEmptySubsequences: true, whereSeparator: \.isNewline) {
            let trimmed = line.drop(while: \.isWhitespace)
            let end = trimmed.lastIndex(where: { !$0.isWhitespace })
            if let end { lines.append(trimmed[...end]) }
        }
        let joined = lines.joined(separator: " ")
        return joined.isEmpty ? "unknown error" : joined
    }

    /// `playhead: <input>: <reason>`.
    public static func line(for failure: InputFailure) -> String {
        "\(Playhead.executableName): \(singleLine(failure.input)): \(failure.reason)"
    }

    /// `playhead: <reason>` for a failure that names no input.
    public static func line(for error: any Error) -> String {
        "\(Playhead.executableName): \(reason(for: error))"
    }

    /// The three lines of a usage error: the problem, the usage line and the help hint.
    ///
    /// - Parameters:
    ///   - error: What is wrong.
    ///   - usage: The usage line without the `Usage: ` prefix.
    ///   - hint: Where to find more help, such as `See 'playhead help probe'.`
    public static func lines(for error: UsageError, usage: String, hint: String) -> [String] {
        [
            "\(Playhead.executableName): error: \(singleLine(error.message))",
            "Usage: \(usage)",
            hint,
        ]
    }
}
