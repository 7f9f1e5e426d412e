// Playhead: the backlog of a track not playing: what is kept, what is let go, and that a long
// backlog is not copied for every packet.
import FFmpegBridge
import Testing

@testable import OpenAVFoundation

@Suite struct RecentPacketsTests {
    /// A stand-in entry: the time its packet ends, in milliseconds.
    private func end(_ millis: Int) -> CMTime { CMTime(value: Int64(millis), timescale: 1000) }

    @Test func keepsWhatEndsAtOrAfterTheHorizonOldestFirst() {
        var backlog = RecentPackets<Int>(limit: 100)
        for millis in stride(from: 0, through: 3000, by: 100) {
            backlog.append(millis, droppingEndedBefore: end(millis - 1000), end: end)
        }
        #expect(Array(backlog.entries) == Array(stride(from: 2000, through: 3000, by: 100)))
        #expect(Array(backlog.removeAll()) == Array(stride(from: 2000, through: 3000, by: 100)))
        #expect(backlog.count == 0)
    }

    @Test func stopsAtTheLimitUntilOldEntriesGo() {
        var backlog = RecentPackets<Int>(limit: 3)
        for millis in [0, 10, 20, 30, 40] {
            backlog.append(millis, droppingEndedBefore: end(-1), end: end)
        }
        #expect(Array(backlog.entries) == [0, 10, 20])
        backlog.append(50, droppingEndedBefore: end(15), end: end)
        #expect(Array(backlog.entries) == [20, 50])
    }

    @Test func aLongRunningBacklogMovesEachEntryAtMostOnceOnAverage() {
        // 200,000 packets through a 4,000-entry window: copying the window per packet (the old
        // way) would move 800 million entries; compaction moves about one per packet.
        var backlog = RecentPackets<Int>(limit: 4_000)
        let count = 200_000
        for millis in 0..<count {
            backlog.append(millis, droppingEndedBefore: end(millis - 3_000), end: end)
        }
        #expect(backlog.count == 3_001)
        #expect(backlog.entries.first == count - 3_001)
        #expect(backlog.movedEntries <= count)
    }
}
