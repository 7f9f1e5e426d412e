// Playhead: the exit status a CLI run hands back to the executable.

/// The status the `playhead` process exits with.
///
/// The library never exits on its own; it returns one of these values and
/// `playhead/main.swift` passes `rawValue` to `exit`.
public struct ExitCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The numeric process status.
    public var rawValue: Int32

    /// Wraps a numeric process status.
    public init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    /// The command did what was asked (status 0).
    public static let success = ExitCode(rawValue: 0)

    /// The input could not be opened, read or decoded, or the network failed (status 1).
    public static let failure = ExitCode(rawValue: 1)

    /// The command line itself was wrong: unknown option, missing argument and so on (status 2).
    public static let usageError = ExitCode(rawValue: 2)

    /// The numeric status as text.
    public var description: String { String(rawValue) }
}
