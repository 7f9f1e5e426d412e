// Playhead: fast forward on a local file: above 4x (`EngineState.everyFrameRateLimit`) the picture steps
// through the keyframes the container indexes, each the decoder's own picture (checksums of a
// linear decode), shown when time reaches it, time running at the rate on the system clock;
// pausing shows the frame where time stood and play at 1x goes on from it; the end comes with
// time after the last keyframe; 4x and slower still play every frame.
import Foundation
import PlayheadTestSupport
import Testing

@testable import OpenAVFoundation

@MainActor
@Suite struct AVPlayerFastForwardTests {
    /// Twelve seconds at 25 fps (with B-frames) and a tone, a keyframe every second (0 … 11 s),
    /// in an MP4 (its index holds decode times) or a Matroska file (presentation times); with
    /// `longGOP`, a keyframe every 3 s in a file whose index is not all known at the open (a
    /// Matroska file's cues at the end, read on the first seek; a fragmented MP4's entries,
    /// known as its fragments are read).
    private func media(_ container: String = "mp4", longGOP: Bool = false) throws -> URL {
        try twelveSecondClip(
            named: longGOP ? "fast-forward-long-gop" : "fast-forward", container: container, gop: longGOP ? 75 : 25,
            extra: longGOP && container == "mp4" ? ["-movflags", "frag_keyframe+empty_moov+default_base_moof"] : [])
    }

    /// A player of `url` with sound on a manual clock, paused at `seconds` (an exact seek) with
    /// its buffer likely to keep up, its sink emptied.
    private func pausedAt(_ url: URL, seconds: Double) async -> (AVPlayerItem, AVPlayer, RecordingVideoSink, ManualClock) {
        await pausedAt(url, time: CMTime(seconds: seconds, preferredTimescale: 10))
    }

    private func pausedAt(_ url: URL, time: CMTime) async -> (AVPlayerItem, AVPlayer, RecordingVideoSink, ManualClock) {
        let clock = ManualClock()
        let sink = RecordingVideoSink()
        let item = AVPlayerItem(url: url)
        let player = AVPlayer(environment: timedEnvironment(sink, clock: clock, audio: true), playerItem: item)
        await waitUntil("ready") { item.status == .readyToPlay }
        #expect(await player.seek(to: time, toleranceBefore: .zero, toleranceAfter: .zero))
        // Play starts at once (no wait for the buffer after the seek).
        await waitUntil("likely to keep up") { item.isPlaybackLikelyToKeepUp }
        sink.reset()
        return (item, player, sink, clock)
    }

    @Test(arguments: ["mp4", "mkv"])
    func fastForwardStepsThroughTheIndexedKeyframesAndPlayResumesWhereTimeStood(container: String) async throws {
        let url = try media(container)
        let reference = await linearChecksums(of: url)
        let (item, player, sink, clock) = await pausedAt(url, seconds: 2.5)
        let statuses = ValueLog(player, \.timeControlStatus)
        // Eight times as fast: each keyframe shown when time reaches it (an eighth of a second
        // of the clock apart), time on the system clock (the sound, silent, does not hold it).
        let offset = try await fastForwardToTheKeyframeAt3(item, player, clock, sink, offsetBelow: 40)
        await stepThroughKeyframes(4...10, offset: offset, player, clock, sink, reference: reference)
        #expect(abs(item.currentTime().seconds - 10.3) < 0.05, "time runs at the rate: \(item.currentTime().seconds)")
        #expect(player.rate == 8 && player.timeControlStatus == .playing)
        #expect(statuses.values == [.paused, .playing], "no waiting between steps: \(statuses.values)")
        let shown = sink.frames.map { millis($0.pts) }
        #expect(shown == stride(from: 3_000, through: 10_000, by: 1000).map { $0 + offset }, "every keyframe, each once: \(shown)")

        // Paused, the picture is the frame where time stands (not the keyframe ahead).
        let still = try await pauseShowsThePictureWhereTimeStands(item, player, sink, reference: reference)

        // Play at rate 1 goes on from there, a frame at a time, with sound (time follows it).
        await onePlaysOnFrameByFrame(from: still, player, clock, sink, reference: reference)
        player.pause()
    }

