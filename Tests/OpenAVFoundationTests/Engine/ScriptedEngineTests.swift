// Playhead: the whole engine (coordinator, demux, decode, audio and presentation threads) on
// a manual clock with scripted stand-ins for the demuxer and decoders: no media file, no
// FFmpeg demuxing or decoding, and no dependence on the machine's speed (the clock moves only
// when the test moves it, and each step waits for the engine to catch up).
import FFmpegBridge
import Foundation
import PlayheadTestSupport
import Testing

@testable import OpenAVFoundation

/// Polls `condition` until it holds (true) or 30 s of real time pass (false), sleeping as a task
/// between looks (no test thread is held). Only a safety net: every wait of the scripted engine
/// tests is for something the engine does without the clock moving.
func eventually(_ condition: () -> Bool) async -> Bool {
    var deadline = PatientDeadline(seconds: 30)
    while !condition() {
        if deadline.hasPassed() { return false }
        try? await Task.sleep(for: .milliseconds(1))
    }
    return true
}

@Suite struct ScriptedEngineTests {
    /// The engine's news, as it arrives on its threads.
    final class NewsLog: @unchecked Sendable {
        private let events = Locked<[PlaybackEvent]>([])
        func append(_ event: PlaybackEvent) { events.withLock { $0.append(event) } }
        var ends: Int {
            events.withLock { $0.filter { if case .reachedEnd = $0 { true } else { false } }.count }
        }
        var seeksFinished: [(id: Int, time: CMTime)] {
            events.withLock {
                $0.compactMap { if case .seekFinished(let id, let time) = $0 { (id, time) } else { nil } }
            }
        }
    }

    struct Rig {
        let engine: ItemPlayback
        let clock: ManualClock
        let sink: RecordingVideoSink
        let news: NewsLog
        let source: ScriptedPacketSource
        let video: ScriptedVideoDecoder
    }

    private func seconds(_ value: Double) -> CMTime { CMTime(seconds: value, preferredTimescale: 1000) }

    /// An engine playing `script` on a manual clock into a recording sink, with a silent
    /// clock-driven audio output on the same clock.
    private func rig(_ script: MediaScript) -> Rig {
        let clock = ManualClock()
        let sink = RecordingVideoSink()
        let news = NewsLog()
        let asset = AVURLAsset(url: URL(fileURLWithPath: "/scripted/media.mp4"))
        let settings = ItemPlayback.Settings(item: AVPlayerItem(asset: asset), criteria: SelectionCriteriaSnapshot())
        let engine = ItemPlayback(
            asset: asset, settings: settings, environment: timedEnvironment(sink, clock: clock, audio: true)
        ) { _, event in news.append(event) }
        let source = ScriptedPacketSource(script)
        let video = ScriptedVideoDecoder()
        let audio = script.audioStream.map { ScriptedAudioDecoder(streamIndex: $0, sampleRate: script.sampleRate) }
        engine.start(
            scripted: WorkerParts(
                description: script.description, source: source, video: script.videoStream.map { ($0, video) },
                audio: audio))
        return Rig(engine: engine, clock: clock, sink: sink, news: news, source: source, video: video)
    }

    /// Waits until the ring holds `seconds` of audio (or all that is left of `script`): the
    /// audio thread kept up, so the audio clock, which time follows, cannot run dry.
    private func audioKeptUp(_ rig: Rig, _ script: MediaScript, seconds wanted: Double = 0.1) async -> Bool {
        guard let ring = rig.engine.pipeline?.ring else { return true }
        return await eventually {
            let left = script.duration - rig.engine.currentTime().seconds
            let buffered = Double(ring.bufferedFrames) / Double(ring.format.sampleRate)
            return buffered >= min(wanted, left - 0.025)
        }
    }

    /// Plays on from the clock's time now: sets the rate and waits until the audio output
    /// started there (it starts on the engine's output queue; moving the clock before would
    /// start the audio, and with it time, later).
    private func startPlaying(_ rig: Rig) async -> Bool {
        rig.engine.setRate(1)
        guard let output = rig.engine.pipeline?.audioOutput as? ClockDrivenAudioOutput else { return true }
        return await eventually { output.isRunning }
    }

