// Playhead: tests for the throughput estimate and the variant rule of Playhead's HLS loader,
// on numbers alone (no network, no clock).
import Foundation
import Testing

@testable import OpenAVFoundation

@Suite struct ThroughputEstimatorTests {
    @Test func theEstimateStartsAtItsInitialValueAndFollowsSamples() {
        var estimator = ThroughputEstimator(initial: 1_000_000)
        #expect(estimator.estimate == 1_000_000)
        estimator.add(bytes: 1_000, seconds: 0.001)
        #expect(!estimator.hasSamples, "a small transfer says nothing about throughput")
        estimator.add(bytes: 1_000_000, seconds: 1)  // 8 Mbit/s
        #expect(abs(estimator.estimate - 8_000_000) < 1)
    }

    @Test func aFastLinkThatRecoversIsBelievedWithinAFewSegments() {
        // Ten 2 s segments at 1 Mbit/s, then 8 Mbit/s: each fast one arrives in 0.25 s but
        // weighs its 2 s of media, so three of them lift the estimate past 3.5 Mbit/s.
        var estimator = ThroughputEstimator(initial: 0)
        for _ in 0..<10 { estimator.add(bytes: 250_000, seconds: 2, mediaSeconds: 2) }
        for _ in 0..<3 { estimator.add(bytes: 250_000, seconds: 0.25, mediaSeconds: 2) }
        #expect(estimator.estimate > 3_500_000 && estimator.estimate < 8_000_000, "\(estimator.estimate)")
    }

    @Test func aCollapseIsBelievedAtOnce() {
        var estimator = ThroughputEstimator(initial: 0)
        for _ in 0..<10 { estimator.add(bytes: 1_000_000, seconds: 1, mediaSeconds: 2) }  // 8 Mbit/s
        estimator.add(bytes: 500_000, seconds: 4, mediaSeconds: 2)  // 1 Mbit/s
        #expect(abs(estimator.estimate - 1_000_000) < 1, "one transfer at an eighth of the estimate")
    }

    @Test func theRecentThroughputClimbsFasterButNeverAboveACollapse() {
        var recovering = ThroughputEstimator(initial: 0)
        for _ in 0..<10 { recovering.add(bytes: 250_000, seconds: 2, mediaSeconds: 2) }  // 1 Mbit/s
        for _ in 0..<3 { recovering.add(bytes: 250_000, seconds: 0.25, mediaSeconds: 2) }  // 8 Mbit/s
        #expect(recovering.recent > 5_500_000, "the fast average alone: \(recovering.recent)")
        #expect(recovering.estimate < 4_000_000, "the careful estimate: \(recovering.estimate)")
        var collapsing = ThroughputEstimator(initial: 0)
        for _ in 0..<10 { collapsing.add(bytes: 1_000_000, seconds: 1, mediaSeconds: 2) }  // 8 Mbit/s
        collapsing.add(bytes: 500_000, seconds: 4, mediaSeconds: 2)  // 1 Mbit/s
        #expect(abs(collapsing.recent - 1_000_000) < 1)
        #expect(ThroughputEstimator(initial: 700_000).recent == 700_000)
    }

    @Test func itFallsFastAndClimbsSlowly() {
        var estimator = ThroughputEstimator(initial: 0)
        for _ in 0..<10 { estimator.add(bytes: 1_000_000, seconds: 1) }  // 8 Mbit/s for 10 s
        estimator.add(bytes: 125_000, seconds: 1)  // one second at 1 Mbit/s
        let afterDrop = estimator.estimate
        #expect(afterDrop < 7_000_000, "the fast average pulls the estimate down at once")
        var recovering = ThroughputEstimator(initial: 0)
        for _ in 0..<10 { recovering.add(bytes: 125_000, seconds: 1) }
        recovering.add(bytes: 1_000_000, seconds: 1)
        #expect(recovering.estimate < 2_500_000, "one fast transfer does not lift it far")
    }
}

