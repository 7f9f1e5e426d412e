// Playhead: tests for exact seeking (ExactSeekFilter and FrameSeeker), with timings.
import FFmpegBridge
import Foundation
import OpenCoreMedia
import Testing

// Concurrency: each test owns its demuxer, decoder and seeker on the test's own task.

@Suite struct ExactSeekTests {
    /// The frame shown at `target` in a linear decode: the last frame starting at or before it.
    static func linearFrame(at target: CMTime, in frames: [VideoFrame]) -> VideoFrame? {
        frames.last { $0.pts <= target } ?? frames.first
    }

    static func seeker(_ url: URL, threadCount: Int? = nil) throws -> FrameSeeker {
        let demuxer = try Demuxer(location: MediaFixtures.location(url))
        let decoder = try VideoDecoder(
            demuxer: demuxer, streamIndex: try #require(demuxer.bestStream(of: .video)),
            threadCount: threadCount)
        return FrameSeeker(demuxer: demuxer, decoder: decoder)
    }

    static let targets: [CMTime] = [
        .zero,  // first frame
        CMTime(value: 15, timescale: 30),  // mid-GOP, exactly on a frame
        CMTime(value: 1, timescale: 1),  // a keyframe
        CMTime(value: 1517, timescale: 1000),  // between two frames
        CMTime(value: 1999, timescale: 1000),  // the frame just before a keyframe
        CMTime(value: 2500, timescale: 1000),
        CMTime(value: 89, timescale: 30),  // the last frame
        CMTime(value: 2999, timescale: 1000),  // inside the last frame
        CMTime(value: 5, timescale: 1),  // past the end: the last frame
    ]

    @Test(arguments: [nil, 1] as [Int?])
    func anExactSeekLandsOnTheFrameALinearDecodeShowsAtTheTarget(threadCount: Int?) async throws {
        let frames = try Decode.allVideoFrames(MediaFixtures.h264MP4)
        let seeker = try Self.seeker(MediaFixtures.h264MP4, threadCount: threadCount)
        var timings: [String] = []
        // Out of order on purpose: backwards seeks and repeated seeks must work too.
        for target in Self.targets.reversed() + Self.targets {
            let expected = try #require(Self.linearFrame(at: target, in: frames))
            let clock = ContinuousClock()
            var landed: VideoFrame?
            let elapsed = clock.measure { landed = seeker.frame(at: target) }
            let frame = try #require(landed, "no frame for \(target.seconds)")
            #expect(frame.pts == expected.pts, "target \(target.seconds)")
            #expect(frame.checksum() == expected.checksum(), "target \(target.seconds)")
            timings.append(
                String(
                    format: "%.3fs→%.1fms(%d skipped)", target.seconds,
                    Double(elapsed.components.attoseconds) / 1e15 + Double(
                        elapsed.components.seconds) * 1000,
                    seeker.lastDiscardedCount))
        }
        print(
            "exact seek timings (threads \(threadCount.map(String.init) ?? "auto")): \(timings.joined(separator: ", "))"
        )
    }