    /// True once the engine decided the end was reached (its news reaches the main queue a
    /// hop later).
    private func endReached(_ rig: Rig) -> Bool { rig.engine.coordinator.read { $0.endReported } }

    /// The rig's audio output, once the media is open.
    private func output(_ rig: Rig) -> ClockDrivenAudioOutput? {
        rig.engine.pipeline?.audioOutput as? ClockDrivenAudioOutput
    }

    /// Moves the clock in 5 ms steps to `end`. After each step the audio output renders what
    /// is due and the audio thread refills the ring; every frame due 15 ms or more before the
    /// clock must be shown before the clock moves on (the presentation thread may read an
    /// audio clock one render period old and so wake up to 10 ms after a frame's time, never
    /// later). So nothing depends on how fast the machine runs the engine's threads.
    /// With `checksAudio` false the ring may run dry (right after play resumes a seek made
    /// while paused: the ring still held the old position's audio, and the audio thread
    /// sleeps up to a refill interval of clock time before it writes the new one).
    private func play(
        _ rig: Rig, _ script: MediaScript, to end: Double, checksAudio: Bool = true, until done: () -> Bool = { false }
    ) async -> Bool {
        while rig.clock.now < end - 1e-9, !done() {
            let time = min(end, rig.clock.now + 0.005)
            rig.clock.advance(to: time)
            output(rig)?.waitUntilCaughtUp()
            let settled = rig.engine.currentTime().seconds - 0.015
            if script.frameRate > 0, settled >= 0 {
                let due = min((settled * script.frameRate + 1e-6).rounded(.down), script.duration * script.frameRate - 1)
                    / script.frameRate
                guard await eventually({ (rig.sink.last?.pts.seconds ?? -1) >= due - 1e-6 }) else { return false }
            }
            if checksAudio, !(await audioKeptUp(rig, script)) { return false }
        }
        return true
    }

    @Test func everyFrameIsShownAtItsTimeAndTheEndComesOnce() async {
        let script = MediaScript(duration: 2)
        let rig = rig(script)
        #expect(await eventually { rig.sink.count == 1 }, "the first frame shows while paused")
        #expect(await audioKeptUp(rig, script, seconds: 0.2), "the ring fills while paused")
        #expect(await startPlaying(rig))
        #expect(await play(rig, script, to: 2.0))
        #expect(await play(rig, script, to: 2.2) { endReached(rig) })
        #expect(await eventually { endReached(rig) }, "the end comes once the audio stops")
        #expect(await eventually { rig.news.ends == 1 }, "and is reported")
        #expect(await play(rig, script, to: 2.4))
        let frames = rig.sink.frames.map { Int(($0.itemTime.seconds * 25).rounded()) }
        #expect(frames == Array(0..<50), "each frame once, in order, at its own time")
        #expect(rig.news.ends == 1, "the end once")
        #expect(rig.engine.statistics.videoFramesDropped == 0)
        #expect(rig.engine.currentTime() == seconds(2))
        rig.engine.stop()
    }

    @Test func aSinkThatTakesTimeToShowAPictureGetsEachFrameThatMuchEarly() async {
        let script = MediaScript(duration: 1)
        let rig = rig(script)
        // A window that takes 30 ms from hand-over to screen.
        rig.sink.displayDelay = 0.03
        #expect(await eventually { rig.sink.count == 1 })
        #expect(await audioKeptUp(rig, script, seconds: 0.2))
        #expect(await startPlaying(rig))
        #expect(await play(rig, script, to: 0.395))
        // At 0.395 s the frame of 0.40 s is due on screen 5 ms from now: it has been handed
        // over; the one of 0.44 s has not.
        #expect(await eventually { (rig.sink.last?.pts.seconds ?? 0) >= 0.4 - 1e-6 })
        try? await Task.sleep(for: .milliseconds(50))
        #expect(abs((rig.sink.last?.pts.seconds ?? 0) - 0.4) < 1e-6, "last handed over: \(rig.sink.last?.pts.seconds ?? -1)")
        rig.engine.stop()
    }

