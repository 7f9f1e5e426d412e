// Playhead: where reading resumes after a replay of kept packets that must hand back to the
// demuxer (a run reopened, or the current run after a read cut short): half a second before
// the last kept packet of the streams read alongside each other, never after the run's end and
// never pulled back by a sparse stream's old packet; what the run holds is dropped by decode
// time when it is read again.
import FFmpegBridge
import Foundation
import Testing

@testable import OpenAVFoundation

@Suite struct PacketCacheResumeTests {
    private static let video = 0, audio = 1, subtitles = 2

    /// A packet of `stream` at `seconds`, lasting `length`.
    private func packet(_ stream: Int, _ seconds: Double, key: Bool = false, length: Double = 0.04) -> Packet {
        Packet(
            bytes: [0, 1, 2, 3], streamIndex: stream, pts: Int64((seconds * 90_000).rounded()), isKeyframe: key,
            duration: Int64((length * 90_000).rounded()))!
    }

    /// A cache holding 0–3 s of video (a keyframe a second, the last picture at 2.96 s), audio
    /// up to 2.8 s (what the container still held of it was lost), and one subtitle at 0.2 s.
    private func filledCache() -> PacketCache {
        var cache = PacketCache(byteLimit: 1 << 20, videoStream: Self.video)
        cache.startRun(at: .zero, closingAt: .zero)
        _ = cache.append(packet(Self.subtitles, 0.2, length: 1))
        for frame in 0..<75 {
            let time = Double(frame) * 0.04
            _ = cache.append(packet(Self.video, time, key: frame % 25 == 0))
            if frame % 2 == 0, frame <= 70 { _ = cache.append(packet(Self.audio, time, length: 0.08)) }
        }
        return cache
    }

    private func resumeStep(_ cache: inout PacketCache) -> (point: Double, last: [Int: Double])? {
        while let step = cache.nextReplayed() {
            if case .resume(let point, let last) = step { return (point.seconds, last.mapValues(\.seconds)) }
        }
        return nil
    }

    @Test func aReplayAfterACutReadResumesHalfASecondBeforeTheLastPacketsNotAtTheEnd() throws {
        var cache = filledCache()
        let started = cache.beginReplay(
            of: nil, target: CMTime(seconds: 1, preferredTimescale: 1000), earliest: .negativeInfinity,
            latest: CMTime(seconds: 1, preferredTimescale: 1000), currentEnd: CMTime(seconds: 3, preferredTimescale: 1000),
            resumesReading: true)
        #expect(started)
        let resume = try #require(resumeStep(&cache))
        // 0.5 s before the earlier of the last audio (2.8 s) and video (2.96 s) packets; the
        // subtitle at 0.2 s is too old to count.
        #expect(abs(resume.point - 2.3) < 0.001, "\(resume.point)")
        #expect(abs((resume.last[Self.video] ?? 0) - 2.96) < 0.001 && abs((resume.last[Self.audio] ?? 0) - 2.8) < 0.001)
        #expect(abs((resume.last[Self.subtitles] ?? 0) - 0.2) < 0.001, "the subtitle is not read twice")
    }

    @Test func aReplayOfTheCurrentRunWithoutACutReadGoesOnFromTheDemuxersPosition() {
        var cache = filledCache()
        let started = cache.beginReplay(
            of: nil, target: CMTime(seconds: 1, preferredTimescale: 1000), earliest: .negativeInfinity,
            latest: CMTime(seconds: 1, preferredTimescale: 1000), currentEnd: CMTime(seconds: 3, preferredTimescale: 1000))
        #expect(started)
        let resume = resumeStep(&cache)
        #expect(resume == nil)
    }

    @Test func aReopenedRunResumesNoLaterThanItsEnd() throws {
        var cache = filledCache()
        // A seek to 10 s leaves the packets as a run closed at 2 s (where the buffer said it
        // ended then).
        cache.startRun(at: CMTime(seconds: 10, preferredTimescale: 1), closingAt: CMTime(seconds: 2, preferredTimescale: 1))
        _ = cache.append(packet(Self.video, 10, key: true))
        let run = try #require(cache.closedRun(containing: CMTime(seconds: 1, preferredTimescale: 1)))
        let started = cache.beginReplay(
            of: run, target: CMTime(seconds: 1, preferredTimescale: 1), earliest: .negativeInfinity,
            latest: CMTime(seconds: 1, preferredTimescale: 1), currentEnd: CMTime(seconds: 10.04, preferredTimescale: 1000))
        #expect(started)
        let resume = try #require(resumeStep(&cache))
        #expect(abs(resume.point - 2) < 0.001, "\(resume.point)")
    }

    @Test func aRunThatKeepsNothingKeepsNothingUntilAKeptRunIsReopened() throws {
        var cache = filledCache()
        // A step of backward play read from 10 s: its packets are not kept.
        cache.startRun(at: CMTime(seconds: 10, preferredTimescale: 1000), closingAt: CMTime(seconds: 3, preferredTimescale: 1000), keeping: false)
        _ = cache.append(packet(Self.video, 10, key: true))
        #expect(cache.closedRun(containing: CMTime(seconds: 10, preferredTimescale: 1000)) == nil)
        let fromStep = cache.beginReplay(
            of: nil, target: CMTime(seconds: 10, preferredTimescale: 1000), earliest: .negativeInfinity,
            latest: .positiveInfinity, currentEnd: CMTime(seconds: 10.04, preferredTimescale: 1000))
        #expect(!fromStep)
        // The run from 0 s reopened: what is read after its end is kept again.
        let run = try #require(cache.closedRun(containing: CMTime(seconds: 1, preferredTimescale: 1000)))
        let reopened = cache.beginReplay(
            of: run, target: CMTime(seconds: 1, preferredTimescale: 1000), earliest: .negativeInfinity,
            latest: .positiveInfinity, currentEnd: CMTime(seconds: 10.04, preferredTimescale: 1000))
        #expect(reopened)
        _ = resumeStep(&cache)
        _ = cache.append(packet(Self.video, 3, key: true))
        let fromReopened = cache.beginReplay(
            of: nil, target: CMTime(seconds: 3.01, preferredTimescale: 1000), earliest: .negativeInfinity,
            latest: CMTime(seconds: 3.01, preferredTimescale: 1000), currentEnd: CMTime(seconds: 3.04, preferredTimescale: 1000))
        #expect(fromReopened, "the keyframe read after the reopened run's end is kept")
        var first: Double?
        if case .packet(let packet)? = cache.nextReplayed() { first = packet.pts.seconds }
        #expect(first == 3)
    }
}

