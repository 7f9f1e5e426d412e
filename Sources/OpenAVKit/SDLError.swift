// Playhead: errors from SDL (no display, no renderer, no font).

/// SDL could not do what was asked; `message` carries SDL's own explanation.
public struct SDLError: Error, CustomStringConvertible, Sendable {
    /// What failed, with SDL's reason.
    public let message: String

    /// An error with `message`.
    public init(_ message: String) { self.message = message }

    public var description: String { message }
}
