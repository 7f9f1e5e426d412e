// Playhead: after a seek, HEVC with wavefronts or tiles decodes the catch-up with a
// slice-threaded decoder and hand over to the frame-threaded one at the next clean keyframe;
// every picture still matches a linear decode, none is lost or repeated at the hand-over.
@testable import FFmpegBridge
import Foundation
import OpenCoreMedia
import Testing

// Concurrency: each test owns its demuxers and decoders on the test's own task.

@Suite struct SeekCatchUpTests {
    static func x265(_ name: String, _ params: String) -> URL {
        MediaFixtures.make(
            name,
            [
                "-f", "lavfi", "-i", "testsrc2=d=3:s=320x240:r=25", "-c:v", "libx265", "-preset",
                "ultrafast", "-x265-params", "keyint=25:min-keyint=25:log-level=error:\(params)",
                "-pix_fmt", "yuv420p",
            ])
    }

    /// x265 with closed GOPs: every keyframe is an IDR picture, so the hand-over happens.
    static let hevcClosedGOP = x265("hevc-closed.mp4", "open-gop=0")
    /// x265's default open GOPs: keyframes after the first are CRA pictures, whose leading
    /// pictures need the GOP before; the hand-over overlaps both decoders.
    static let hevcOpenGOP = x265("hevc-open.mp4", "open-gop=1:bframes=4:b-adapt=2")
    /// x265 without wavefronts: no catch-up decoder at all.
    static let hevcPlain = x265("hevc-plain.mp4", "wpp=0")
    /// 640×360 VP9 with two tile columns and a keyframe every second: frame threading stays
    /// (tile threading was measured slower for seeks).
    static let vp9Wide = MediaFixtures.make(
        "vp9-wide.webm",
        [
            "-f", "lavfi", "-i", "testsrc2=d=3:s=640x360:r=25", "-c:v", "libvpx-vp9",
            "-deadline", "realtime", "-cpu-used", "8", "-g", "25", "-tile-columns", "1",
        ])

    struct Picture: Equatable, CustomStringConvertible {
        var pts: CMTime
        var checksum: UInt64
        var description: String { "\(pts.seconds)" }
    }

    /// Decodes `url` linearly, then again after reading a few packets and seeking to the
    /// keyframe at or before `target`. Returns the linear pictures, the pictures after the
    /// seek, whether the decoder was catching up right after the seek, and at the end.
    static func seekAndDecode(_ url: URL, target: Double) throws
        -> (linear: [Picture], afterSeek: [Picture], caughtUpAtStart: Bool, catchingUpAtEnd: Bool)
    {
        let linear = try Decode.allVideoFrames(url).map {
            Picture(pts: $0.pts, checksum: $0.checksum())
        }
        let demuxer = try Demuxer(location: MediaFixtures.location(url))
        let index = try #require(demuxer.bestStream(of: .video))
        let decoder = try VideoDecoder(demuxer: demuxer, streamIndex: index)
        demuxer.setActiveStreams([index])
        decoder.flush()  // as the engine does before the first packet: no catch-up yet
        #expect(!decoder.isCatchingUp)
        for _ in 0..<10 {
            guard case .packet(let packet) = demuxer.readPacket() else { break }
            while decoder.send(packet) == .outputFull { _ = decoder.receiveFrame() }
            while decoder.receiveFrame().frame != nil {}
        }
        let time = CMTime(seconds: target, preferredTimescale: 1000)
        #expect(demuxer.seek(to: time, earliest: .negativeInfinity, latest: time))
        decoder.flush()
        let catchingUpAtStart = decoder.isCatchingUp
        var pictures: [Picture] = []
        func take() {
            while let frame = decoder.receiveFrame().frame {
                pictures.append(Picture(pts: frame.pts, checksum: frame.checksum()))
            }
        }
        while case .packet(let packet) = demuxer.readPacket() {
            while decoder.send(packet) == .outputFull { take() }
            take()
        }
        let catchingUpAtEnd = decoder.isCatchingUp
        decoder.sendEndOfStream()
        take()
        return (linear, pictures, catchingUpAtStart, catchingUpAtEnd)
    }

