// Playhead: tests for CMTimeRange validity, containment, union and intersection.

import OpenCoreMedia
import Testing

/// Shorthand for a range of whole seconds in timescale 1.
private func r(_ start: Int64, _ duration: Int64) -> CMTimeRange {
    CMTimeRange(start: CMTime(value: start, timescale: 1), duration: CMTime(value: duration, timescale: 1))
}

// MARK: - Construction and validity

@Test func defaultRangeIsEmptyAtZero() async {
    let range = CMTimeRange()
    #expect(range.start == .zero && range.duration == .zero)
    #expect(range.isValid && range.isEmpty && !range.isIndefinite)
    #expect(range == .zero)
}

@Test func startEndInitializerComputesDuration() async {
    let range = CMTimeRange(start: CMTime(value: 1, timescale: 2), end: CMTime(value: 3, timescale: 2))
    #expect(range.duration == CMTime(value: 1, timescale: 1))
    #expect(range.end == CMTime(value: 3, timescale: 2))
    #expect(CMTimeRangeGetEnd(range) == range.end)
    #expect(CMTimeRangeFromTimeToTime(start: .zero, end: CMTime(value: 5, timescale: 1)) == r(0, 5))
    #expect(CMTimeRangeMake(start: .zero, duration: CMTime(value: 5, timescale: 1)) == r(0, 5))
    #expect(!CMTimeRange(start: CMTime(value: 3, timescale: 1), end: .zero).isValid)
}

@Test func validityRules() async {
    #expect(r(0, 1).isValid)
    #expect(!r(0, -1).isValid)
    #expect(!CMTimeRange.invalid.isValid && CMTIMERANGE_IS_INVALID(.invalid))
    #expect(!CMTimeRange(start: .invalid, duration: .zero).isValid)
    #expect(!CMTimeRange(start: .zero, duration: .invalid).isValid)
    let epochDuration = CMTime(value: 1, timescale: 1, flags: .valid, epoch: 1)
    #expect(!CMTimeRange(start: .zero, duration: epochDuration).isValid)
    #expect(CMTimeRange(start: .zero, duration: .positiveInfinity).isValid)
    #expect(!CMTimeRange(start: .zero, duration: .negativeInfinity).isValid)
    let live = CMTimeRange(start: .zero, duration: .indefinite)
    #expect(live.isValid && live.isIndefinite && CMTIMERANGE_IS_INDEFINITE(live) && CMTIMERANGE_IS_VALID(live))
    #expect(CMTimeRange(start: .indefinite, duration: .zero).isIndefinite)
    #expect(CMTIMERANGE_IS_EMPTY(r(7, 0)) && !CMTIMERANGE_IS_EMPTY(r(7, 1)))
    #expect(!CMTimeRange.invalid.isEmpty && !CMTimeRange.invalid.isIndefinite)
    #expect(!CMTimeRange.invalid.end.isValid)
}

@Test func rangeEqualityComparesTimesExactly() async {
    let a = CMTimeRange(start: CMTime(value: 1, timescale: 2), duration: CMTime(value: 1, timescale: 1))
    let b = CMTimeRange(start: CMTime(value: 300, timescale: 600), duration: CMTime(value: 600, timescale: 600))
    #expect(a == b && CMTimeRangeEqual(a, b))
    #expect(a != r(0, 1))
    #expect(CMTimeRange.invalid == CMTimeRange.invalid)
}

// MARK: - Containment

@Test func containsTimeIsHalfOpen() async {
    let range = r(2, 3)
    #expect(!range.containsTime(CMTime(value: 1, timescale: 1)))
    #expect(range.containsTime(CMTime(value: 2, timescale: 1)))
    #expect(range.containsTime(CMTime(value: 4999, timescale: 1000)))
    #expect(!range.containsTime(range.end))
    #expect(!CMTimeRangeContainsTime(range, time: CMTime(value: 5, timescale: 1)))
    #expect(!range.containsTime(.invalid))
    #expect(!range.containsTime(.indefinite))
    #expect(!r(2, 0).containsTime(CMTime(value: 2, timescale: 1)))
    #expect(!CMTimeRange.invalid.containsTime(.zero))
    let forever = CMTimeRange(start: .zero, duration: .positiveInfinity)
    #expect(forever.containsTime(CMTime(value: .max, timescale: 1)))
    #expect(!forever.containsTime(.positiveInfinity))
}

@Test func containsTimeRange() async {
    let outer = r(0, 10)
    #expect(outer.containsTimeRange(r(2, 3)))
    #expect(outer.containsTimeRange(outer))
    #expect(!outer.containsTimeRange(r(8, 3)))
    #expect(!outer.containsTimeRange(r(-1, 3)))
    #expect(CMTimeRangeContainsTimeRange(outer, otherRange: r(10, 0)))
    #expect(!outer.containsTimeRange(.invalid))
}

// MARK: - Union and intersection

@Test func unionCoversBothRangesAndTheGap() async {
    #expect(r(0, 2).union(r(5, 1)) == r(0, 6))
    #expect(r(5, 1).union(r(0, 2)) == r(0, 6))
    #expect(CMTimeRangeGetUnion(r(0, 4), otherRange: r(2, 4)) == r(0, 6))
    #expect(r(0, 10).union(r(2, 3)) == r(0, 10))
    #expect(!r(0, 1).union(.invalid).isValid)
    let forever = r(0, 1).union(CMTimeRange(start: .zero, duration: .positiveInfinity))
    #expect(forever.duration.isPositiveInfinity)
}

@Test func intersectionIsTheOverlap() async {
    #expect(r(0, 4).intersection(r(2, 4)) == r(2, 2))
    #expect(CMTimeRangeGetIntersection(r(0, 10), otherRange: r(2, 3)) == r(2, 3))
    #expect(r(0, 10).intersection(CMTimeRange(start: CMTime(value: 5, timescale: 1), duration: .indefinite)) == r(5, 5))
    #expect(!r(0, 1).intersection(.invalid).isValid)
}

@Test func disjointOrTouchingRangesIntersectToEmpty() async {
    let disjoint = r(0, 1).intersection(r(5, 1))
    #expect(disjoint.isEmpty && disjoint == .zero)
    let touching = r(0, 2).intersection(r(2, 2))
    #expect(touching.isEmpty)
}

@Test func rangesInDifferentEpochsDoNotCombine() async {
    let epochStart = CMTime(value: 0, timescale: 1, flags: .valid, epoch: 1)
    let other = CMTimeRange(start: epochStart, duration: CMTime(value: 3, timescale: 1))
    #expect(other.isValid)
    #expect(other.end.epoch == 1)
    #expect(!r(0, 3).union(other).isValid)
    #expect(!r(0, 3).intersection(other).isValid)
    let sameEpoch = CMTimeRange(start: epochStart, end: CMTime(value: 4, timescale: 1, flags: .valid, epoch: 1))
    #expect(sameEpoch.isValid && sameEpoch.duration == CMTime(value: 4, timescale: 1))
}

@Test func clampToRange() async {
    let range = r(2, 3)
    #expect(CMTimeClampToRange(CMTime(value: 1, timescale: 1), range: range) == CMTime(value: 2, timescale: 1))
    #expect(CMTimeClampToRange(CMTime(value: 3, timescale: 1), range: range) == CMTime(value: 3, timescale: 1))
    #expect(CMTimeClampToRange(CMTime(value: 9, timescale: 1), range: range) == CMTime(value: 5, timescale: 1))
    #expect(!CMTimeClampToRange(.invalid, range: range).isValid)
    #expect(!CMTimeClampToRange(.zero, range: r(0, 0)).isValid)
}
