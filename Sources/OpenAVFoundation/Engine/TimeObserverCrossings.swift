// Playhead: pure functions deciding when AVPlayer's periodic and boundary observers fire.

// Concurrency: stateless pure functions; callable from any thread.

/// The arithmetic behind `addPeriodicTimeObserver(forInterval:queue:using:)` and
/// `addBoundaryTimeObserver(forTimes:queue:using:)`.
///
/// The player samples the item time on each tick and passes the previous and current readings.
/// Both functions work in exact CMTime arithmetic and handle forward and reverse playback.
///
/// What the caller handles itself (Apple's semantics): periodic observers also fire once on every
/// time jump (seek), on every start or stop of playback (rate 0 ↔ non-zero) and on item change;
/// boundary observers never fire for boundaries jumped over by a seek.
package enum TimeObserverCrossings {
    /// The multiples of `interval` crossed when item time moved from `previous` to `current`
    /// during continuous playback.
    ///
    /// Forward (`current > previous`): multiples `k × interval` in `(previous, current]`.
    /// Reverse (`current < previous`): multiples in `[current, previous)`.
    /// A periodic observer fires once if the result is non-`nil`, however many were crossed.
    /// - Returns: the crossed multiple indices `k`, or `nil` when none was crossed, the times are
    ///   equal, or any argument is non-numeric or the interval is not positive.
    package static func periodicCrossings(
        interval: CMTime, previous: CMTime, current: CMTime
    ) -> ClosedRange<Int64>? {
        guard interval.isNumeric, previous.isNumeric, current.isNumeric,
            interval > .zero, previous != current
        else { return nil }
        let first: Int64
        let last: Int64
        if current > previous {
            first = multipleIndex(previous, interval, roundingUp: false) + 1
            last = multipleIndex(current, interval, roundingUp: false)
        } else {
            first = multipleIndex(current, interval, roundingUp: true)
            last = multipleIndex(previous, interval, roundingUp: true) - 1
        }
        return first <= last ? first...last : nil
    }

    /// Whether a periodic observer with `interval` fires for a continuous step from `previous`
    /// to `current`.
    package static func periodicShouldFire(
        interval: CMTime, previous: CMTime, current: CMTime
    ) -> Bool {
        periodicCrossings(interval: interval, previous: previous, current: current) != nil
    }

    /// Indices into `sortedBoundaries` of the boundaries crossed by a step from `previous` to
    /// `current`.
    ///
    /// Forward: boundaries in `(previous, current]`; reverse: boundaries in `[current, previous)`.
    /// Indices are returned ascending; fire them in reverse order for reverse playback.
    /// - Parameters:
    ///   - sortedBoundaries: the observer's times, sorted ascending (duplicates allowed).
    ///   - previous: item time at the last tick.
    ///   - current: item time now.
    ///   - isContinuous: `false` when a seek, item change or other jump happened between the two
    ///     readings; nothing fires then.
    /// - Returns: a possibly empty range of indices.
    package static func boundaryCrossings(
        _ sortedBoundaries: [CMTime], previous: CMTime, current: CMTime, isContinuous: Bool
    ) -> Range<Int> {
        guard isContinuous, previous.isNumeric, current.isNumeric, previous != current else {
            return 0..<0
        }
        if current > previous {
            // (previous, current]: first index with time > previous up to first with time > current.
            let lower = partitionIndex(sortedBoundaries) { $0 > previous }
            let upper = partitionIndex(sortedBoundaries) { $0 > current }
            return lower..<max(lower, upper)
        } else {
            // [current, previous): first index with time >= current up to first with >= previous.
            let lower = partitionIndex(sortedBoundaries) { $0 >= current }
            let upper = partitionIndex(sortedBoundaries) { $0 >= previous }
            return lower..<max(lower, upper)
        }
    }

    /// The first multiple of `interval` after `time` (not `time` itself), exactly; nil when an
    /// argument is not numeric, the interval is not positive or the result does not fit.
    package static func nextMultiple(of interval: CMTime, after time: CMTime) -> CMTime? {
        guard interval.isNumeric, time.isNumeric, interval > .zero else { return nil }
        let index = multipleIndex(time, interval, roundingUp: false) + 1
        let (value, overflow) = index.multipliedReportingOverflow(by: interval.value)
        return overflow ? nil : CMTime(value: value, timescale: interval.timescale)
    }

    /// The first of `sortedBoundaries` after `time`, nil when none is.
    package static func nextBoundary(_ sortedBoundaries: [CMTime], after time: CMTime) -> CMTime? {
        let index = partitionIndex(sortedBoundaries) { $0 > time }
        return index < sortedBoundaries.count ? sortedBoundaries[index] : nil
    }

    /// `floor(time / interval)` (or the ceiling), computed exactly in 128-bit integers.
    private static func multipleIndex(
        _ time: CMTime, _ interval: CMTime, roundingUp: Bool
    ) -> Int64 {
        let numerator = Int128(time.value) * Int128(interval.timescale)
        let denominator = Int128(time.timescale) * Int128(interval.value)
        var (quotient, remainder) = numerator.quotientAndRemainder(dividingBy: denominator)
        if remainder != 0 {
            if roundingUp && numerator > 0 { quotient += 1 }
            if !roundingUp && numerator < 0 { quotient -= 1 }
        }
        return Int64(clamping: quotient)
    }

    /// The first index whose element satisfies `predicate`, for a predicate that is false then
    /// true along `elements` (binary search).
    private static func partitionIndex(
        _ elements: [CMTime], where predicate: (CMTime) -> Bool
    ) -> Int {
        var low = 0
        var high = elements.count
        while low < high {
            let middle = (low + high) / 2
            if predicate(elements[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}