@Suite struct VariantAdaptationTests {
    let ladder = VariantAdaptation(candidates: [
        .init(bandwidth: 2_500_000, averageBandwidth: nil, width: 640, height: 360),
        .init(bandwidth: 250_000, averageBandwidth: nil, width: 160, height: 90),
        .init(bandwidth: 900_000, averageBandwidth: nil, width: 320, height: 180),
    ])

    @Test func candidatesAreSortedAndCapsLeaveTheLowestWhenNothingFits() {
        #expect(ladder.candidates.map(\.bandwidth) == [250_000, 900_000, 2_500_000])
        #expect(ladder.allowed(under: .init()) == [0, 1, 2])
        #expect(ladder.allowed(under: .init(peakBitRate: 1_000_000)) == [0, 1])
        #expect(ladder.allowed(under: .init(maximumWidth: 320, maximumHeight: 180)) == [0, 1])
        #expect(ladder.allowed(under: .init(peakBitRate: 100)) == [0])
    }

    @Test func theStartIsTheHighestVariantWhoseFirstSegmentComesQuickly() {
        #expect(ladder.startIndex(estimate: 250_000, segmentDuration: 4, caps: .init()) == 0)
        #expect(ladder.startIndex(estimate: 5_000_000, segmentDuration: 4, caps: .init()) == 1)
        #expect(ladder.startIndex(estimate: 50_000_000, segmentDuration: 4, caps: .init()) == 2)
        #expect(ladder.startIndex(estimate: 50_000_000, segmentDuration: 4, caps: .init(peakBitRate: 1e6)) == 1)
    }

    @Test func aDropSwitchesDownAtOnce() {
        var rule = ladder
        let next = rule.nextIndex(
            current: 2, estimate: 1_000_000, buffered: 20, segmentDuration: 2, caps: .init(), startingUp: false)
        #expect(next == 1, "0.9 × 1 Mbit/s affords 900 kbit/s")
        let starving = rule.nextIndex(
            current: 2, estimate: 1_000_000, buffered: 1, segmentDuration: 2, caps: .init(), startingUp: false)
        #expect(starving == 0, "with a second buffered, only a segment that arrives in time will do")
    }

