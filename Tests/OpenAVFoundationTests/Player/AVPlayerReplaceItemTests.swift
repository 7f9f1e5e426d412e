// Playhead: replacing an AVPlayer's current item during playback.
import Foundation
import PlayheadTestSupport
import Testing

@testable import OpenAVFoundation

@MainActor
@Suite struct AVPlayerReplaceItemTests {
    @Test func replacingDuringPlaybackSwitchesToTheNewItem() async throws {
        let sink = RecordingVideoSink()
        let clock = ManualClock()
        let first = AVPlayerItem(url: try Fixture.url(.mp4))
        let player = AVPlayer(environment: timedEnvironment(sink, clock: clock), playerItem: first)
        let items = ValueLog(player, \.currentItem)
        player.play()
        await waitUntil("playing") { player.timeControlStatus == .playing }
        await advance(clock, by: 0.5)
        let reference = await linearChecksums(of: try Fixture.url(.webM))
        let firstReference = await linearChecksums(of: try Fixture.url(.mp4))
        let secondStart = try #require(reference.keys.min())
        #expect(reference[secondStart] != firstReference[0])
        let second = AVPlayerItem(url: try Fixture.url(.webM))
        // Reset before replacing: on a loaded machine the new item can open and show its first
        // frame before this task runs again. A frame of the old item that was already on its
        // way may still land first; it is recognised by its pixels and skipped below.
        sink.reset()
        player.replaceCurrentItem(with: second)
        let clearsBefore = sink.clearCount
        #expect(player.currentItem === second)
        #expect(clearsBefore >= 1, "the old item's frame is dropped")
        await waitUntil("second item plays") { second.status == .readyToPlay && player.timeControlStatus == .playing }
        // A frame's time at a time, each frame due shown before the clock moves on (so none is
        // late and dropped however slowly the decoder runs: under a sanitizer 0.4 s at once left
        // too few).
        for _ in 0..<10 {
            await advance(clock, by: 0.04)
            let due = player.currentTime().seconds
            await waitUntil("the frame due shown") { (sink.last?.pts.seconds ?? -1) >= due - 0.041 }
        }
        await waitUntil("frames of the second item") { sink.count >= 5 }
        items.stop()
        #expect(items.values.count == 2)
        #expect(items.values.last.flatMap { $0 } === second)
        let frames = sink.frames.drop { entry in
            firstReference[millis(entry.pts)] == entry.frame.checksum()
                && reference[millis(entry.pts)] != entry.frame.checksum()
        }
        #expect(sink.count - frames.count <= 1, "at most one frame of the old item was in flight")
        for entry in frames {
            #expect(reference[millis(entry.pts)] == entry.frame.checksum(), "frame \(entry.pts.seconds) is not from the new item")
        }
        #expect(frames.first.map { millis($0.pts) } == secondStart, "the new item starts at its start")
        #expect(abs(player.currentTime().seconds - 0.4) < 0.05)
        #expect(player.rate == 1)
    }

    @Test func replacingWithNilWhilePlayingWaitsWithNoItemToPlay() async throws {
        let clock = ManualClock()
        let item = AVPlayerItem(url: try Fixture.url(.mp4))
        let player = AVPlayer(environment: timedEnvironment(RecordingVideoSink(), clock: clock), playerItem: item)
        player.play()
        await waitUntil("playing") { player.timeControlStatus == .playing }
        player.replaceCurrentItem(with: nil)
        #expect(player.currentItem == nil)
        #expect(player.rate == 1)
        #expect(player.timeControlStatus == .waitingToPlayAtSpecifiedRate)
        #expect(player.reasonForWaitingToPlay == .noItemToPlay)
        #expect(player.currentTime() == .zero)
        player.pause()
        #expect(player.timeControlStatus == .paused)
        #expect(player.reasonForWaitingToPlay == nil)
    }

    @Test func replacedItemKeepsItsTimeAndStopsUpdating() async throws {
        let clock = ManualClock()
        let item = AVPlayerItem(url: try Fixture.url(.mp4))
        let player = AVPlayer(environment: timedEnvironment(RecordingVideoSink(), clock: clock), playerItem: item)
        player.play()
        await waitUntil("playing") { player.timeControlStatus == .playing }
        await advance(clock, by: 0.3)
        player.replaceCurrentItem(with: nil)
        let kept = item.currentTime()
        #expect(abs(kept.seconds - 0.3) < 0.05)
        await advance(clock, by: 0.3)
        #expect(item.currentTime() == kept)
        #expect(engine(of: player) == nil)
    }

    @Test func aFailedItemCanBeReplacedByAGoodOne() async throws {
        let sink = RecordingVideoSink()
        let bad = AVPlayerItem(url: try BadInput.url(.randomBytes))
        let player = AVPlayer(environment: untimedEnvironment(sink), playerItem: bad)
        await waitUntil("failed") { bad.status == .failed }
        let good = AVPlayerItem(url: try Fixture.url(.mp4))
        let log = NotificationLog([AVPlayerItem.didPlayToEndTimeNotification], object: good)
        player.replaceCurrentItem(with: good)
        player.play()
        await waitUntil("end of the good item") { log.count(AVPlayerItem.didPlayToEndTimeNotification) == 1 }
        #expect(sink.count == 50)
        #expect(bad.status == .failed)
    }
}
