// Playhead: CMTimeFlags, the state bits carried by every CMTime.

/// A set of bits that say what kind of time a `CMTime` holds.
///
/// A time without `.valid` is invalid whatever else is set. The three
/// "implied value" flags mark times whose `value` and `timescale` fields carry
/// no meaning: the infinities and the indefinite time.
public struct CMTimeFlags: OptionSet, Sendable {
    /// The bit pattern, laid out exactly as CoreMedia lays it out.
    public let rawValue: UInt32

    /// Wraps a raw bit pattern.
    ///
    /// - Parameter rawValue: The bits to use.
    public init(rawValue: UInt32) {
        self.rawValue = rawValue
    }

    // MARK: - Flags

    /// Set on every time that is not `CMTime.invalid` (bit value 1).
    public static let valid = CMTimeFlags(rawValue: 1 << 0)

    /// Set once rounding has lost precision somewhere in the time's history (bit value 2).
    public static let hasBeenRounded = CMTimeFlags(rawValue: 1 << 1)

    /// Marks the time as later than every finite time (bit value 4).
    public static let positiveInfinity = CMTimeFlags(rawValue: 1 << 2)

    /// Marks the time as earlier than every finite time (bit value 8).
    public static let negativeInfinity = CMTimeFlags(rawValue: 1 << 3)

    /// Marks an unknown time, such as the duration of a live stream (bit value 16).
    public static let indefinite = CMTimeFlags(rawValue: 1 << 4)

    /// The union of the flags whose presence means the numeric fields are
    /// meaningless: both infinities and indefinite (bit value 28).
    public static let impliedValueFlagsMask: CMTimeFlags = [.positiveInfinity, .negativeInfinity, .indefinite]
}
