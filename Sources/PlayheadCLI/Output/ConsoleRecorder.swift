// Playhead: an in-memory console that records what a command wrote.

import OpenAVFoundation

/// Captures everything written to its `console` so tests can inspect it.
///
/// Thread-safe: the recorded text sits behind a mutex.
public final class ConsoleRecorder: Sendable {
    private let streams = Locked<(output: String, error: String)>(("", ""))

    /// Creates a recorder with nothing captured yet.
    public init() {}

    /// A console whose two streams append to this recorder.
    public var console: Console {
        Console(
            writeOutput: { text in self.streams.withLock { $0.output += text } },
            writeError: { text in self.streams.withLock { $0.error += text } }
        )
    }

    /// Everything written to standard output so far.
    public var standardOutput: String {
        streams.withLock { $0.output }
    }

    /// Everything written to standard error so far.
    public var standardError: String {
        streams.withLock { $0.error }
    }
}
