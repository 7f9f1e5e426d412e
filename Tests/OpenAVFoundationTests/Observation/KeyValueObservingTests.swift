// Playhead: tests of `observe(_:options:changeHandler:)` on single properties.
//
// Concurrency: every test runs on the main actor and mutates there, so handlers run
// synchronously inside the mutation, on the main actor.
import Foundation
import OpenAVFoundation
import Testing

@MainActor
struct KeyValueObservingTests {
    @Test func newOptionDeliversOnlyTheNewValue() async {
        let player = FakePlayer()
        let log = ChangeLog<Float>()
        let token = player.observe(\.rate, options: .new) { _, change in log.append(change) }
        player.rate = 1.5
        #expect(log.count == 1)
        #expect(log.changes.first?.kind == .setting)
        #expect(log.changes.first?.newValue == 1.5)
        #expect(log.changes.first?.oldValue == nil)
        #expect(log.changes.first?.isPrior == false)
        #expect(log.changes.first?.indexes == nil)
        token.invalidate()
    }

    @Test func noOptionsStillCallsTheHandlerWithoutValues() async {
        let player = FakePlayer()
        let log = ChangeLog<Float>()
        let token = player.observe(\.rate) { _, change in log.append(change) }
        player.rate = 1
        #expect(log.count == 1)
        #expect(log.changes.first?.newValue == nil)
        #expect(log.changes.first?.oldValue == nil)
        _ = token
    }

    @Test func oldAndNewOptionsDeliverBothValues() async {
        let player = FakePlayer()
        let log = ChangeLog<Float>()
        let token = player.observe(\.rate, options: [.old, .new]) { _, change in
            log.append(change)
        }
        player.rate = 1
        player.rate = 0.5
        #expect(log.changes.map(\.oldValue) == [0, 1])
        #expect(log.changes.map(\.newValue) == [1, 0.5])
        _ = token
    }

    @Test func initialFiresOnceInsideObserveWithTheCurrentValue() async {
        let player = FakePlayer()
        player.rate = 2
        let log = ChangeLog<Float>()
        let token = player.observe(\.rate, options: [.initial, .new, .old]) { _, change in
            log.append(change)
        }
        #expect(log.count == 1)
        #expect(log.changes.first?.newValue == 2)
        #expect(log.changes.first?.oldValue == nil)
        #expect(log.changes.first?.isPrior == false)
        player.rate = 3
        #expect(log.changes.map(\.newValue) == [2, 3])
        _ = token
    }

    @Test func initialWithoutNewCarriesNoValue() async {
        let player = FakePlayer()
        let log = ChangeLog<Float>()
        let token = player.observe(\.rate, options: .initial) { _, change in log.append(change) }
        #expect(log.count == 1)
        #expect(log.changes.first?.newValue == nil)
        _ = token
    }