    @Test func theRateOfPlayWeighsEachVariantAndTheBuffer() {
        // 3 Mbit/s with 20 s buffered: at 1x the top variant (2.5) is kept (0.95 × 3 = 2.85);
        // at 2x it takes 5 Mbit/s of the link and the middle one 1.8, so the middle one is
        // where the rule lands; at 4x (3.6) only the lowest fits.
        func next(current: Int, rate: Double, buffered: Double = 20) -> Int {
            var rule = ladder
            return rule.nextIndex(
                current: current, estimate: 3_000_000, recentEstimate: 3_000_000, latestRate: 3_000_000,
                buffered: buffered, segmentDuration: 2, caps: .init(), startingUp: false, rate: rate)
        }
        #expect(next(current: 2, rate: 1) == 2)
        #expect(next(current: 2, rate: 2) == 1)
        #expect(next(current: 2, rate: 4) == 0)
        // Slowly, a link under the top variant carries it: 1.5 Mbit/s at half speed.
        var slow = ladder
        #expect(
            slow.nextIndex(
                current: 2, estimate: 1_500_000, buffered: 20, segmentDuration: 2, caps: .init(),
                startingUp: false, rate: 0.5) == 2)
        #expect(next(current: 2, rate: 1, buffered: 20) == next(current: 2, rate: 0, buffered: 20), "paused: as at 1x")
        // The buffer lasts half as long at 2x: 3 s of media is 1.5 s of the wall clock, too
        // short for a 2 s segment of the middle variant (0.6 s at 3 Mbit/s) to arrive with a
        // second to spare.
        #expect(next(current: 1, rate: 1, buffered: 3) == 1)
        #expect(next(current: 1, rate: 2, buffered: 3) == 0)
    }

    @Test func aSwitchDownThatComesWithTheRateDoesNotSettle() {
        // 4.8 Mbit/s with 5 s of the wall clock buffered: at 2x the top variant goes down to
        // the middle one, which the link carries; the next choice keeps it (a settling rule
        // would want 6 s left after the fetch and go down to the lowest).
        var rule = ladder
        func next(current: Int, rate: Double) -> Int {
            rule.nextIndex(
                current: current, estimate: 4_800_000, latestRate: 4_800_000, buffered: 10, segmentDuration: 2,
                caps: .init(), startingUp: false, rate: rate)
        }
        #expect(next(current: 2, rate: 1) == 2)
        #expect(next(current: 2, rate: 2) == 1)
        #expect(next(current: 1, rate: 2) == 1)
        #expect(next(current: 1, rate: 2) == 1)
        // A link that falls does settle: the same buffer after a drop to 1.5 Mbit/s at 1x.
        var falling = ladder
        _ = falling.nextIndex(
            current: 2, estimate: 4_800_000, buffered: 5, segmentDuration: 2, caps: .init(), startingUp: false)
        #expect(
            falling.nextIndex(
                current: 2, estimate: 1_500_000, latestRate: 1_500_000, buffered: 5, segmentDuration: 2, caps: .init(),
                startingUp: false) == 1)
        #expect(falling.sinceDown < VariantAdaptation.settleAfterDown)
    }

    @Test func fasterThanOnceTheLoaderReadsFurtherAhead() {
        #expect(VariantAdaptation.readAheadScale(1) == 1)
        #expect(VariantAdaptation.readAheadScale(0.5) == 1)
        #expect(VariantAdaptation.readAheadScale(0) == 1)
        #expect(VariantAdaptation.readAheadScale(2) == 2)
        #expect(VariantAdaptation.readAheadScale(8) == 4)
    }

    @Test func theRateIsKeptWithinBounds() {
        #expect(VariantAdaptation.playbackRate(2) == 2)
        #expect(VariantAdaptation.playbackRate(0) == 1)
        #expect(VariantAdaptation.playbackRate(-1) == 1)
        #expect(VariantAdaptation.playbackRate(.nan) == 1)
        #expect(VariantAdaptation.playbackRate(.infinity) == 1)
        #expect(VariantAdaptation.playbackRate(100) == 16)
        #expect(VariantAdaptation.playbackRate(0.01) == 0.125)
    }

    @Test func goingUpWaitsForTwoSamplesAndABuffer() {
        var rule = ladder
        func next(_ buffered: Double) -> Int {
            rule.nextIndex(
                current: 0, estimate: 10_000_000, buffered: buffered, segmentDuration: 2, caps: .init(),
                startingUp: false)
        }
        // 7 s is past `upSwitchBuffer` but short of `deepBuffer`: the careful rule applies.
        #expect(next(7) == 0)
        #expect(next(7) == 2, "the second sample in a row goes up, to the highest affordable")
        #expect(next(2) == 0)
        #expect(next(2) == 0, "not with a short buffer")
    }

    @Test func aLinkBetweenTwoVariantsDoesNotFlip() {
        var rule = ladder
        // 1.1 Mbit/s: 0.9 of it keeps 900 kbit/s; 0.7 of it is not enough to go up from 250.
        var choices: [Int] = []
        var current = 1
        for _ in 0..<10 {
            current = rule.nextIndex(
                current: current, estimate: 1_100_000, buffered: 15, segmentDuration: 2, caps: .init(),
                startingUp: false)
            choices.append(current)
        }
        #expect(choices == Array(repeating: 1, count: 10))
        var low = ladder
        #expect(
            low.nextIndex(current: 0, estimate: 1_100_000, buffered: 5, segmentDuration: 2, caps: .init(), startingUp: false)
                == 0)
        #expect(
            low.nextIndex(current: 0, estimate: 1_100_000, buffered: 5, segmentDuration: 2, caps: .init(), startingUp: false)
                == 0)
    }

    @Test func aDeepBufferOnASteadyLinkGoesUpOnceAndStays() {
        // 1.1 Mbit/s: 0.85 of it affords 900 kbit/s, and 0.95 of it keeps it; 1 Mbit/s keeps
        // 900 kbit/s but does not climb to it.
        func choices(from start: Int, estimate: Double) -> [Int] {
            var rule = ladder
            var current = start
            return (0..<10).map { _ in
                current = rule.nextIndex(
                    current: current, estimate: estimate, recentEstimate: estimate, buffered: 15, segmentDuration: 2,
                    caps: .init(), startingUp: false)
                return current
            }
        }
        #expect(choices(from: 0, estimate: 1_100_000) == Array(repeating: 1, count: 10))
        #expect(choices(from: 0, estimate: 1_000_000) == Array(repeating: 0, count: 10))
        #expect(choices(from: 1, estimate: 1_000_000) == Array(repeating: 1, count: 10))
    }

    @Test func aDeepBufferGoesUpOnTheRecentThroughputAtOnce() {
        // The link recovered: the careful estimate (lower of the averages) says 1.5 Mbit/s,
        // the recent one 3 Mbit/s.
        func next(buffered: Double) -> Int {
            var rule = ladder
            return rule.nextIndex(
                current: 0, estimate: 1_500_000, recentEstimate: 3_000_000, buffered: buffered, segmentDuration: 2,
                caps: .init(), startingUp: false)
        }
        #expect(next(buffered: 12) == 2, "0.85 × 3 Mbit/s affords 2.5 Mbit/s, on the first transfer")
        #expect(next(buffered: 5) == 0, "a shallow buffer waits for a second transfer and plans with 1.5 Mbit/s")
        var rule = ladder
        #expect(
            rule.nextIndex(
                current: 0, estimate: 1_500_000, recentEstimate: 3_000_000, buffered: 12, segmentDuration: 2,
                caps: .init(peakBitRate: 1_000_000), startingUp: false) == 1, "the caps still apply")
    }

    @Test func aDeepBufferKeepsAVariantTheShallowMarginsWouldLeave() {
        // 2.7 Mbit/s: 0.9 of it is 2.43, short of 2.5; 0.95 of it is 2.565.
        func next(buffered: Double) -> Int {
            var rule = ladder
            return rule.nextIndex(
                current: 2, estimate: 2_700_000, recentEstimate: 2_700_000, buffered: buffered, segmentDuration: 2,
                caps: .init(), startingUp: false)
        }
        #expect(next(buffered: 12) == 2)
        #expect(next(buffered: 5) == 1)
    }

    @Test func theRecentThroughputNeverPicksAVariantThatCannotArriveInTime() {
        // 4 s segments, 10 s buffered, careful estimate 1 Mbit/s, recent 20 Mbit/s: a 2.5 Mbit/s
        // segment takes 10 s at the careful estimate, more than the 9 s the buffer allows.
        func next(current: Int, segmentDuration: Double) -> Int {
            var rule = ladder
            return rule.nextIndex(
                current: current, estimate: 1_000_000, recentEstimate: 20_000_000, buffered: 10,
                segmentDuration: segmentDuration, caps: .init(), startingUp: false)
        }
        #expect(next(current: 0, segmentDuration: 4) == 1)
        #expect(next(current: 2, segmentDuration: 4) == 1, "nor keeps one")
        #expect(next(current: 0, segmentDuration: 2) == 2, "with 2 s segments it arrives in 5 s")
    }

    @Test func goingUpAgainWaitsTenSecondsOfMediaAfterASwitchDown() {
        var rule = ladder
        #expect(
            rule.nextIndex(
                current: 2, estimate: 1_000_000, recentEstimate: 1_000_000, buffered: 20, segmentDuration: 2,
                caps: .init(), startingUp: false) == 1)
        // The next transfers measure 3 Mbit/s: a deep buffer would go up at once, but not yet.
        var choices: [Int] = []
        for _ in 0..<6 {
            choices.append(
                rule.nextIndex(
                    current: choices.last ?? 1, estimate: 3_000_000, recentEstimate: 3_000_000, buffered: 20,
                    segmentDuration: 2, caps: .init(), startingUp: false))
        }
        #expect(choices == [1, 1, 1, 1, 2, 2], "up on the fifth 2 s segment after the switch down")
    }

    @Test func afterASwitchDownOnlyASegmentThatCannotArriveInTimeGoesFurtherDown() {
        var rule = ladder
        #expect(
            rule.nextIndex(
                current: 2, estimate: 1_000_000, recentEstimate: 1_000_000, buffered: 20, segmentDuration: 2,
                caps: .init(), startingUp: false) == 1)
        // 0.6 Mbit/s no longer affords 900 kbit/s, but a 2 s segment of it arrives in 3 s and
        // leaves 15 s buffered: kept.
        #expect(
            rule.nextIndex(
                current: 1, estimate: 600_000, recentEstimate: 600_000, buffered: 18, segmentDuration: 2,
                caps: .init(), startingUp: false) == 1)
        // With 8 s buffered it would leave 5 s, short of the 6 s reserve: down.
        #expect(
            rule.nextIndex(
                current: 1, estimate: 600_000, recentEstimate: 600_000, buffered: 8, segmentDuration: 2,
                caps: .init(), startingUp: false) == 0)
    }

    @Test func aSwitchDownLandsWhereTheLatestTransferSaysTheLinkIs() {
        // The averages still say 2 Mbit/s (0.95 of it keeps 900 kbit/s); the latest transfer
        // came at 0.5 Mbit/s, which affords only 250 kbit/s.
        var rule = ladder
        #expect(
            rule.nextIndex(
                current: 2, estimate: 2_000_000, recentEstimate: 2_000_000, latestRate: 500_000, buffered: 20,
                segmentDuration: 2, caps: .init(), startingUp: false) == 0)
        var staying = ladder
        #expect(
            staying.nextIndex(
                current: 1, estimate: 2_000_000, recentEstimate: 2_000_000, latestRate: 500_000, buffered: 20,
                segmentDuration: 2, caps: .init(), startingUp: false) == 1, "it only lands a switch down")
    }

    @Test func theReadAheadIsShortBelowTheTopVariant() {
        #expect(ladder.readAhead(current: 0, caps: .init(), full: 30) == VariantAdaptation.climbingReadAhead)
        #expect(ladder.readAhead(current: 1, caps: .init(), full: 30) == VariantAdaptation.climbingReadAhead)
        #expect(ladder.readAhead(current: 2, caps: .init(), full: 30) == 30)
        #expect(ladder.readAhead(current: 0, caps: .init(), full: 5) == 5, "never more than the full buffer")
        #expect(ladder.readAhead(current: 1, caps: .init(peakBitRate: 1_000_000), full: 30) == 30, "the top the caps allow")
        #expect(ladder.readAhead(current: 1, caps: .init(), full: 30, unusable: [2]) == 30, "the top that can be loaded")
        let single = VariantAdaptation(candidates: [.init(bandwidth: 1_000_000, averageBandwidth: nil, width: nil, height: nil)])
        #expect(single.readAhead(current: 0, caps: .init(), full: 30) == 30)
    }

    @Test func aCapLoweredDuringPlaybackAppliesToTheNextSegment() {
        var rule = ladder
        let next = rule.nextIndex(
            current: 2, estimate: 50_000_000, buffered: 20, segmentDuration: 2, caps: .init(peakBitRate: 300_000),
            startingUp: false)
        #expect(next == 0)
    }

    @Test func aSlowTransferIsAbandonedOnlyWhenTheBufferWouldRunDry() {
        // 2 s of the top variant is 625 kB; after 1 s only 50 kB came (400 kbit/s).
        #expect(
            ladder.shouldAbandon(
                index: 2, allowed: [0, 1, 2], elapsed: 1, received: 50_000, expected: 625_000, buffered: 4,
                segmentDuration: 2))
        #expect(
            !ladder.shouldAbandon(
                index: 2, allowed: [0, 1, 2], elapsed: 1, received: 50_000, expected: 625_000, buffered: 30,
                segmentDuration: 2), "a long buffer rides it out")
        #expect(
            !ladder.shouldAbandon(
                index: 0, allowed: [0, 1, 2], elapsed: 1, received: 5_000, expected: 62_500, buffered: 1,
                segmentDuration: 2), "the lowest variant is never abandoned")
        #expect(
            !ladder.shouldAbandon(
                index: 2, allowed: [0, 1, 2], elapsed: 0.2, received: 1_000, expected: 625_000, buffered: 1,
                segmentDuration: 2), "not in the first half second")
    }
}
