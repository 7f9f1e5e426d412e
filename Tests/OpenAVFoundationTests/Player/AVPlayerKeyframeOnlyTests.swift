// Playhead: fast playback of items that cannot step through their keyframes (an MPEG-TS file
// here: no keyframe index) and of audio-only items: above 4x time runs at the rate with the
// sound at the rate's tempo (it once stayed at 4x, whatever the rate), and the picture shows
// each keyframe (the decoder's own, by checksum) when time reaches it, the frames between them
// never decoded; pausing shows the frame where time stands and 1x goes on from it.
import Foundation
import PlayheadTestSupport
import Testing

@testable import OpenAVFoundation

@MainActor
@Suite struct AVPlayerKeyframeOnlyTests {
    /// Twelve seconds at 25 fps (with B-frames) and a tone, a keyframe every second, in
    /// MPEG-TS.
    private func media() throws -> URL {
        try twelveSecondClip(named: "keyframes-only", container: "ts")
    }

    /// A player of `url` on a manual clock with a clock-driven audio output, paused at
    /// `seconds` (an exact seek), its sink emptied.
    private func pausedAt(_ url: URL, seconds: Double) async -> (
        AVPlayerItem, AVPlayer, RecordingVideoSink, ManualClock, ClockDrivenAudioOutput
    ) {
        let clock = ManualClock()
        let sink = RecordingVideoSink()
        let sinks = VideoSinks()
        sinks.add(sink)
        let output = ClockDrivenAudioOutput(clock: clock)
        // (Found by the fed steps of the shared helpers, as timedEnvironment's outputs are.)
        ClockDrivenOutputs.shared.add(output, on: clock)
        let environment = PlaybackEnvironment(hostClock: clock, makeAudioOutput: { output }, videoSinks: sinks)
        let item = AVPlayerItem(url: url)
        let player = AVPlayer(environment: environment, playerItem: item)
        await waitUntil("ready") { item.status == .readyToPlay }
        #expect(await player.seek(to: CMTime(seconds: seconds, preferredTimescale: 10), toleranceBefore: .zero, toleranceAfter: .zero))
        await waitUntil("likely to keep up") { item.isPlaybackLikelyToKeepUp }
        sink.reset()
        return (item, player, sink, clock, output)
    }

    @Test func eightTimesAsFastAnMPEGTSFileShowsItsKeyframesWithSoundAndPauseShowsWhereTimeStands() async throws {
        let url = try media()
        let reference = await linearChecksums(of: url)
        let start = try #require(reference.keys.min())
        let (item, player, sink, clock, output) = await pausedAt(url, seconds: 2.5)
        #expect(item.canPlayFastForward)
        player.rate = 8
        await waitUntil("playing") { player.timeControlStatus == .playing }
        // (Time starts once the first sound is heard; the pictures decoded ahead while
        // paused, up to the keyframe at 3 s and after it, show first as time reaches them.)
        await advanceFed(clock, by: 0.1, playing: player, output: output)
        let from = item.currentTime().seconds
        var elapsed = 0.0
        for keyframe in 4...9 {
            let due = keyframe * 1000 + start
            // The sound's clock follows the manual clock step by step (a step is 0.16 s of
            // media): each keyframe shows once time reaches it (the presentation thread reads
            // the sound's clock as a step begins, so it may take the next step), never before.
            while sink.last.map({ millis($0.pts) }) != due, millis(item.currentTime()) < due + 800 {
                #expect(sink.frames.allSatisfy { millis($0.pts) < due }, "keyframe \(keyframe) early")
                // (The clock waits for a picture to be decoded ahead, however slowly threads run.)
                await waitUntil("a picture decoded ahead of \(keyframe) s") {
                    sink.last.map { millis($0.pts) } == due || engine(of: player)?.pipeline?.videoFrames.peek() != nil
                }
                await advanceFed(clock, by: 0.02, playing: player, output: output)
                elapsed += 0.02
                for _ in 0..<50 where millis(item.currentTime()) >= due && sink.last.map({ millis($0.pts) }) != due {
                    await mainQueueSleep(nanoseconds: 2_000_000)
                }
            }
        }
        let reached = item.currentTime().seconds
        #expect(abs(reached - from - 8 * elapsed) < 0.5, "time runs at the rate (4x would be far behind): \(from) → \(reached) in \(elapsed) s")
        let shown = sink.frames.map { millis($0.pts) }
        #expect(shown.filter { $0 >= 4000 } == (4...9).map { $0 * 1000 + start }, "the keyframes, each once, nothing between: \(shown)")
        #expect(shown == shown.sorted() && Set(shown).count == shown.count, "\(shown)")
        for entry in sink.frames {
            #expect(reference[millis(entry.pts)] == entry.frame.checksum(), "picture at \(millis(entry.pts))")
        }
        #expect(player.timeControlStatus == .playing && player.rate == 8)

        // Paused, the picture is the frame where time stands (not the last keyframe), and 1x
        // goes on from it a frame at a time, each the decoder's own (no picture built on ones
        // never decoded).
        let still = try await pauseShowsThePictureWhereTimeStands(item, player, sink, reference: reference)
        await onePlaysOnFrameByFrame(from: still, player, clock, sink, reference: reference)
        player.pause()
    }

