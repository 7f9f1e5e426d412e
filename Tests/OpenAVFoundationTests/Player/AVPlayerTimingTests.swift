// Playhead: how AVPlayer's time advances: pause and resume, rates, audio-only items.
import Foundation
import PlayheadTestSupport
import Testing

@testable import OpenAVFoundation

@MainActor
@Suite struct AVPlayerTimingTests {
    private func playingPlayer(
        _ fixture: Fixture = .mp4, clock: ManualClock, audio: Bool = false, rate: Float = 1
    ) async throws -> (AVPlayer, AVPlayerItem, RecordingVideoSink) {
        let sink = RecordingVideoSink()
        let item = AVPlayerItem(url: try Fixture.url(fixture))
        let player = AVPlayer(environment: timedEnvironment(sink, clock: clock, audio: audio), playerItem: item)
        player.rate = rate
        await waitUntil("playing") { player.timeControlStatus == .playing }
        return (player, item, sink)
    }

    @Test(arguments: [Float(2), 0.5, 1])
    func timeAdvancesInProportionToTheRate(_ rate: Float) async throws {
        let clock = ManualClock()
        let (player, _, sink) = try await playingPlayer(clock: clock, rate: rate)
        let start = player.currentTime()
        #expect(start == .zero)
        await advance(clock, by: 0.5)
        #expect(abs(player.currentTime().seconds - 0.5 * Double(rate)) < 1e-6)
        await waitUntil("frames up to the clock") {
            (sink.last?.pts.seconds ?? 0) >= 0.5 * Double(rate) - 0.04
        }
        #expect(sink.frames.allSatisfy { $0.pts.seconds <= 0.5 * Double(rate) + 1e-6 })
    }

    @Test func rateChangeWhilePlayingDoesNotJump() async throws {
        let clock = ManualClock()
        let (player, _, _) = try await playingPlayer(clock: clock)
        await advance(clock, by: 0.4)
        player.rate = 2
        #expect(abs(player.currentTime().seconds - 0.4) < 1e-6)
        await advance(clock, by: 0.3)
        #expect(abs(player.currentTime().seconds - 1.0) < 1e-6)
    }

    @Test func pauseAndResumeKeepTimeContinuousOnAManualClock() async throws {
        let clock = ManualClock()
        let (player, _, sink) = try await playingPlayer(clock: clock, audio: true)
        await advance(clock, by: 0.6)
        player.pause()
        let paused = player.currentTime()
        #expect(abs(paused.seconds - 0.6) < 0.03)
        await advance(clock, by: 0.5)
        #expect(player.currentTime() == paused)
        let shownWhilePaused = sink.count
        player.play()
        await waitUntil("playing again") { player.timeControlStatus == .playing }
        #expect(abs(player.currentTime().seconds - paused.seconds) < 0.015)
        await advance(clock, by: 0.4)
        #expect(abs(player.currentTime().seconds - (paused.seconds + 0.4)) < 0.03)
        #expect(sink.count > shownWhilePaused)
    }

    /// Real-time timing: meaningful on a quiet machine, noisy when the whole suite shares two
    /// cores (the manual-clock variant asserts the same behaviour exactly). Runs in the
    /// real-time pass of `make test` (PLAYHEAD_REALTIME_TESTS set).
    @Test(.enabled(if: realTimeTestsEnabled))
    func pauseAndResumeKeepTimeContinuousInRealTime() async throws {
        let sink = RecordingVideoSink()
        let item = AVPlayerItem(url: try Fixture.url(.mp4))
        let player = AVPlayer(
            environment: timedEnvironment(sink, clock: SystemHostClock.shared, audio: true), playerItem: item)
        player.play()
        await waitUntil("playing") { player.timeControlStatus == .playing }
        let started = SystemHostClock.shared.now
        await mainQueueSleep(nanoseconds: 400_000_000)
        player.pause()
        let played = SystemHostClock.shared.now - started
        let paused = player.currentTime().seconds
        // Only continuity is checked here: when the main actor notices `.playing` can lag
        // arbitrarily on a loaded machine (see the manual-clock variant for exact values).
        #expect(paused > 0, "paused at \(paused) after about \(played) s of playing")
        await mainQueueSleep(nanoseconds: 200_000_000)
        #expect(abs(player.currentTime().seconds - paused) < 1e-9)
        player.play()
        let resumed = player.currentTime().seconds
        #expect(abs(resumed - paused) < 0.03)
        let host = SystemHostClock.shared.now
        await mainQueueSleep(nanoseconds: 300_000_000)
        let elapsed = SystemHostClock.shared.now - host
        let now = player.currentTime().seconds
        #expect(abs(now - (paused + elapsed)) < 0.15, "time \(now), paused at \(paused), \(elapsed) s later")
        let times = sink.frames.map(\.pts.seconds)
        #expect(times == times.sorted())
    }