    @Test func exactSeeksInVP9AndMatroskaMatchLinearDecoding() async throws {
        for url in [MediaFixtures.vp9WebM, MediaFixtures.h264MKV] {
            let frames = try Decode.allVideoFrames(url)
            let seeker = try Self.seeker(url)
            for target in [0.0, 0.3, 0.77, 1.25, 1.99] {
                let time = CMTime(value: Int64(target * 1000), timescale: 1000)
                let expected = try #require(Self.linearFrame(at: time, in: frames))
                let frame = try #require(seeker.frame(at: time))
                #expect(
                    frame.checksum() == expected.checksum(), "\(url.lastPathComponent) at \(target)"
                )
            }
        }
    }

    @Test func theFilterDiscardsFramesThatEndByTheTarget() async {
        let filter = ExactSeekFilter(target: CMTime(value: 100, timescale: 1000))
        let tick = CMTime(value: 40, timescale: 1000)
        #expect(filter.verdict(pts: CMTime(value: 20, timescale: 1000), duration: tick) == .discard)
        #expect(filter.verdict(pts: CMTime(value: 60, timescale: 1000), duration: tick) == .discard)
        #expect(filter.verdict(pts: CMTime(value: 61, timescale: 1000), duration: tick) == .show)
        #expect(filter.verdict(pts: CMTime(value: 100, timescale: 1000), duration: tick) == .show)
        // Unknown duration: only frames starting before the target are dropped.
        #expect(
            filter.verdict(pts: CMTime(value: 99, timescale: 1000), duration: .invalid) == .discard)
        #expect(
            filter.verdict(pts: CMTime(value: 100, timescale: 1000), duration: .invalid) == .show)
        // Unknown pts cannot be judged: show it.
        #expect(filter.verdict(pts: .invalid, duration: tick) == .show)
    }

    @Test func theFilterMaySkipDecodingOnlyPacketsWellBeforeTheTarget() async throws {
        let filter = ExactSeekFilter(target: CMTime(value: 1, timescale: 1))
        // Without a duration, a packet may be skipped only when it starts over 100 ms early.
        let early = try #require(Packet(bytes: [0], streamIndex: 0, pts: 26, timeBase: (1, 30)))
        let late = try #require(Packet(bytes: [0], streamIndex: 0, pts: 27, timeBase: (1, 30)))
        #expect(filter.maySkipDecoding(of: early))
        #expect(!filter.maySkipDecoding(of: late))
        // Within a second of the end nothing is skipped: the stream may end before the target,
        // and then the last frame decoded is shown. An unknown end (live) skips as usual.
        let nearEnd = ExactSeekFilter(
            target: CMTime(value: 1, timescale: 1), end: CMTime(value: 1999, timescale: 1000))
        #expect(!nearEnd.maySkipDecoding(of: early))
        let wellBeforeEnd = ExactSeekFilter(
            target: CMTime(value: 1, timescale: 1), end: CMTime(value: 2001, timescale: 1000))
        #expect(wellBeforeEnd.maySkipDecoding(of: early))
        let demuxer = try Demuxer(location: MediaFixtures.location(MediaFixtures.h264MP4))
        demuxer.setActiveStreams([try #require(demuxer.bestStream(of: .video))])
        var packets: [Packet] = []
        while case .packet(let packet) = demuxer.readPacket() { packets.append(packet) }
        let skippable = packets.filter(filter.maySkipDecoding(of:)).map {
            Int(($0.pts.seconds * 30).rounded())
        }
        // Frames 0–28 end by 0.967 s; frame 29 ends exactly at the target and must decode.
        #expect(Set(skippable) == Set(0..<29))
    }
}

@Suite struct ExactSeekRuleTests {
    private func ms(_ value: Int64) -> CMTime { CMTime(value: value, timescale: 1000) }

    @Test func aFrameStartingExactlyAtTheTargetShowsWhateverItsDuration() {
        // Unknown, zero and known durations: the one rule the engine and FrameSeeker share.
        for duration in [CMTime.invalid, .zero, ms(40)] {
            #expect(ExactSeekFilter.verdict(pts: ms(1000), duration: duration, target: ms(1000)) == .show, "\(duration)")
        }
        #expect(ExactSeekFilter.verdict(pts: ms(960), duration: ms(40), target: ms(1000)) == .discard)
        #expect(ExactSeekFilter.verdict(pts: ms(961), duration: ms(40), target: ms(1000)) == .show)
        #expect(ExactSeekFilter.verdict(pts: ms(999), duration: .invalid, target: ms(1000)) == .discard)
        #expect(ExactSeekFilter.verdict(pts: ms(999), duration: .zero, target: ms(1000)) == .discard)
        #expect(ExactSeekFilter(target: ms(1000)).verdict(pts: ms(1000), duration: .zero) == .show)
    }
}