    @Test func aDisplayDelayThatAppearsWhilePlayingIsTakenOnWithinAFewFrames() async {
        let script = MediaScript(duration: 1.6)
        let rig = rig(script)
        #expect(await eventually { rig.sink.count == 1 })
        #expect(await audioKeptUp(rig, script, seconds: 0.2))
        #expect(await startPlaying(rig))
        #expect(await play(rig, script, to: 0.4))
        // A window's first measurement. (Kept under half a frame: this rig lets the
        // presentation thread lag up to 20 ms, which with a larger lead may drop a frame
        // whatever the lead does; DisplayLeadTests check the steps themselves.)
        rig.sink.displayDelay = 0.015
        #expect(await play(rig, script, to: 1.31))
        let frames = rig.sink.frames.map { Int(($0.itemTime.seconds * 25).rounded()) }
        #expect(Array(frames.prefix(33)) == Array(0..<33), "each frame once, in order")
        #expect(rig.engine.statistics.videoFramesDropped == 0)
        // Eight frames later the whole delay applies: at 1.31 s the frame of 1.32 s (due on
        // screen 10 ms from now) has been handed over.
        #expect(await eventually { (rig.sink.last?.pts.seconds ?? 0) >= 1.32 - 1e-6 })
        rig.engine.stop()
    }

    @Test func anExactSeekLandsOnItsTargetFromTheKeyframeBeforeAndTimeRunsOnFromThere() async throws {
        let script = MediaScript(duration: 4)
        let rig = rig(script)
        #expect(await eventually { rig.sink.count == 1 })
        #expect(await audioKeptUp(rig, script, seconds: 0.2))
        #expect(await startPlaying(rig))
        #expect(await play(rig, script, to: 0.4))
        rig.engine.setRate(0)
        let decodedBefore = rig.video.picturesDecoded
        rig.engine.seek(
            SeekRequest(id: 3, target: seconds(2.3), toleranceBefore: .zero, toleranceAfter: .zero, completion: nil))
        #expect(await eventually { rig.news.seeksFinished.count == 1 })
        #expect(rig.news.seeksFinished.first?.id == 3)
        #expect(rig.news.seeksFinished.first?.time == seconds(2.3))
        #expect(rig.source.seeks == [seconds(2.3)])
        #expect(rig.sink.last?.pts == CMTime(value: 205_200, timescale: 90_000))
        #expect(rig.sink.last?.itemTime == seconds(2.3), "shown as the target's picture")
        // Decoded from the keyframe at 2 s: the frames at 2.00 … 2.28 at least.
        #expect(rig.video.picturesDecoded - decodedBefore >= 8)
        #expect(rig.engine.currentTime() == seconds(2.3), "paused: time stays at the landing")
        rig.clock.advance(by: 1)
        #expect(rig.engine.currentTime() == seconds(2.3))
        #expect(await audioKeptUp(rig, script, seconds: 0.2))
        try #require(rig.sink.count > 0)
        let landingIndex = rig.sink.count - 1
        // Play resumes where the seek landed. The ring still held the old position's audio
        // while paused, so the new audio starts a little after play does (an underrun of at
        // most a refill interval): time is measured once it runs.
        #expect(await startPlaying(rig))
        #expect(await play(rig, script, to: rig.clock.now + 0.03, checksAudio: false))
        #expect(await play(rig, script, to: rig.clock.now + 0.07))
        let (hostBefore, timeBefore) = (rig.clock.now, rig.engine.currentTime().seconds)
        #expect(timeBefore > 2.3 && timeBefore <= 2.4 + 0.011, "time runs on from the landing")
        #expect(await play(rig, script, to: hostBefore + 0.2))
        #expect(abs(rig.engine.currentTime().seconds - timeBefore - 0.2) < 0.011, "at the rate")
        let after = rig.sink.frames[landingIndex...].map { Int(($0.pts.seconds * 25).rounded()) }
        #expect(!after.isEmpty && after == Array(57..<(57 + after.count)), "the landing frame (2.28 s), then each frame after it")
        rig.engine.stop()
    }

