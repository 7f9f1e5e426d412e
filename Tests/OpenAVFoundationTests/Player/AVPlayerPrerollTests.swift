// Playhead: tests for preroll(atRate:) and cancelPendingPrerolls().
import Foundation
import PlayheadTestSupport
import Testing

@testable import OpenAVFoundation

@MainActor
@Suite struct AVPlayerPrerollTests {
    @Test func aReadyPausedPlayerPrerollsAndThenStartsAtOnce() async throws {
        let clock = ManualClock()
        let item = AVPlayerItem(url: try Fixture.url(.mp4))
        let player = AVPlayer(environment: timedEnvironment(RecordingVideoSink(), clock: clock), playerItem: item)
        await waitUntil("ready") { player.status == .readyToPlay }
        let finished = await player.preroll(atRate: 1)
        #expect(finished)
        #expect(item.isPlaybackLikelyToKeepUp)
        player.play()
        #expect(player.timeControlStatus == .playing)
        player.replaceCurrentItem(with: nil)
    }

    @Test func aPrerollBeforeReadyOrWhilePlayingCompletesWithFalse() async throws {
        let empty = AVPlayer(environment: untimedEnvironment(RecordingVideoSink()), playerItem: nil)
        #expect(await empty.preroll(atRate: 1) == false)
        let clock = ManualClock()
        let item = AVPlayerItem(url: try Fixture.url(.mp4))
        let player = AVPlayer(environment: timedEnvironment(RecordingVideoSink(), clock: clock), playerItem: item)
        await waitUntil("ready") { player.status == .readyToPlay }
        player.play()
        #expect(await player.preroll(atRate: 1) == false)
        player.replaceCurrentItem(with: nil)
    }

    @Test func interruptedPrerollsCompleteWithFalseOnTheMainQueueOnce() async throws {
        let log = CompletionLog()
        let player = AVPlayer(environment: untimedEnvironment(RecordingVideoSink()), playerItem: nil)
        let item = AVPlayerItem(url: try Fixture.url(.mp4))
        player.replaceCurrentItem(with: item)
        await waitUntil("ready") { player.status == .readyToPlay }
        // Registered directly, as a preroll still filling its buffer is.
        player.state.withLock { $0.prerolls.append(log.handler()) }
        player.cancelPendingPrerolls()
        await waitUntil("cancelled") { !log.results.isEmpty }
        player.state.withLock { $0.prerolls.append(log.handler()) }
        player.rate = 1
        await waitUntil("rate change ends it") { log.results.count == 2 }
        player.pause()
        player.state.withLock { $0.prerolls.append(log.handler()) }
        await player.seek(to: CMTime(value: 1, timescale: 1))
        await mainQueueSleep(nanoseconds: 50_000_000)
        #expect(log.results == [false, false, false])
        player.replaceCurrentItem(with: nil)
    }
}
