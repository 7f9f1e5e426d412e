// Playhead: the events a queue's prerolled engine sends while held, replayed when its item
// becomes current.
import Foundation
import PlayheadTestSupport
import Testing

@testable import OpenAVFoundation

@MainActor
@Suite struct PrerolledItemTests {
    private static let empty = BufferReport(flags: .init(), loadedRanges: [])
    private static let full = BufferReport(
        flags: .init(isEmpty: false, isLikelyToKeepUp: true, isFull: true),
        loadedRanges: [CMTimeRange(start: .zero, duration: CMTime(value: 2, timescale: 1))])
    private static let opened = OpenedMedia(
        duration: CMTime(value: 2, timescale: 1), presentationSize: .zero, tracks: [], seekableRanges: [])

    /// A name per event, to compare replays.
    private static func name(_ event: PlaybackEvent) -> String {
        switch event {
        case .opened: "opened"
        case .buffer(let report): report == empty ? "empty" : report == full ? "full" : "buffer"
        case .timedMetadata: "metadata"
        default: "other"
        }
    }

    @Test func onlyTheNewestBufferReportIsReplayedAndAfterEverythingElse() {
        var held = HeldEvents()
        #expect(!held.hasOpened)
        // The engine reads while the asset's keys load: its first (empty) report comes first.
        held.hold(.buffer(Self.empty))
        held.hold(.opened(Self.opened))
        held.hold(.buffer(Self.full))
        held.hold(.timedMetadata([], flushed: false))
        #expect(held.hasOpened)
        #expect(held.replay.map(Self.name) == ["opened", "metadata", "full"])
        held.hold(.buffer(Self.empty))
        #expect(held.replay.map(Self.name) == ["opened", "metadata", "empty"], "the newest report wins")
    }

    @Test func anEmptyBufferReportedBeforeOtherNewsIsNoStallOfTheItemThatTakesOver() async throws {
        let clock = ManualClock()
        let first = AVPlayerItem(url: try Fixture.url(.mp4))
        let second = AVPlayerItem(url: try Fixture.url(.webM))
        let player = AVQueuePlayer(environment: timedEnvironment(RecordingVideoSink(), clock: clock), items: [first, second])
        let stalls = NotificationLog([AVPlayerItem.playbackStalledNotification], object: second)
        player.play()
        await waitUntil("playing") { player.timeControlStatus == .playing }
        await waitUntil("the next item prerolled and open") {
            player.isNextItemPrerolled && player.queue.withLock { $0.prerolled?.hasOpened } == true
        }
        // Reports in an order the held engine can send them: empty, other news, full.
        let prerolled = try #require(player.queue.withLock { $0.prerolled })
        prerolled.hold(.buffer(Self.empty))
        prerolled.hold(.timedMetadata([], flushed: false))
        prerolled.hold(.buffer(Self.full))
        let statuses = ValueLog(player, \.timeControlStatus)
        await advance(clock, by: first.duration.seconds + 0.02)
        await waitUntil("the second item is current") { player.currentItem === second }
        await advance(clock, by: 0.2)
        await waitUntil("the second item plays on") { second.currentTime().seconds >= 0.15 }
        statuses.stop()
        #expect(statuses.values == [.playing], "\(statuses.values)")
        #expect(stalls.count(AVPlayerItem.playbackStalledNotification) == 0)
        #expect(second.isPlaybackLikelyToKeepUp)
        player.pause()
    }
}
