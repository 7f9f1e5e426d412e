// Playhead: the buffer flags: how much must be read ahead before playback is likely to keep
// up, at the start (a live stream's first position is far from zero), after a seek and after a
// stall, with no FFmpeg and no threads.
@testable import FFmpegBridge
import Foundation
import Testing

@testable import OpenAVFoundation

@Suite struct BufferTrackerTests {
    func seconds(_ value: Double) -> CMTime { CMTime(seconds: value, preferredTimescale: 1000) }

    /// A tracker over an open-ended (live) item with one video stream (0) and no audio.
    func tracker() -> BufferTracker {
        let description = MediaDescription(
            formatName: "test", formatLongName: "test", duration: .indefinite, startTime: .zero, bitRate: nil,
            streams: [], tags: [], artwork: [], probeScore: 100, durationIsEstimated: false)
        return BufferTracker(
            pipeline: Pipeline(
                description: description, videoStream: 0, audioStream: nil, ring: nil, audioOutput: nil,
                forwardBuffer: 30))
    }

    /// Notes video read up to `end` seconds, a frame every 40 ms from `from`.
    func read(_ tracker: inout BufferTracker, from start: Double, to end: Double) throws {
        var pts = Int64((start * 25).rounded())
        while Double(pts + 1) / 25 <= end + 1e-9 {
            tracker.note(try #require(Packet(bytes: [0], streamIndex: 0, pts: pts, timeBase: (1, 25), duration: 1)))
            pts += 1
        }
    }

    func keepsUp(_ tracker: inout BufferTracker, at position: Double) -> Bool? {
        tracker.update(position: seconds(position), endOfStream: false, force: true, now: 0)?.flags.isLikelyToKeepUp
    }

    @Test func aLiveStartIsLikelyToKeepUpAfterTheStartThresholdNotTheStallOne() throws {
        var tracker = tracker()
        // Opened 8 s into the live window: nothing read yet is empty, not a stall.
        tracker.restart(at: seconds(8))
        #expect(tracker.update(position: seconds(8), endOfStream: false, force: true, now: 0)?.flags.isEmpty == true)
        try read(&tracker, from: 8, to: 9.04)
        #expect(keepsUp(&tracker, at: 8) == true, "one second ahead is enough to start")
    }

    @Test func anItemOpenedWithoutASeekAtALaterTimeStartsOnTheStartThreshold() throws {
        // The range starts at zero, the first position is later (the live edge).
        var tracker = tracker()
        #expect(tracker.update(position: seconds(8), endOfStream: false, force: true, now: 0)?.flags.isEmpty == true)
        tracker.dropBefore(seconds(8))
        try read(&tracker, from: 8, to: 9.04)
        #expect(keepsUp(&tracker, at: 8) == true)
    }

    @Test func aStallWhilePlayingNeedsTheLongerRebufferButASeekStartsAfresh() throws {
        var tracker = tracker()
        try read(&tracker, from: 0, to: 1.04)
        #expect(keepsUp(&tracker, at: 0) == true)
        // Played to the buffer's end: a stall.
        #expect(tracker.update(position: seconds(1.04), endOfStream: false, force: true, now: 0)?.flags.isEmpty == true)
        try read(&tracker, from: 1.04, to: 2.6)
        #expect(keepsUp(&tracker, at: 1.04) == false, "1.56 s ahead after a stall is not enough")
        try read(&tracker, from: 2.6, to: 3.2)
        #expect(keepsUp(&tracker, at: 1.04) == true, "2 s ahead is")
        // Stalled again, then a seek: the new position fills from nothing, at the start threshold.
        #expect(tracker.update(position: seconds(3.2), endOfStream: false, force: true, now: 0)?.flags.isEmpty == true)
        tracker.restart(at: seconds(6))
        #expect(tracker.update(position: seconds(6), endOfStream: false, force: true, now: 0)?.flags.isEmpty == true)
        try read(&tracker, from: 6, to: 7.04)
        #expect(keepsUp(&tracker, at: 6) == true)
    }
}