    @Test(arguments: [Fixture.wav, .mp3WithCoverArt, .audioOnlyM4A])
    func audioOnlyItemPlaysToTheEndAndReportsTime(_ fixture: Fixture) async throws {
        let clock = ManualClock()
        let (player, item, sink) = try await playingPlayer(fixture, clock: clock, audio: true)
        let log = NotificationLog([AVPlayerItem.didPlayToEndTimeNotification], object: item)
        #expect(item.presentationSize == .zero)
        // The audio clock follows the real-time audio thread, which may lag the manual clock
        // on a loaded machine: move the clock on until the time gets to 1 s (within audio
        // codec delay: the MP3 starts 25 ms in).
        await advance(clock, by: 1, thenUpTo: 5) { player.currentTime().seconds >= 0.975 }
        await waitUntil(timeout: 10, "\(fixture) clock at 1 s") { abs(player.currentTime().seconds - 1) < 0.03 }
        await advance(clock, by: 1.6, step: 0.05, thenUpTo: 10) {
            log.count(AVPlayerItem.didPlayToEndTimeNotification) == 1
        }
        await waitUntil("end of \(fixture)") { log.count(AVPlayerItem.didPlayToEndTimeNotification) == 1 }
        #expect(player.rate == 0)
        #expect(abs(player.currentTime().seconds - item.duration.seconds) < 0.05)
        #expect(sink.count == 0)
        #expect((engine(of: player)?.statistics.audioSeconds ?? 0) > 1.8)
    }

    @Test func audioOnlyExactSeekLandsOnTheTarget() async throws {
        let clock = ManualClock()
        let sink = RecordingVideoSink()
        let item = AVPlayerItem(url: try Fixture.url(.wav))
        let player = AVPlayer(environment: timedEnvironment(sink, clock: clock, audio: true), playerItem: item)
        await waitUntil("ready") { item.status == .readyToPlay }
        let target = CMTime(value: 13, timescale: 10)
        let finished = await player.seek(to: target, toleranceBefore: .zero, toleranceAfter: .zero)
        #expect(finished)
        #expect(player.currentTime() == target)
        player.play()
        await waitUntil("playing") { player.timeControlStatus == .playing }
        // The audio clock stops while the (real-time) audio thread is behind the manual clock
        // (an underrun, as on a device), so on a loaded machine 0.2 s of clock may not be
        // 0.2 s of audio: keep moving the clock until the time gets to 1.5 s. It never runs
        // ahead of the clock and never goes back before the target.
        var moved = 0.0
        var lowest = player.currentTime().seconds
        while player.currentTime().seconds < 1.5 - 0.02, moved < 10 {
            await advance(clock, by: 0.02)
            moved += 0.02
            lowest = min(lowest, player.currentTime().seconds)
        }
        let reached = player.currentTime().seconds
        #expect(abs(reached - 1.5) < 0.06, "time got to 1.5 s (at \(reached) after \(moved) s of clock)")
        #expect(reached - 1.3 <= moved + 0.03, "no faster than the clock")
        #expect(lowest >= 1.3 - 1e-6, "playback went on from the target")
    }
}
