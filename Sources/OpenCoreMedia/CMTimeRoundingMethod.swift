// Playhead: CMTimeRoundingMethod, how inexact time conversions choose a value.

/// The rule used to pick an integer value when a time cannot be expressed
/// exactly in the requested timescale.
public enum CMTimeRoundingMethod: UInt32, Sendable {
    /// Rounds to the nearest value; an exact half goes away from zero (1).
    case roundHalfAwayFromZero = 1

    /// Drops any fractional part, moving toward zero (2).
    case roundTowardZero = 2

    /// Moves any non-zero fractional part away from zero (3).
    case roundAwayFromZero = 3

    /// The legacy QuickTime rule (4).
    ///
    /// When the new timescale is smaller than the old one (precision is lost)
    /// this truncates toward zero; when it is larger it rounds away from zero.
    /// In addition, a negative time is never truncated to zero: it becomes
    /// the smallest negative value, `-1 / newTimescale`.
    case quickTime = 4

    /// Moves any non-zero fractional part up, toward positive infinity (5).
    case roundTowardPositiveInfinity = 5

    /// Moves any non-zero fractional part down, toward negative infinity (6).
    case roundTowardNegativeInfinity = 6

    /// The method CoreMedia uses when none is given: `.roundHalfAwayFromZero`.
    public static var `default`: CMTimeRoundingMethod { .roundHalfAwayFromZero }
}
