// Playhead: CMTimeRange, a half-open span of media time.

/// A span of time given by a start and a duration.
///
/// Ranges are half-open: `[start, start + duration)`. The end itself is never
/// contained, so `range.containsTime(range.end)` is always `false`.
///
/// A valid range has a valid start and a valid, non-negative duration in
/// epoch 0; the duration may be indefinite or positive infinity.
public struct CMTimeRange: Sendable {
    /// Where the range begins; included in the range.
    public var start: CMTime

    /// How long the range lasts; should be non-negative and in epoch 0.
    public var duration: CMTime

    // MARK: - Creating ranges

    /// Creates an empty range at time zero.
    public init() {
        self.init(start: .zero, duration: .zero)
    }

    /// Creates a range from a start and a duration, stored as given.
    ///
    /// - Parameters:
    ///   - start: The first time in the range.
    ///   - duration: The length of the range.
    public init(start: CMTime, duration: CMTime) {
        self.start = start
        self.duration = duration
    }

    /// Creates the range that begins at `start` and stops just before `end`.
    ///
    /// The duration is `end - start`; if that is negative, or the two times
    /// are in incompatible epochs, the range is invalid.
    ///
    /// - Parameters:
    ///   - start: The first time in the range.
    ///   - end: The first time after the range.
    public init(start: CMTime, end: CMTime) {
        self.init(start: start, duration: end - start)
    }

    // MARK: - Special ranges

    /// The empty range at time zero.
    public static let zero = CMTimeRange(start: .zero, duration: .zero)

    /// A range made of two invalid times.
    public static let invalid = CMTimeRange(start: .invalid, duration: .invalid)

    // MARK: - Inspecting ranges

    /// The first time after the range: `start + duration`, or `.invalid` for an invalid range.
    public var end: CMTime {
        isValid ? start + duration : .invalid
    }

    /// Whether the range is usable: both times valid, and the duration in
    /// epoch 0 and not negative (finite non-negative, indefinite, or positive infinity).
    public var isValid: Bool {
        guard start.isValid, duration.isValid, duration.epoch == 0 else { return false }
        switch duration._kind {
        case .numeric: return duration.value >= 0
        case .indefinite, .positiveInfinity: return true
        case .negativeInfinity, .invalid: return false
        }
    }

    /// Whether the range is valid and its start or duration is indefinite.
    public var isIndefinite: Bool {
        isValid && (start.isIndefinite || duration.isIndefinite)
    }

    /// Whether the range is valid and has zero duration.
    public var isEmpty: Bool {
        isValid && duration == .zero
    }

    // MARK: - Queries

    /// Whether a time lies in `[start, end)`.
    ///
    /// - Parameter time: The time to look for.
    /// - Returns: `false` for an invalid range or an invalid time.
    public func containsTime(_ time: CMTime) -> Bool {
        guard isValid, time._kind != .invalid else { return false }
        return start <= time && time < end
    }

    /// Whether another range lies entirely inside this one.
    ///
    /// - Parameter range: The range to look for.
    /// - Returns: `true` when both ranges are valid, `range.start >= start`
    ///   and `range.end <= end`.
    public func containsTimeRange(_ range: CMTimeRange) -> Bool {
        guard isValid, range.isValid else { return false }
        return start <= range.start && range.end <= end
    }

    // MARK: - Combining ranges

    /// The smallest range that covers both ranges (and any gap between them).
    ///
    /// - Parameter otherRange: The range to combine with.
    /// - Returns: `.invalid` if either range is invalid or their starts are
    ///   finite times in different epochs.
    public func union(_ otherRange: CMTimeRange) -> CMTimeRange {
        guard _isCombinable(with: otherRange) else { return .invalid }
        return CMTimeRange(start: min(start, otherRange.start), end: max(end, otherRange.end))
    }

    /// The largest range contained in both ranges.
    ///
    /// - Parameter otherRange: The range to intersect with.
    /// - Returns: The overlap; `.zero` (empty, at time zero) if the ranges do
    ///   not overlap; `.invalid` if either is invalid or their starts are in
    ///   different epochs.
    public func intersection(_ otherRange: CMTimeRange) -> CMTimeRange {
        guard _isCombinable(with: otherRange) else { return .invalid }
        let laterStart = max(start, otherRange.start)
        let earlierEnd = min(end, otherRange.end)
        guard laterStart < earlierEnd else { return .zero }
        return CMTimeRange(start: laterStart, end: earlierEnd)
    }

    /// Whether two ranges are valid and their finite starts share an epoch.
    func _isCombinable(with other: CMTimeRange) -> Bool {
        guard isValid, other.isValid else { return false }
        if start._kind == .numeric && other.start._kind == .numeric {
            return start.epoch == other.start.epoch
        }
        return true
    }
}

// MARK: - Equatable

extension CMTimeRange: Equatable {
    /// Whether two ranges have equal starts and equal durations, compared as
    /// `CMTime` values (so `1/2` equals `300/600`).
    ///
    /// - Parameters:
    ///   - lhs: A range.
    ///   - rhs: Another range.
    /// - Returns: `true` when both fields compare equal.
    public static func == (lhs: CMTimeRange, rhs: CMTimeRange) -> Bool {
        lhs.start == rhs.start && lhs.duration == rhs.duration
    }
}