    @Test func priorCallComesBeforeTheChangeWithTheOldValue() async {
        let player = FakePlayer()
        player.rate = 1
        var events: [String] = []
        let token = player.observe(\.rate, options: [.prior, .old, .new]) { player, change in
            let stored = player.rate
            events.append(
                "prior=\(change.isPrior) old=\(change.oldValue.map { "\($0)" } ?? "nil") "
                    + "new=\(change.newValue.map { "\($0)" } ?? "nil") stored=\(stored)")
        }
        player.rate = 2
        #expect(
            events == [
                "prior=true old=1.0 new=nil stored=1.0",
                "prior=false old=1.0 new=2.0 stored=2.0",
            ])
        _ = token
    }

    @Test func priorWithoutOldCarriesNoValues() async {
        let player = FakePlayer()
        let log = ChangeLog<Float>()
        let token = player.observe(\.rate, options: .prior) { _, change in log.append(change) }
        player.rate = 4
        #expect(log.changes.map(\.isPrior) == [true, false])
        #expect(log.changes.allSatisfy { $0.oldValue == nil && $0.newValue == nil })
        _ = token
    }

    @Test func everyMutationNotifiesEvenWithAnEqualValue() async {
        let player = FakePlayer()
        let log = ChangeLog<Float>()
        let token = player.observe(\.rate, options: .new) { _, change in log.append(change) }
        player.rate = 1
        player.rate = 1
        #expect(log.changes.map(\.newValue) == [1, 1])
        _ = token
    }

    @Test func otherPropertiesDoNotNotify() async {
        let player = FakePlayer()
        let log = ChangeLog<Float>()
        let token = player.observe(\.rate) { _, change in log.append(change) }
        player.volume = 0.2
        #expect(log.count == 0)
        _ = token
    }

    @Test func objectsDoNotShareObservers() async {
        let first = FakePlayer()
        let second = FakePlayer()
        let log = ChangeLog<Float>()
        let token = first.observe(\.rate) { _, change in log.append(change) }
        second.rate = 1
        #expect(log.count == 0)
        _ = token
    }

    @Test func subclassKeyPathResolvesToTheBaseClassProperty() async {
        let player = MyPlayer()
        let log = ChangeLog<Float>()
        var receivedSubclass = false
        let token = player.observe(\MyPlayer.rate, options: [.old, .new]) { observed, change in
            receivedSubclass = observed === player
            log.append(change)
        }
        player.rate = 1.25
        #expect(receivedSubclass)
        #expect(log.changes.map(\.newValue) == [1.25])
        #expect(log.changes.map(\.oldValue) == [0])
        _ = token
    }

    @Test func overriddenPropertyInSubclassIsObservable() async {
        let player = ClampedPlayer()
        let log = ChangeLog<Float>()
        let token = player.observe(\.rate, options: .new) { _, change in log.append(change) }
        player.rate = 5
        #expect(log.changes.map(\.newValue) == [2])
        _ = token
    }

    @Test func observingThroughTheBaseClassTypeWorksForSubclassInstances() async {
        let player: FakePlayer = MyPlayer()
        let log = ChangeLog<Float>()
        let token = player.observe(\FakePlayer.rate, options: .new) { _, change in
            log.append(change)
        }
        player.rate = 3
        #expect(log.changes.map(\.newValue) == [3])
        _ = token
    }

    @Test func severalObserversAreAllNotifiedInOrder() async {
        let player = FakePlayer()
        var order: [Int] = []
        let tokens = (0..<3).map { index in
            player.observe(\.rate) { _, _ in order.append(index) }
        }
        player.rate = 1
        #expect(order == [0, 1, 2])
        _ = tokens
    }

    @Test func nonEquatableValuesAreDelivered() async {
        let item = FakeItem(name: "a")
        var errors: [String] = []
        var statuses: [String] = []
        var ranges: [[CMTimeRange]] = []
        let tokens = [
            item.observe(\.error, options: [.old, .new]) { _, change in
                errors.append(
                    "\(String(describing: change.oldValue)) \(String(describing: change.newValue))")
            },
            item.observe(\.status, options: .new) { _, change in
                statuses.append(change.newValue.map { "\($0)" } ?? "-")
            },
            item.observe(\.loadedTimeRanges, options: .new) { _, change in
                ranges.append(change.newValue?.map(\.timeRangeValue) ?? [])
            },
        ]
        let range = CMTimeRange(start: .zero, duration: CMTime(value: 3, timescale: 1))
        item.engineSetLoadedRanges([range])
        item.engineSetStatus(.readyToPlay)
        item.engineFail(FakeFailure(code: 7))
        #expect(ranges == [[range]])
        #expect(statuses == ["readyToPlay", "failed(reason: \"FakeFailure(7)\")"])
        #expect(errors == ["Optional(nil) Optional(Optional(FakeFailure(7)))"])
        _ = tokens
    }

    @Test func nestedMutationsShowAllNewValuesAfterwards() async {
        let item = FakeItem(name: "a")
        var errorSeenWithStatus: String?
        let token = item.observe(\.status) { item, _ in
            errorSeenWithStatus = item.error.map { "\($0)" }
        }
        item.engineFail(FakeFailure(code: 1))
        #expect(errorSeenWithStatus == "FakeFailure(1)")
        _ = token
    }

    @Test func optionAndChangeRawValuesMatchFoundation() async {
        #expect(NSKeyValueObservingOptions.new.rawValue == 1)
        #expect(NSKeyValueObservingOptions.old.rawValue == 2)
        #expect(NSKeyValueObservingOptions.initial.rawValue == 4)
        #expect(NSKeyValueObservingOptions.prior.rawValue == 8)
        #expect(NSKeyValueChange(rawValue: 1) == .setting)
        #expect(NSKeyValueChange.replacement.rawValue == 4)
    }
}
