// Playhead: the error type thrown by the test-support helpers.
import Foundation

/// A failure while preparing test media or asking `ffprobe` about it.
public struct TestSupportError: Error, CustomStringConvertible, Sendable {
    /// A readable account of what went wrong, including any tool output.
    public let message: String

    /// Creates an error carrying `message`.
    public init(_ message: String) {
        self.message = message
    }

    /// The same text as ``message``.
    public var description: String { message }
}
