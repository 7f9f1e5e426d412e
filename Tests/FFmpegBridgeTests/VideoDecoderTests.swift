// Playhead: tests for VideoDecoder, VideoFrame and Scaler.
import FFmpegBridge
import Foundation
import OpenCoreMedia
import Testing

// Concurrency: each test owns its demuxer, decoder and frames on the test's own task.

@Suite struct VideoDecoderTests {
    @Test func everyH264FrameMatchesFFmpegsRawvideoOutputWithFrameThreading() async throws {
        let url = MediaFixtures.h264MP4
        let demuxer = try Demuxer(location: MediaFixtures.location(url))
        let decoder = try VideoDecoder(
            demuxer: demuxer, streamIndex: try #require(demuxer.bestStream(of: .video)))
        #expect(decoder.threadCount == VideoDecoder.defaultThreadCount)
        #expect((2...16).contains(VideoDecoder.defaultThreadCount))
        #expect(decoder.activeThreading == "frame")
        let frames = try Decode.allVideoFrames(url)
        let reference = MediaFixtures.referenceChecksums(url, width: 320, height: 240)
        #expect(frames.count == 90)
        #expect(reference.count == 90)
        #expect(frames.map { $0.checksum() } == reference)
    }

    @Test func singleThreadedDecodingGivesTheSamePictures() async throws {
        let threaded = try Decode.allVideoFrames(MediaFixtures.h264MKV).map { $0.checksum() }
        let single = try Decode.allVideoFrames(MediaFixtures.h264MKV, threadCount: 1).map {
            $0.checksum()
        }
        #expect(single == threaded)
        #expect(
            single
                == MediaFixtures.referenceChecksums(MediaFixtures.h264MKV, width: 192, height: 108))
    }

    @Test func vp9InWebMDecodesEveryFrameExactly() async throws {
        let frames = try Decode.allVideoFrames(MediaFixtures.vp9WebM)
        #expect(frames.count == 50)
        #expect(
            frames.allSatisfy {
                $0.width == 160 && $0.height == 120 && $0.pixelFormatName == "yuv420p"
            })
        #expect(
            frames.map { $0.checksum() }
                == MediaFixtures.referenceChecksums(MediaFixtures.vp9WebM, width: 160, height: 120))
    }

    @Test func framesCarryTimingSizeAndKeyframes() async throws {
        let frames = try Decode.allVideoFrames(MediaFixtures.h264MP4)
        #expect(frames.first?.pts == .zero)
        let seconds = frames.map(\.pts.seconds)
        #expect(seconds == seconds.sorted())
        #expect(zip(seconds, seconds.dropFirst()).allSatisfy { abs($1 - $0 - 1.0 / 30) < 1e-6 })
        #expect(frames.allSatisfy { abs($0.duration.seconds - 1.0 / 30) < 1e-6 })
        #expect(
            frames.filter(\.isKeyframe).map { Int(($0.pts.seconds * 30).rounded()) } == [0, 30, 60])
        let frame = try #require(frames.first)
        #expect(frame.width == 320 && frame.height == 240)
        #expect(frame.pixelFormatName == "yuv420p")
        #expect(frame.planeCount == 3)
        #expect(frame.sampleAspect == nil || frame.sampleAspect == SampleAspect(1, 1))
    }

    @Test func planesConcatenatedRowByRowEqualThePackedBytes() async throws {
        let frame = try #require(
            try Decode.allVideoFrames(MediaFixtures.h264MKV).dropFirst(5).first)
        var joined: [UInt8] = []
        for plane in 0..<frame.planeCount {
            frame.withPlane(plane) { bytes, bytesPerRow, rows in
                let width = plane == 0 ? frame.width : (frame.width + 1) / 2
                #expect(rows == (plane == 0 ? frame.height : (frame.height + 1) / 2))
                #expect(bytesPerRow >= width)
                for row in 0..<rows {
                    joined += bytes[(row * bytesPerRow)..<(row * bytesPerRow + width)]
                }
            }
        }
        #expect(joined == frame.packedBytes())
        #expect(joined.count == 192 * 108 * 3 / 2)
    }

    @Test func conversionToRGBAAndResizingKeepsTimingAndReusesTheScaler() async throws {
        let frames = try Decode.allVideoFrames(MediaFixtures.h264MKV)
        let scaler = Scaler()
        for frame in frames.prefix(5) {
            let rgba = try #require(frame.converted(to: .rgba, using: scaler))
            #expect(rgba.pixelFormatName == "rgba")
            #expect(rgba.planeCount == 1)
            #expect(rgba.packedBytes().count == 192 * 108 * 4)
            #expect(rgba.pts == frame.pts)
            #expect(rgba.duration == frame.duration)
        }
        #expect(scaler.conversionCount == 5)
        try #require(!frames.isEmpty)
        let small = try #require(frames[0].converted(to: .yuv420p, width: 96, height: 54))
        #expect(small.width == 96 && small.height == 54 && small.pixelFormatName == "yuv420p")
        #expect(small.packedBytes().count == 96 * 54 * 3 / 2)
        // Same format and size: the frame itself.
        #expect(frames[0].converted(to: .yuv420p) === frames[0])
        // testsrc2's top-left is not black in RGB.
        let rgba = try #require(frames[0].converted(to: .rgba)).packedBytes()
        try #require(rgba.count >= 4)
        #expect(rgba[3] == 255)
    }

    @Test func aVideoDecoderRefusesAnAudioStream() async throws {
        let demuxer = try Demuxer(location: MediaFixtures.location(MediaFixtures.h264MP4))
        let audio = try #require(demuxer.bestStream(of: .audio))
        #expect(throws: MediaFailure.self) {
            try VideoDecoder(demuxer: demuxer, streamIndex: audio)
        }
        #expect(throws: MediaFailure.self) { try VideoDecoder(demuxer: demuxer, streamIndex: 42) }
    }

    @Test func flushingAfterASeekRestartsCleanly() async throws {
        let demuxer = try Demuxer(location: MediaFixtures.location(MediaFixtures.h264MP4))
        let video = try #require(demuxer.bestStream(of: .video))
        demuxer.setActiveStreams([video])
        let decoder = try VideoDecoder(demuxer: demuxer, streamIndex: video)
        for _ in 0..<10 {
            guard case .packet(let packet) = demuxer.readPacket() else { break }
            decoder.send(packet)
            while decoder.receiveFrame().frame != nil {}
        }
        decoder.sendEndOfStream()
        #expect(demuxer.seek(to: .zero, earliest: .negativeInfinity, latest: .zero))
        decoder.flush()
        var first: VideoFrame?
        while first == nil, case .packet(let packet) = demuxer.readPacket() {
            #expect(decoder.send(packet) == .accepted)
            first = decoder.receiveFrame().frame
        }
        #expect(first?.pts == .zero)
        #expect(
            first?.checksum()
                == MediaFixtures.referenceChecksums(MediaFixtures.h264MP4, width: 320, height: 240)
                .first)
    }
}
