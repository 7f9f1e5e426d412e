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

    /// Registers a pending preroll (as one still filling its buffer is) and runs `interrupt`
    /// in the same main-queue turn, so no engine event can finish the preroll in between.
    private func interruptAPendingPreroll(
        of player: AVPlayer, _ log: CompletionLog, _ interrupt: @escaping @Sendable () -> Void
    ) async {
        let handler = log.handler()
        let box = UncheckedBox(player)
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            DispatchQueue.main.async {
                box.value.state.withLock { $0.prerolls.append(handler) }
                interrupt()
                done.resume()
            }
        }
    }

    @Test func interruptedPrerollsCompleteWithFalseOnTheMainQueueOnce() async throws {
        let log = CompletionLog()
        let player = AVPlayer(environment: untimedEnvironment(RecordingVideoSink()), playerItem: nil)
        let item = AVPlayerItem(url: try Fixture.url(.mp4))
        player.replaceCurrentItem(with: item)
        await waitUntil("ready") { player.status == .readyToPlay }
        await interruptAPendingPreroll(of: player, log) { player.cancelPendingPrerolls() }
        await interruptAPendingPreroll(of: player, log) { player.rate = 1 }
        player.pause()
        await interruptAPendingPreroll(of: player, log) { player.seek(to: CMTime(value: 1, timescale: 1)) }
        await interruptAPendingPreroll(of: player, log) { player.replaceCurrentItem(with: nil) }
        await mainQueueSleep(nanoseconds: 50_000_000)
        #expect(log.results == [false, false, false, false])
        #expect(log.allOnMain)
    }
}
