// Playhead: tests of when key-value observations stop, what they keep alive, and what
// change handlers may do re-entrantly.
//
// Concurrency: tests run on the main actor, except the stress test, which also invalidates
// and creates observations from background threads while the main actor mutates.
import Dispatch
import Foundation
import OpenAVFoundation
import Testing

@MainActor
struct KeyValueObservationLifetimeTests {
    @Test func invalidateStopsDelivery() async {
        let player = FakePlayer()
        var calls = 0
        let token = player.observe(\.rate) { _, _ in calls += 1 }
        player.rate = 1
        token.invalidate()
        token.invalidate()
        player.rate = 2
        #expect(calls == 1)
    }

    @Test func releasingTheTokenStopsDelivery() async {
        let player = FakePlayer()
        var calls = 0
        var token: NSKeyValueObservation? = player.observe(\.rate) { _, _ in calls += 1 }
        player.rate = 1
        #expect(token != nil)
        token = nil
        player.rate = 2
        #expect(calls == 1)
    }

    @Test func observedObjectWithLiveObservationsStillDeinits() async {
        weak var weakPlayer: FakePlayer?
        weak var weakItem: FakeItem?
        var tokens: [NSKeyValueObservation] = []
        do {
            let player = MyPlayer()
            let item = FakeItem(name: "a")
            player.replaceCurrentItem(with: item)
            weakPlayer = player
            weakItem = item
            tokens.append(player.observe(\.rate, options: [.initial, .new]) { _, _ in })
            tokens.append(player.observe(\.currentItem?.status, options: .prior) { _, _ in })
            tokens.append(item.observe(\.status) { _, _ in })
            player.rate = 1
            item.engineSetStatus(.readyToPlay)
        }
        #expect(weakPlayer == nil)
        #expect(weakItem == nil)
        for token in tokens { token.invalidate() }
    }

    @Test func invalidateReleasesTheHandler() async {
        final class Captured {}
        let player = FakePlayer()
        weak var weakCaptured: Captured?
        let token: NSKeyValueObservation
        do {
            let captured = Captured()
            weakCaptured = captured
            token = player.observe(\.rate) { _, _ in _ = captured }
        }
        #expect(weakCaptured != nil)
        token.invalidate()
        #expect(weakCaptured == nil)
    }

    @Test func handlerMayInvalidateItsOwnObservation() async {
        let player = FakePlayer()
        var calls = 0
        var token: NSKeyValueObservation?
        token = player.observe(\.rate, options: [.prior]) { _, change in
            calls += 1
            if change.isPrior { token?.invalidate() }
        }
        player.rate = 1
        player.rate = 2
        #expect(calls == 1)  // the prior call; the after-call is skipped once invalidated
    }

    @Test func handlerMayInvalidateAnotherObservationBeforeItsTurn() async {
        let player = FakePlayer()
        var secondCalls = 0
        var second: NSKeyValueObservation?
        let first = player.observe(\.rate) { _, _ in second?.invalidate() }
        second = player.observe(\.rate) { _, _ in secondCalls += 1 }
        player.rate = 1
        #expect(secondCalls == 0)
        _ = first
    }

    @Test func handlerMayMutateTheObservedPropertyAgain() async {
        let player = FakePlayer()
        var seen: [Float] = []
        let token = player.observe(\.rate, options: [.old, .new]) { player, change in
            seen.append(change.newValue ?? -1)
            if let new = change.newValue, new > 2 { player.rate = 2 }  // clamp re-entrantly
        }
        let other = ChangeLog<Float>()
        let otherToken = player.observe(\.rate, options: [.old, .new]) { _, change in
            other.append(change)
        }
        player.rate = 5
        #expect(seen == [5, 2])
        #expect(player.rate == 2)
        // The later observer hears the inner change first, then the outer one, each with the
        // old value captured before its own mutation.
        #expect(other.changes.map(\.oldValue) == [5, 0])
        #expect(other.changes.map(\.newValue) == [2, 2])
        _ = (token, otherToken)
    }

    @Test func handlerMayStartNewObservations() async {
        let player = FakePlayer()
        var tokens: [NSKeyValueObservation] = []
        var innerCalls = 0
        tokens.append(
            player.observe(\.rate) { player, _ in
                tokens.append(player.observe(\.rate, options: .initial) { _, _ in innerCalls += 1 })
            })
        player.rate = 1  // outer starts inner #1 (its .initial call)
        player.rate = 2  // inner #1 fires, outer starts inner #2
        #expect(innerCalls == 3)
        #expect(tokens.count == 3)
    }

    @Test func handlerMayMutateAnotherPropertyWithItsOwnObservers() async {
        let player = FakePlayer()
        var volumes: [Float] = []
        let rateToken = player.observe(\.rate, options: .new) { player, change in
            if change.newValue == 0 { player.volume = 0 }
        }
        let volumeToken = player.observe(\.volume, options: .new) { _, change in
            volumes.append(change.newValue ?? -1)
        }
        player.rate = 1
        player.rate = 0
        #expect(volumes == [0])
        _ = (rateToken, volumeToken)
    }

    @Test func observationsSurviveConcurrentInvalidationFromOtherThreads() async {
        let player = FakePlayer()
        let item = FakeItem(name: "a")
        player.replaceCurrentItem(with: item)
        let keep = player.observe(\.currentItem?.status, options: .new) { _, _ in }
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    for _ in 0..<200 {
                        let token = player.observe(\.rate, options: [.initial, .old]) { _, _ in }
                        let chained = player.observe(\.currentItem?.error) { _, _ in }
                        token.invalidate()
                        _ = chained
                    }
                }
            }
            for step in 0..<200 {
                player.rate = Float(step)
                player.replaceCurrentItem(with: step.isMultiple(of: 2) ? FakeItem(name: "b") : item)
                await Task.yield()
            }
        }
        #expect(player.rate == 199)
        keep.invalidate()
    }
}