    @Test func fromEightTimesToOneThePictureGoesOnFromWhereTimeStands() async throws {
        let url = try media()
        let reference = await linearChecksums(of: url)
        let (item, player, sink, clock, output) = await pausedAt(url, seconds: 2.5)
        player.rate = 8
        await waitUntil("playing") { player.timeControlStatus == .playing }
        while item.currentTime().seconds < 4.7 {
            await advanceFed(clock, by: 0.02, playing: player, output: output)
        }
        // (The keyframe at 4 s is up before the rate changes.)
        await waitUntil("the keyframe at 4 s") { sink.last.map { millis($0.pts) / 1000 } == 4 }
        sink.reset()
        let stood = item.currentTime()
        player.rate = 1
        await waitUntil("the picture where time stood") { sink.count >= 1 }
        for frame in 2...4 {
            await advanceFed(clock, by: 0.04, playing: player, thenUpTo: 1) { sink.count >= frame }
            await waitUntil("frame \(frame)") { sink.count >= frame }
        }
        let first = try #require(sink.frames.first)
        #expect(millis(first.pts) <= millis(stood) && millis(stood) - millis(first.pts) < 40, "\(millis(first.pts)) for \(stood.seconds)")
        let resumed = sink.frames.map { millis($0.pts) }
        #expect(resumed == resumed.sorted() && Set(resumed).count == resumed.count, "\(resumed)")
        for entry in sink.frames {
            #expect(reference[millis(entry.pts)] == entry.frame.checksum(), "picture at \(millis(entry.pts))")
        }
        player.pause()
    }

    @Test func eightTimesAsFastWithSoundTheEndComes() async throws {
        let (item, player, sink, clock, output) = await pausedAt(try media(), seconds: 10)
        let log = NotificationLog([AVPlayerItem.didPlayToEndTimeNotification], object: item)
        player.rate = 8
        await waitUntil("playing") { player.timeControlStatus == .playing }
        for _ in 0..<40 where log.count(AVPlayerItem.didPlayToEndTimeNotification) == 0 {
            await advanceFed(clock, by: 0.02, playing: player, output: output)
        }
        await waitUntil("the end") { log.count(AVPlayerItem.didPlayToEndTimeNotification) == 1 }
        #expect(player.rate == 0 && abs(item.currentTime().seconds - 12) < 0.1, "\(item.currentTime().seconds)")
        #expect(sink.frames.map { millis($0.pts) / 1000 }.contains(11), "the last keyframe showed")
    }

    @Test func anAudioOnlyItemPlaysEightTimesAsFast() async throws {
        let url = try GeneratedMedia.url(
            named: "tone-12s", fileExtension: "m4a",
            ffmpeg: ["-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=12", "-c:a", "aac"])
        let clock = ManualClock()
        let output = ClockDrivenAudioOutput(clock: clock)
        let item = AVPlayerItem(url: url)
        let player = AVPlayer(
            environment: PlaybackEnvironment(hostClock: clock, makeAudioOutput: { output }), playerItem: item)
        await waitUntil("ready") { item.status == .readyToPlay }
        player.rate = 8
        await waitUntil("playing") { player.timeControlStatus == .playing }
        // (Time starts once the first sound is heard.)
        await advanceFed(clock, by: 0.1, playing: player, output: output)
        let from = item.currentTime().seconds
        await advanceFed(clock, by: 0.5, playing: player, output: output)
        let reached = item.currentTime().seconds
        #expect(abs(reached - from - 4) < 0.5, "half a second at 8x is 4 s (2 s at 4x): \(from) → \(reached)")
        player.pause()
    }
}
