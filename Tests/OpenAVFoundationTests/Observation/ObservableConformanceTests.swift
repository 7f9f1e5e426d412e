// Playhead: tests that the observable classes work with the Observation framework.
//
// Concurrency: tests run on the main actor; `Observations` re-evaluates its closure there.
import Foundation
import Observation
import OpenAVFoundation
import Testing

@MainActor
struct ObservableConformanceTests {
    @Test func withObservationTrackingFiresOnChange() async {
        let player = FakePlayer()
        let fired = CallCounter()
        withObservationTracking {
            _ = player.rate
        } onChange: {
            fired.increment()
        }
        player.volume = 0.1  // not tracked
        #expect(fired.count == 0)
        player.rate = 1
        player.rate = 2  // tracking is one-shot
        #expect(fired.count == 1)
    }

    @Test func withObservationTrackingWorksOnSubclassesAndChains() async {
        let player = MyPlayer()
        let item = FakeItem(name: "a")
        player.replaceCurrentItem(with: item)
        let fired = CallCounter()
        withObservationTracking {
            _ = player.currentItem?.status
        } onChange: {
            fired.increment()
        }
        item.engineSetStatus(.readyToPlay)
        #expect(fired.count == 1)
    }

    @Test func keyValueProbesDoNotLeakIntoObservationTracking() async {
        let player = FakePlayer()
        let fired = CallCounter()
        var token: NSKeyValueObservation?
        withObservationTracking {
            token = player.observe(\.rate, options: [.initial, .new]) { _, _ in }
        } onChange: {
            fired.increment()
        }
        player.rate = 1
        #expect(fired.count == 0)
        token?.invalidate()
    }

    @Test func observationsSequenceYieldsSuccessiveValues() async {
        let player = FakePlayer()
        let values = Observations { player.rate }
        var iterator = values.makeAsyncIterator()
        #expect(await iterator.next() == 0)
        player.rate = 1
        #expect(await iterator.next() == 1)
        player.rate = 2
        #expect(await iterator.next() == 2)
        player.rate = 3
        #expect(await iterator.next() == 3)
    }

    @Test func observationsSequenceFollowsChains() async {
        let player = FakePlayer()
        let item = FakeItem(name: "a")
        let values = Observations { player.currentItem?.name ?? "none" }
        var iterator = values.makeAsyncIterator()
        #expect(await iterator.next() == "none")
        player.replaceCurrentItem(with: item)
        #expect(await iterator.next() == "a")
    }
}
