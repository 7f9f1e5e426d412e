// Playhead: the injectable standard output / standard error sink.

import Foundation

/// Where a command writes its output.
///
/// Commands never touch `FileHandle` or `print` directly; they write through a
/// `Console`, so tests can capture both streams in memory (see `ConsoleRecorder`).
public struct Console: Sendable {
    /// Receives text meant for standard output, exactly as written.
    public var writeOutput: @Sendable (String) -> Void

    /// Receives text meant for standard error, exactly as written.
    public var writeError: @Sendable (String) -> Void

    /// Creates a console from two raw sinks.
    ///
    /// - Parameters:
    ///   - writeOutput: Called with standard-output text; newlines are already included.
    ///   - writeError: Called with standard-error text; newlines are already included.
    public init(
        writeOutput: @escaping @Sendable (String) -> Void,
        writeError: @escaping @Sendable (String) -> Void
    ) {
        self.writeOutput = writeOutput
        self.writeError = writeError
    }

    /// The process's real standard output and standard error, written unbuffered.
    public static var standard: Console {
        Console(
            writeOutput: { FileHandle.standardOutput.write(Data($0.utf8)) },
            writeError: { FileHandle.standardError.write(Data($0.utf8)) }
        )
    }

    // MARK: - Line helpers

    /// Writes `text` and a trailing newline to standard output.
    public func print(_ text: String) {
        writeOutput(text + "\n")
    }

    /// Writes `text` and a trailing newline to standard error.
    public func printError(_ text: String) {
        writeError(text + "\n")
    }
}