    @Test(arguments: ["mp4", "mkv"])
    func fastForwardFromAKeyframesPictureGoesOnToTheNext(container: String) async throws {
        // Paused on the keyframe at 3 s (Matroska's video starts 21 ms in): the first step is
        // asked for from exactly its time (a Matroska index holds milliseconds: a step that
        // rounded back to it would repeat it and take it for the last).
        let url = try media(container)
        let start = try #require(await linearChecksums(of: url).keys.min())
        let (_, player, sink, clock) = await pausedAt(url, time: CMTime(value: Int64(3_000 + start), timescale: 1000))
        #expect(sink.count == 0)
        player.rate = 8
        for keyframe in 4...5 {
            await forwardStepAsked(player, after: sink)
            await advance(clock, by: 0.125)
            await waitUntil("the keyframe at \(keyframe) s shows") { sink.last.map { millis($0.pts) / 1000 } == keyframe }
        }
        let shown = sink.frames.map { millis($0.pts) / 1000 }
        #expect(shown == [4, 5], "\(sink.frames.map { millis($0.pts) })")
        player.pause()
    }

    @Test(arguments: ["mkv", "mp4"])
    func fastForwardFromTheOpenFindsKeyframesTheIndexDoesNotListYet(container: String) async throws {
        // No seek first: the keyframe at 3 s is past what the open read.
        let clock = ManualClock()
        let sink = RecordingVideoSink()
        let item = AVPlayerItem(url: try media(container, longGOP: true))
        let player = AVPlayer(environment: timedEnvironment(sink, clock: clock, audio: true), playerItem: item)
        await waitUntil("ready and likely to keep up") { item.status == .readyToPlay && item.isPlaybackLikelyToKeepUp }
        await waitUntil("the first picture") { sink.count == 1 }
        player.rate = 8
        for keyframe in [3, 6, 9] {
            await forwardStepAsked(player, after: sink)
            await advance(clock, by: 0.375, thenUpTo: 0.1) { sink.last.map { millis($0.pts) / 1000 } == keyframe }
            await waitUntil("the keyframe at \(keyframe) s shows") { sink.last.map { millis($0.pts) / 1000 } == keyframe }
        }
        #expect(sink.frames.map { millis($0.pts) / 1000 } == [0, 3, 6, 9], "\(sink.frames.map { millis($0.pts) })")
        player.pause()
    }

    @Test func fastForwardReachesTheEndAfterTheLastKeyframe() async throws {
        let (item, player, sink, clock) = await pausedAt(try media(), seconds: 10.5)
        let log = NotificationLog([AVPlayerItem.didPlayToEndTimeNotification], object: item)
        player.rate = 8
        await forwardStepAsked(player, after: sink)
        await advance(clock, by: 0.0625)
        await waitUntil("the keyframe at 11 s shows") { sink.count == 1 }
        #expect(sink.last.map { millis($0.pts) / 1000 } == 11)
        // The last keyframe is up: time runs on to the end with no further picture.
        await advance(clock, by: 0.1)
        #expect(player.rate == 8)
        await expectTheEnd(at: 12, after: 0.05, showing: 1, item, player, clock, sink, log)
    }

    @Test func fourTimesAsFastStillPlaysEveryFrame() async throws {
        let (_, player, sink, clock) = await pausedAt(try media(), seconds: 2.5)
        player.rate = 4
        // A frame falls due every hundredth of a second of the clock.
        for frame in 1...6 {
            await advanceFed(clock, by: 0.01, playing: player, thenUpTo: 1) { sink.count >= frame }
            await waitUntil("frame \(frame)") { sink.count >= frame }
        }
        let shown = sink.frames.map { millis($0.pts) }
        #expect(shown.contains { $0 % 1000 > 100 }, "pictures between keyframes: \(shown)")
        #expect(shown == shown.sorted() && Set(shown).count == shown.count, "\(shown)")
        player.pause()
    }
}