    /// Seeks exactly to `target` while paused and returns how many pictures the decoder
    /// decoded for it, once the seek finished (nil: it did not).
    private func pausedExactSeek(_ rig: Rig, id: Int, to target: Double) async -> Int? {
        let before = (rig.video.picturesDecoded, rig.news.seeksFinished.count)
        rig.engine.seek(
            SeekRequest(id: id, target: seconds(target), toleranceBefore: .zero, toleranceAfter: .zero, completion: nil))
        guard await eventually({ rig.news.seeksFinished.count == before.1 + 1 }) else { return nil }
        guard rig.news.seeksFinished.last?.id == id, rig.news.seeksFinished.last?.time == seconds(target) else {
            return nil
        }
        return rig.video.picturesDecoded - before.0
    }

    @Test func anExactSeekForwardInTheGroupOfPicturesBeingDecodedGoesOnFromWhereTheDecoderStands() async throws {
        // One keyframe, at 0: every exact seek would decode from there.
        let script = MediaScript(duration: 4, keyframeInterval: 100)
        let rig = rig(script)
        #expect(await eventually { rig.sink.count == 1 })
        func shownFrame() -> Int? { rig.sink.last.map { Int(($0.pts.seconds * 25).rounded()) } }

        let first = await pausedExactSeek(rig, id: 1, to: 1.3)
        #expect(shownFrame() == 32, "the picture at 1.28 s covers 1.3 s")
        // The opening decoded the keyframe: the seek goes on from it (pictures 1 to 32).
        #expect((first ?? 99) <= 33, "\(first ?? -1) pictures")
        let forward = await pausedExactSeek(rig, id: 2, to: 2.5)
        #expect(shownFrame() == 62)
        #expect(rig.sink.last?.itemTime == seconds(2.5), "shown as the target's picture")
        #expect((forward ?? 99) <= 32, "went on from 1.3 s: \(forward ?? -1) pictures, a restart decodes 63")
        let backward = await pausedExactSeek(rig, id: 3, to: 0.5)
        #expect(shownFrame() == 12)
        #expect((backward ?? 0) >= 13, "backward: decoded from the keyframe again")
        let nextPicture = await pausedExactSeek(rig, id: 4, to: 0.52)
        #expect(shownFrame() == 13)
        #expect((nextPicture ?? 99) <= 2, "the next picture: \(nextPicture ?? -1) decoded")
        #expect(rig.source.seeks.count == 4, "the demuxer still reads from the keyframe each time")

        // Playing on from a continued seek shows every picture after it, in order.
        #expect(await audioKeptUp(rig, script, seconds: 0.2))
        try #require(rig.sink.count > 0)
        let landingIndex = rig.sink.count - 1
        #expect(await startPlaying(rig))
        #expect(await play(rig, script, to: rig.clock.now + 0.03, checksAudio: false))
        #expect(await play(rig, script, to: rig.clock.now + 0.3))
        let after = rig.sink.frames[landingIndex...].map { Int(($0.pts.seconds * 25).rounded()) }
        #expect(after.count >= 6 && after == Array(13..<(13 + after.count)), "\(after)")
        rig.engine.stop()
    }

    @Test func anAudioOnlyItemEndsWhenItsAudioHasPlayedOut() async {
        let script = MediaScript(duration: 1, frameRate: 0)
        let rig = rig(script)
        #expect(await audioKeptUp(rig, script, seconds: 0.2))
        #expect(await startPlaying(rig))
        #expect(await play(rig, script, to: 0.95))
        #expect(!endReached(rig), "not before its audio has played")
        #expect(await play(rig, script, to: 1.2) { endReached(rig) })
        // The clock is past the audio's end: the engine decides on its own threads, without
        // the clock moving again (the steps above do not wait for that decision).
        #expect(await eventually { endReached(rig) }, "the end comes once the audio stops")
        #expect(await eventually { rig.news.ends == 1 }, "and is reported")
        #expect(rig.engine.currentTime() == seconds(1))
        #expect(abs(rig.engine.statistics.audioSeconds - 1) < 0.001, "every block written once")
        rig.engine.stop()
    }
}
