// Playhead: AVPlayerItem.step(byCount:) lands on exact frames, forward and back.
import Foundation
import PlayheadTestSupport
import Testing

@testable import OpenAVFoundation

@MainActor
@Suite struct AVPlayerItemStepTests {
    @Test func stepsLandOnTheFramesALinearDecodeShows() async throws {
        let reference = await linearChecksums(of: try Fixture.url(.mp4))
        let sink = RecordingVideoSink()
        let item = AVPlayerItem(url: try Fixture.url(.mp4))
        let player = AVPlayer(environment: untimedEnvironment(sink), playerItem: item)
        await waitUntil("first frame") { item.status == .readyToPlay && sink.count == 1 }
        #expect(item.canStepForward && item.canStepBackward)
        #expect(await player.seek(to: CMTime(value: 26, timescale: 50), toleranceBefore: .zero, toleranceAfter: .zero))

        // (steps, the frame shown after them, in ms): 25 fps, 50 frames from 0 to 1960.
        let cases: [(Int, Int)] = [(1, 560), (1, 600), (-3, 480), (10, 880), (-100, 0), (1, 40), (100, 1960), (-1, 1920)]
        for (steps, expected) in cases {
            item.step(byCount: steps)
            await waitUntil("step \(steps) to \(expected)") { sink.last.map { millis($0.pts) } == expected }
            let shown = try #require(sink.last)
            #expect(shown.frame.checksum() == reference[expected], "step \(steps)")
            #expect(millis(item.currentTime()) == expected, "step \(steps)")
        }
        #expect(player.rate == 0)
    }

    @Test func stepsInQuickSuccessionAddUpAndPlayingPausesFirst() async throws {
        let reference = await linearChecksums(of: try Fixture.url(.mp4))
        let sink = RecordingVideoSink()
        let clock = ManualClock()
        let item = AVPlayerItem(url: try Fixture.url(.mp4))
        let player = AVPlayer(environment: timedEnvironment(sink, clock: clock), playerItem: item)
        await waitUntil("first frame") { item.status == .readyToPlay && sink.count == 1 }
        player.play()
        await advance(clock, by: 0.5, thenUpTo: 1) { item.currentTime().seconds >= 0.5 }
        item.step(byCount: 1)
        let paused = item.currentTime()
        #expect(player.rate == 0, "stepping pauses")
        item.step(byCount: 2)
        let landing = millis(paused) + 80
        await waitUntil("two more frames") { sink.last.map { millis($0.pts) } == landing }
        #expect(sink.last?.frame.checksum() == reference[landing])
    }

    @Test func theFrameGridIsExact() {
        let frame = CMTime(value: 1001, timescale: 30_000)  // 29.97 fps
        let duration = CMTime(value: 10, timescale: 1)
        // From inside frame 10 one step forward is frame 11's start.
        let inside = CMTime(value: 10 * 1001 + 500, timescale: 30_000)
        #expect(AVPlayerItem.frameStart(from: inside, steps: 1, frameDuration: frame, duration: duration)
            == CMTime(value: 11 * 1001, timescale: 30_000))
        #expect(AVPlayerItem.frameStart(from: inside, steps: -20, frameDuration: frame, duration: duration) == .zero)
        // The last frame starts before the end: 10 s holds frames 0...299.
        #expect(AVPlayerItem.frameStart(from: inside, steps: 1_000, frameDuration: frame, duration: duration)
            == CMTime(value: 299 * 1001, timescale: 30_000))
    }
}
