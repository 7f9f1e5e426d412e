// Playhead: CoreMedia's C-style CMTimeRange functions, with their Swift labels.

// MARK: - Making ranges

/// Makes a range from a start and a duration.
///
/// - Parameters:
///   - start: The first time in the range.
///   - duration: The length of the range.
/// - Returns: The range, with both times stored as given.
public func CMTimeRangeMake(start: CMTime, duration: CMTime) -> CMTimeRange {
    CMTimeRange(start: start, duration: duration)
}

/// Makes the range from `start` up to, but not including, `end`.
///
/// - Parameters:
///   - start: The first time in the range.
///   - end: The first time after the range.
/// - Returns: A range whose duration is `end - start`.
public func CMTimeRangeFromTimeToTime(start: CMTime, end: CMTime) -> CMTimeRange {
    CMTimeRange(start: start, end: end)
}

// MARK: - Queries

/// The first time after a range; see `CMTimeRange.end`.
///
/// - Parameter range: The range.
/// - Returns: `start + duration`, or `.invalid` for an invalid range.
public func CMTimeRangeGetEnd(_ range: CMTimeRange) -> CMTime {
    range.end
}

/// Whether a time lies in a range's half-open span; see `CMTimeRange.containsTime(_:)`.
///
/// - Parameters:
///   - range: The range.
///   - time: The time to look for.
/// - Returns: `true` when `start <= time < end`.
public func CMTimeRangeContainsTime(_ range: CMTimeRange, time: CMTime) -> Bool {
    range.containsTime(time)
}

/// Whether one range lies inside another; see `CMTimeRange.containsTimeRange(_:)`.
///
/// - Parameters:
///   - range: The enclosing range.
///   - otherRange: The range to look for.
/// - Returns: `true` when `otherRange` is inside `range`.
public func CMTimeRangeContainsTimeRange(_ range: CMTimeRange, otherRange: CMTimeRange) -> Bool {
    range.containsTimeRange(otherRange)
}

/// The smallest range covering two ranges; see `CMTimeRange.union(_:)`.
///
/// - Parameters:
///   - range: A range.
///   - otherRange: Another range.
/// - Returns: The covering range.
public func CMTimeRangeGetUnion(_ range: CMTimeRange, otherRange: CMTimeRange) -> CMTimeRange {
    range.union(otherRange)
}

/// The overlap of two ranges; see `CMTimeRange.intersection(_:)`.
///
/// - Parameters:
///   - range: A range.
///   - otherRange: Another range.
/// - Returns: The overlap, or an empty range when they are disjoint.
public func CMTimeRangeGetIntersection(_ range: CMTimeRange, otherRange: CMTimeRange) -> CMTimeRange {
    range.intersection(otherRange)
}

/// Whether two ranges are equal; the same as `range1 == range2`.
///
/// - Parameters:
///   - range1: A range.
///   - range2: Another range.
/// - Returns: `true` when starts and durations compare equal.
public func CMTimeRangeEqual(_ range1: CMTimeRange, _ range2: CMTimeRange) -> Bool {
    range1 == range2
}

/// Pins a time to a range.
///
/// - Parameters:
///   - time: The time to pin.
///   - range: The range to pin it to.
/// - Returns: `time` if the range contains it, the range's start if `time` is
///   earlier, the range's end if `time` is at or past the end; `.invalid` if
///   the time is invalid or the range is invalid or empty.
public func CMTimeClampToRange(_ time: CMTime, range: CMTimeRange) -> CMTime {
    guard time._kind != .invalid, range.isValid, !range.isEmpty else { return .invalid }
    if time < range.start { return range.start }
    let end = range.end
    if time >= end { return end }
    return time
}

// MARK: - Predicates

/// Whether a range is valid; the same as `range.isValid`.
///
/// - Parameter range: The range to test.
/// - Returns: `true` for a valid range.
public func CMTIMERANGE_IS_VALID(_ range: CMTimeRange) -> Bool {
    range.isValid
}

/// Whether a range is invalid; the negation of `CMTIMERANGE_IS_VALID`.
///
/// - Parameter range: The range to test.
/// - Returns: `true` for an invalid range.
public func CMTIMERANGE_IS_INVALID(_ range: CMTimeRange) -> Bool {
    !range.isValid
}

/// Whether a range is valid with an indefinite start or duration; the same as `range.isIndefinite`.
///
/// - Parameter range: The range to test.
/// - Returns: `true` for a valid, indefinite range.
public func CMTIMERANGE_IS_INDEFINITE(_ range: CMTimeRange) -> Bool {
    range.isIndefinite
}

/// Whether a range is valid with zero duration; the same as `range.isEmpty`.
///
/// - Parameter range: The range to test.
/// - Returns: `true` for a valid, empty range.
public func CMTIMERANGE_IS_EMPTY(_ range: CMTimeRange) -> Bool {
    range.isEmpty
}
