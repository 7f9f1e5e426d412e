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
        let sink = RecordingVideoSink()
        let sinks = VideoSinks()
        sinks.add(sink)
        let output = ClockDrivenAudioOutput(clock: clock)
        let environment = PlaybackEnvironment(
            hostClock: clock, makeAudioOutput: { output }, videoSinks: sinks)
        let player = AVPlayer(environment: environment, playerItem: AVPlayerItem(url: try Fixture.url(.mp4)))
        player.play()
        await waitUntil("playing") { player.timeControlStatus == .playing }
        await advanceFed(clock, by: 0.6, playing: player, output: output)
        player.pause()
        let paused = player.currentTime()
        #expect(abs(paused.seconds - 0.6) < 0.03)
        await advance(clock, by: 0.5)
        #expect(player.currentTime() == paused)
        let shownWhilePaused = sink.count
        player.play()
        await waitUntil("playing again") { player.timeControlStatus == .playing }
        #expect(abs(player.currentTime().seconds - paused.seconds) < 0.015)
        await advanceFed(clock, by: 0.4, playing: player, output: output)
        #expect(abs(player.currentTime().seconds - (paused.seconds + 0.4)) < 0.03)
        #expect(sink.count > shownWhilePaused)
    }

    @Test func timeStandsUntilTheSoundIsHeardAndNeverGoesBack() async throws {
        // A sound server heard 100 ms after rendering: time used to run from the moment play
        // was asked for, then jump back by that much when the audio clock took over.
        let clock = ManualClock()
        let sinks = VideoSinks()
        sinks.add(RecordingVideoSink())
        let output = ClockDrivenAudioOutput(clock: clock, outputLatency: 0.1)
        let environment = PlaybackEnvironment(hostClock: clock, makeAudioOutput: { output }, videoSinks: sinks)
        let player = AVPlayer(environment: environment, playerItem: AVPlayerItem(url: try Fixture.url(.mp4)))
        var readings: [Double] = []
        for pass in 0..<2 {
            player.play()
            await waitUntil("playing") { player.timeControlStatus == .playing }
            let start = player.currentTime().seconds
            for _ in 0..<25 {
                await advanceFed(clock, by: 0.02, playing: player, output: output)
                readings.append(player.currentTime().seconds)
            }
            // First play: heard from 0.1 s after play, so 0.4 s of sound by now and time stood
            // for the first 0.1 s. Resuming, this output has nothing left from before the pause
            // (the ring goes on after what it rendered), so time goes on at once.
            let expected = pass == 0 ? 0.4 : 0.5
            #expect(abs(readings.last! - start - expected) < 0.03, "pass \(pass) \(readings)")
            if pass == 0 { #expect(readings[3] == start, "time waits for the sound") }
            player.pause()
            readings.append(player.currentTime().seconds)
            await advanceFed(clock, by: 0.2, playing: player, output: output)
        }
        let backward = zip(readings, readings.dropFirst()).filter { $1 < $0 - 1e-9 }
        #expect(backward.isEmpty, "time went back: \(backward)")

        // Played from a seek made while paused, and across a seek made while playing, time
        // starts at the landing and stands there until the new position is heard.
        for (target, whilePlaying) in [(2.0, false), (1.0, true)] {
            let done = Locked(false)
            player.seek(to: CMTime(seconds: target, preferredTimescale: 600), toleranceBefore: .zero,
                        toleranceAfter: .zero) { _ in done.withLock { $0 = true } }
            if !whilePlaying {
                await waitUntil("seek done") { done.withLock { $0 } }
                player.play()
                await waitUntil("playing") { player.timeControlStatus == .playing }
            }
            var after: [Double] = []
            for _ in 0..<25 {
                await advanceFed(clock, by: 0.02, playing: player, output: output)
                if done.withLock({ $0 }) { after.append(player.currentTime().seconds) }
            }
            #expect(after.count > 10)
            #expect(after.allSatisfy { $0 >= target - 1e-9 }, "\(target): \(after)")
            let back = zip(after, after.dropFirst()).filter { $1 < $0 - 1e-9 }
            #expect(back.isEmpty, "\(target): time went back: \(back)")
            player.pause()
        }
    }

    /// A player on a manual clock, asked to play the MP4 fixture on an output that does not
    /// start until it is let (``SlowStartingAudioOutput``), and the sink its pictures go to.
    private func playingOnASlowStartingOutput() async throws
        -> (ManualClock, SlowStartingAudioOutput, AVPlayer, RecordingVideoSink)
    {
        let clock = ManualClock()
        let sink = RecordingVideoSink()
        let sinks = VideoSinks()
        sinks.add(sink)
        let output = SlowStartingAudioOutput(ClockDrivenAudioOutput(clock: clock))
        let environment = PlaybackEnvironment(hostClock: clock, makeAudioOutput: { output }, videoSinks: sinks)
        let player = AVPlayer(environment: environment, playerItem: AVPlayerItem(url: try Fixture.url(.mp4)))
        await waitUntil("ready") { player.currentItem?.status == .readyToPlay }
        player.play()
        await waitUntil("playing") { player.timeControlStatus == .playing }
        return (clock, output, player, sink)
    }

    @Test func timeWaitsForAnOutputThatIsSlowToStart() async throws {
        // A device that takes its time to start: time used to run from the moment play was
        // asked for and go back when the first audio was heard.
        let (clock, output, player, _) = try await playingOnASlowStartingOutput()
        await advance(clock, by: 0.1)
        #expect(player.currentTime() == .zero, "time waits for the sound")
        output.letStart()
        var readings: [Double] = []
        for _ in 0..<20 {
            await advanceFed(clock, by: 0.02, playing: player, output: output.inner)
            readings.append(player.currentTime().seconds)
        }
        #expect(readings.first! <= 0.02 + 1e-9 && abs(readings.last! - 0.4) < 0.03, "\(readings)")
        #expect(zip(readings, readings.dropFirst()).allSatisfy { $1 >= $0 }, "\(readings)")
        player.pause()
    }

    @Test func timeWaitsSecondsForAnOutputThatWakesSlowlyAndThePictureNeverRepeats() async throws {
        // A suspended sink or a Bluetooth headset waking up can take two seconds to play the
        // first sound. Time used to wait 0.5 s, run on the system clock, then step back to the
        // sound's position when it began: the picture ran ahead of the sound, then stood until
        // the sound caught up.
        let (clock, output, player, sink) = try await playingOnASlowStartingOutput()
        await waitUntil("sound waiting") { (engine(of: player)?.pipeline?.ring?.bufferedFrames ?? 0) > 0 }
        var waiting: [Double] = []
        for _ in 0..<20 {
            await advance(clock, by: 0.1)
            waiting.append(player.currentTime().seconds)
        }
        #expect(waiting.allSatisfy { $0 == 0 }, "time waits 2 s for the sound: \(waiting)")
        let shownWhileWaiting = sink.frames.map(\.pts.seconds)
        #expect(shownWhileWaiting.allSatisfy { $0 < 0.05 }, "only the first picture before the sound: \(shownWhileWaiting)")
        output.letStart()
        var readings: [Double] = []
        for _ in 0..<20 {
            await advanceFed(clock, by: 0.02, playing: player, output: output.inner)
            readings.append(player.currentTime().seconds)
        }
        #expect(abs(readings.last! - 0.4) < 0.03, "\(readings)")
        let all = waiting + readings
        #expect(zip(all, all.dropFirst()).allSatisfy { $1 >= $0 }, "time went back: \(all)")
        // The pictures due by now (0 … 0.36 s) are shown without the clock moving on.
        await waitUntil("the pictures due shown") { sink.frames.count >= 10 }
        player.pause()
        let shown = sink.frames.map(\.pts.seconds)
        #expect(shown.count >= 10 && zip(shown, shown.dropFirst()).allSatisfy { $1 > $0 }, "each picture once: \(shown)")
    }

    @Test func timeRunsOnWithoutAnOutputThatNeverPlays() async throws {
        // An output that takes the audio and never plays it is taken as stuck after 5 s: the
        // picture goes on by the system clock rather than stand for good.
        let (clock, output, player, _) = try await playingOnASlowStartingOutput()
        await waitUntil("sound waiting") { (engine(of: player)?.pipeline?.ring?.bufferedFrames ?? 0) > 0 }
        await advance(clock, by: 4.9, step: 0.1)
        #expect(player.currentTime() == .zero, "time waits for the sound")
        await advance(clock, by: 0.6, step: 0.1)
        #expect(abs(player.currentTime().seconds - 0.5) < 1e-6, "then runs on: \(player.currentTime().seconds)")
        player.replaceCurrentItem(with: nil)
        output.letStart()
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
        await advanceFed(clock, by: 1, playing: player, thenUpTo: 5) { player.currentTime().seconds >= 0.975 }
        await waitUntil(timeout: 10, "\(fixture) clock at 1 s") { abs(player.currentTime().seconds - 1) < 0.03 }
        await advanceFed(clock, by: 1.6, playing: player, step: 0.05, thenUpTo: 10) {
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
        let sinks = VideoSinks()
        sinks.add(sink)
        let output = ClockDrivenAudioOutput(clock: clock)
        let environment = PlaybackEnvironment(hostClock: clock, makeAudioOutput: { output }, videoSinks: sinks)
        let player = AVPlayer(environment: environment, playerItem: item)
        await waitUntil("ready") { item.status == .readyToPlay }
        let target = CMTime(value: 13, timescale: 10)
        let finished = await player.seek(to: target, toleranceBefore: .zero, toleranceAfter: .zero)
        #expect(finished)
        #expect(player.currentTime() == target)
        player.play()
        await waitUntil("playing") { player.timeControlStatus == .playing }
        // The audio clock stops while the (real-time) audio thread is behind the manual clock
        // (an underrun, as on a device): each step waits for the audio thread to queue its
        // sound (`advanceFed`), and should one still come short, the clock moves on until the
        // time gets to 1.5 s. It never runs ahead of the clock and never goes back before the
        // target.
        var moved = 0.0
        var lowest = player.currentTime().seconds
        while player.currentTime().seconds < 1.5 - 0.02, moved < 10 {
            await advanceFed(clock, by: 0.02, playing: player, output: output)
            moved += 0.02
            lowest = min(lowest, player.currentTime().seconds)
        }
        let reached = player.currentTime().seconds
        #expect(abs(reached - 1.5) < 0.06, "time got to 1.5 s (at \(reached) after \(moved) s of clock)")
        #expect(reached - 1.3 <= moved + 0.03, "no faster than the clock")
        #expect(lowest >= 1.3 - 1e-6, "playback went on from the target")
    }
}

/// An output whose `start()` waits until the test lets it (a device slow to start).
final class SlowStartingAudioOutput: AudioOutput, @unchecked Sendable {
    let inner: ClockDrivenAudioOutput
    private let allowed = DispatchSemaphore(value: 0)
    init(_ inner: ClockDrivenAudioOutput) { self.inner = inner }
    func letStart() { allowed.signal() }
    var name: String { "slow-starting" }
    var outputLatency: Double { inner.outputLatency }
    func open(format: AudioOutputFormat, source: any AudioRenderSource) throws -> AudioOutputFormat {
        try inner.open(format: format, source: source)
    }
    func start() {
        allowed.wait()
        allowed.signal()
        inner.start()
    }
    func stop() { inner.stop() }
    func close() { inner.close() }
}