    /// The pictures after the seek are exactly the linear decode from the first of them on.
    static func expectSuffix(
        _ run: (
            linear: [Picture], afterSeek: [Picture], caughtUpAtStart: Bool, catchingUpAtEnd: Bool
        )
    ) throws {
        let first = try #require(run.afterSeek.first)
        let start = try #require(run.linear.firstIndex { $0.pts == first.pts })
        #expect(Array(run.linear[start...]) == run.afterSeek)
        #expect(run.afterSeek.count >= 20)
    }

    @Test func hevcWithIDRKeyframesHandsOver() throws {
        let run = try Self.seekAndDecode(Self.hevcClosedGOP, target: 1.5)
        #expect(run.caughtUpAtStart)
        #expect(!run.catchingUpAtEnd)
        try Self.expectSuffix(run)
    }

    @Test func hevcWithOpenGOPsHandsOverAtACRAAndLosesNoLeadingPicture() throws {
        let run = try Self.seekAndDecode(Self.hevcOpenGOP, target: 1.2)
        #expect(run.caughtUpAtStart)
        #expect(!run.catchingUpAtEnd)
        try Self.expectSuffix(run)
    }

    @Test func theOpenGOPFixtureHasLeadingPicturesBeforeItsCRA() throws {
        // The hand-over test above only means something if pictures after the CRA in decode
        // order show before it: check the fixture has them.
        let demuxer = try Demuxer(location: MediaFixtures.location(Self.hevcOpenGOP))
        let index = try #require(demuxer.bestStream(of: .video))
        demuxer.setActiveStreams([index])
        var craTime: CMTime?
        var leading = 0
        while case .packet(let packet) = demuxer.readPacket() {
            if let craTime, !packet.isKeyframe, packet.pts < craTime { leading += 1 }
            if craTime == nil, packet.pts.seconds > 0.5,
                SeekCatchUp.startsOpenGOP(at: packet, kind: .hevc)
            {
                craTime = packet.pts
            }
        }
        #expect(craTime != nil, "a CRA keyframe after the first second")
        #expect(leading > 0, "leading pictures follow the CRA in decode order")
    }

    @Test func streamsWithoutIntraPictureParallelismHaveNoCatchUpDecoder() throws {
        for url in [Self.hevcPlain, MediaFixtures.h264MP4, MediaFixtures.vp9WebM, Self.vp9Wide] {
            let run = try Self.seekAndDecode(url, target: 1.2)
            #expect(!run.caughtUpAtStart, "\(url.lastPathComponent)")
            try Self.expectSuffix(run)
        }
    }
}

@Suite struct HEVCParameterSetParsingTests {
    /// x265's PPS (NAL header 44 01) with wavefronts on, inside a minimal hvcC record.
    static func hvcC(pps: [UInt8]) -> [UInt8] {
        [1] + [UInt8](repeating: 0, count: 21) + [1, 34, 0, 1, 0, UInt8(pps.count)] + pps
    }

    @Test func wavefrontFlagIsReadFromHvcCAndAnnexB() {
        let pps: [UInt8] = [0x44, 0x01, 0xC0, 0x73, 0xC1, 0x89]
        #expect(HEVCParallelism.allowsSliceThreading(extradata: Self.hvcC(pps: pps)))
        #expect(HEVCParallelism.allowsSliceThreading(extradata: [0, 0, 0, 1] + pps))
        // The same PPS with entropy_coding_sync_enabled_flag cleared (bit 23 of the RBSP).
        let plain: [UInt8] = [0x44, 0x01, 0xC0, 0x73, 0xC0, 0x89]
        #expect(!HEVCParallelism.allowsSliceThreading(extradata: Self.hvcC(pps: plain)))
        #expect(!HEVCParallelism.allowsSliceThreading(extradata: []))
    }

    @Test func damagedOrRandomExtradataNeverTrapsAndAnswersNo() {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15  // xorshift64: the same bytes on every run
        func nextByte() -> UInt8 {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return UInt8(truncatingIfNeeded: state)
        }
        for length in 0..<400 {
            var bytes = (0..<length).map { _ in nextByte() }
            if length > 23 && length % 2 == 0 { bytes[0] = 1 }  // half of them look like hvcC
            _ = HEVCParallelism.allowsSliceThreading(extradata: bytes)
        }
        // A PPS cut short cannot tell, so the stream keeps frame threading only.
        #expect(!HEVCParallelism.allowsSliceThreading(extradata: [0, 0, 1, 0x44, 0x01, 0xC0]))
    }
}
