// Playhead: exact seeks in an MPEG-TS file land on the frame asked for. libavformat seeks in
// MPEG-TS by searching timestamps and lands on any packet near the time; the first keyframe
// read after it could come after the time, and the seek once showed that keyframe (up to a
// GOP late) instead of the frame asked for.
import Foundation
import PlayheadTestSupport
import Testing

@testable import OpenAVFoundation

@MainActor
@Suite struct MPEGTSExactSeekTests {
    /// Twelve seconds at 25 fps with B-frames and a tone in MPEG-TS, a keyframe every `gop`
    /// frames.
    private func media(gop: Int) throws -> URL {
        try twelveSecondClip(named: "exact-seek-gop\(gop)", container: "ts", gop: gop)
    }

    @Test(arguments: [25, 125])
    func anExactSeekShowsTheFrameAtItsTarget(gop: Int) async throws {
        // A keyframe every second, or every five (the seek then goes back up to 8 s).
        let url = try media(gop: gop)
        let reference = await linearChecksums(of: url)
        let times = reference.keys.sorted()
        let clock = ManualClock()
        let sink = RecordingVideoSink()
        let item = AVPlayerItem(url: url)
        let player = AVPlayer(environment: timedEnvironment(sink, clock: clock, audio: true), playerItem: item)
        await waitUntil("ready") { item.status == .readyToPlay }
        for target in [2.5, 4.7, 9.9, 7.3, 0.5, 11.5] {
            sink.reset()
            #expect(await player.seek(to: CMTime(seconds: target, preferredTimescale: 10), toleranceBefore: .zero, toleranceAfter: .zero))
            await waitUntil("the picture at \(target) s") { sink.count >= 1 }
            let shown = try #require(sink.last)
            // The frame showing at the target: the last one starting at or before it.
            let expected = try #require(times.last { $0 <= Int((target * 1000).rounded()) })
            #expect(millis(shown.pts) == expected, "seek to \(target) showed \(millis(shown.pts))")
            #expect(reference[millis(shown.pts)] == shown.frame.checksum(), "picture at \(millis(shown.pts))")
            #expect(millis(item.currentTime()) == Int((target * 1000).rounded()))
        }
    }
}
