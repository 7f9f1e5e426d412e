// Playhead: tests of key paths that go through a child observable, such as
// `\.currentItem?.status`.
//
// Concurrency: every test runs on the main actor and mutates there.
import Foundation
import OpenAVFoundation
import Testing

@MainActor
struct KeyValueObservingChainTests {
    @Test func chainedKeyPathFiresWhenTheChildChanges() async {
        let player = FakePlayer()
        let item = FakeItem(name: "a")
        player.replaceCurrentItem(with: item)
        var statuses: [String] = []
        let token = player.observe(\.currentItem?.status, options: .new) { _, change in
            statuses.append(change.newValue.map { "\($0 as Any)" } ?? "-")
        }
        item.engineSetStatus(.readyToPlay)
        #expect(statuses == ["Optional(OpenAVFoundationTests.FakeItem.Status.readyToPlay)"])
        _ = token
    }

    @Test func chainedKeyPathFollowsTheNewChildAfterReplacement() async {
        let player = FakePlayer()
        let first = FakeItem(name: "first")
        let second = FakeItem(name: "second")
        second.engineSetStatus(.readyToPlay)
        player.replaceCurrentItem(with: first)
        var events: [String] = []
        let token = player.observe(\.currentItem?.status, options: [.old, .new]) { _, change in
            events.append("\(Self.describe(change.oldValue)) -> \(Self.describe(change.newValue))")
        }
        player.replaceCurrentItem(with: second)
        first.engineSetStatus(.failed(reason: "stale"))  // no longer observed
        second.engineSetStatus(.failed(reason: "x"))
        player.replaceCurrentItem(with: nil)
        second.engineSetStatus(.unknown)  // no longer observed
        player.replaceCurrentItem(with: first)
        #expect(
            events == [
                "unknown -> readyToPlay",
                "readyToPlay -> failed(reason: \"x\")",
                "failed(reason: \"x\") -> nil",
                "nil -> failed(reason: \"stale\")",
            ])
        _ = token
    }

    @Test func chainStartingFromNilPicksUpTheFirstChild() async {
        let player = MyPlayer()
        let item = FakeItem(name: "a")
        var calls = 0
        let token = player.observe(\.currentItem?.loadedTimeRanges) { _, _ in calls += 1 }
        item.engineSetLoadedRanges([])  // not yet the current item
        player.replaceCurrentItem(with: item)
        item.engineSetLoadedRanges([])
        #expect(calls == 2)
        _ = token
    }

    @Test func observingTheChildObjectItselfFiresOnReplacement() async {
        let player = FakePlayer()
        let item = FakeItem(name: "a")
        var names: [String] = []
        let token = player.observe(\.currentItem, options: [.initial, .new]) { _, change in
            names.append((change.newValue ?? nil)?.name ?? "nil")
        }
        player.replaceCurrentItem(with: item)
        item.engineSetStatus(.readyToPlay)  // not part of `\.currentItem`
        #expect(names == ["nil", "a"])
        _ = token
    }

    @Test func keyPathReadingTwoPropertiesFiresForEither() async {
        let player = FakePlayer()
        var calls = 0
        let token = player.observe(\.loudness) { _, _ in calls += 1 }
        player.rate = 1
        player.volume = 0.5
        #expect(calls == 2)
        _ = token
    }

    private static func describe(_ value: FakeItem.Status??) -> String {
        guard let value else { return "absent" }
        guard let status = value else { return "nil" }
        return "\(status)"
    }
}

extension FakePlayer {
    /// A client-side computed property that reads two published properties.
    nonisolated var loudness: Float { rate * volume }
}
