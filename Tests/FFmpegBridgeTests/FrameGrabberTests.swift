// Playhead: tests for FrameGrabber (exact frames, decoder reuse, tolerances) and ImageEncoder.
import FFmpegBridge
import Foundation
import OpenCoreMedia
import Testing

// Concurrency: each test owns its grabber on the test's own task.

@Suite struct FrameGrabberTests {
    static func grabber(_ url: URL = MediaFixtures.h264MP4) throws -> FrameGrabber {
        try FrameGrabber(location: MediaFixtures.location(url))
    }

    static func seconds(_ value: Double) -> CMTime { CMTime(seconds: value, preferredTimescale: 1000) }

    @Test func exactFramesMatchALinearDecodeInAnyOrder() throws {
        let frames = try Decode.allVideoFrames(MediaFixtures.h264MP4)
        let grabber = try Self.grabber()
        let targets = [0, 0.5, 0.517, 1.0, 1.999, 2.5, 2.98, 9.0, 0.2, 1.6].map(Self.seconds)
        for target in targets {
            let expected = try #require(ExactSeekTests.linearFrame(at: target, in: frames))
            let frame = try #require(grabber.frame(at: target), "no frame at \(target.seconds)")
            #expect(frame.pts == expected.pts, "target \(target.seconds)")
            #expect(frame.checksum() == expected.checksum(), "target \(target.seconds)")
        }
    }

    @Test func increasingTimesInOneGOPDecodeForwardWithoutSeeking() throws {
        let frames = try Decode.allVideoFrames(MediaFixtures.h264MP4)
        let grabber = try Self.grabber()
        // GOP 30 at 30 fps: 1.0 s ..< 2.0 s is one GOP.
        let targets = [1.05, 1.2, 1.21, 1.5, 1.9].map(Self.seconds)
        for target in targets {
            let expected = try #require(ExactSeekTests.linearFrame(at: target, in: frames))
            let frame = try #require(grabber.frame(at: target))
            #expect(frame.checksum() == expected.checksum(), "target \(target.seconds)")
        }
        #expect(grabber.seekCount == 1)
        // Forward decoding decodes each frame of the GOP about once.
        #expect(grabber.decodedFrameCount <= 32, "decoded \(grabber.decodedFrameCount)")
        // The next GOP needs a seek (decoding through the keyframe would cost more).
        _ = grabber.frame(at: Self.seconds(2.7))
        #expect(grabber.seekCount == 2)
    }

    @Test func aWideToleranceReturnsTheKeyframeAtOrBeforeTheTarget() throws {
        let grabber = try Self.grabber()
        let frame = try #require(
            grabber.frame(at: Self.seconds(1.7), toleranceBefore: .positiveInfinity, toleranceAfter: .positiveInfinity))
        #expect(frame.pts == Self.seconds(1.0))
        #expect(frame.isKeyframe)
        // A window that holds no earlier keyframe takes the next one.
        let after = try #require(
            grabber.frame(at: Self.seconds(1.9), toleranceBefore: .zero, toleranceAfter: Self.seconds(0.2)))
        #expect(after.pts == Self.seconds(2.0))
        // A window with no keyframe at all falls back to the exact frame.
        let exact = try #require(
            grabber.frame(at: Self.seconds(2.5), toleranceBefore: Self.seconds(0.1), toleranceAfter: Self.seconds(0.1)))
        #expect(exact.pts == CMTime(value: 15, timescale: 30) + Self.seconds(2.0))
    }

    @Test func startingAtOrAfterPicksTheNextFrameWhenTheTimeFallsInsideOne() throws {
        let frames = try Decode.allVideoFrames(MediaFixtures.h264MP4)
        let grabber = try Self.grabber()
        // 30 fps: 1.517 s is inside the frame at 1.5; the next frame starts at 1.5333.
        let inside = try #require(grabber.frame(at: Self.seconds(1.517), startingAtOrAfter: true))
        #expect(inside.pts == CMTime(value: 46, timescale: 30))
        let expected = try #require(frames.first { $0.pts == inside.pts })
        #expect(inside.checksum() == expected.checksum())
        let onStart = try #require(grabber.frame(at: CMTime(value: 45, timescale: 30), startingAtOrAfter: true))
        #expect(onStart.pts == CMTime(value: 45, timescale: 30))
        #expect(grabber.frame(at: Self.seconds(1.517))?.pts == CMTime(value: 45, timescale: 30), "the default: on screen")
    }

    @Test func aFileWithoutVideoIsRefused() throws {
        let audio = MediaFixtures.make(
            "tone.m4a", ["-f", "lavfi", "-i", "sine=f=440:d=1", "-c:a", "aac"])
        #expect(throws: MediaFailure.noAudioOrVideo) { try Self.grabber(audio) }
    }

    @Test func pngRoundTripsExactlyAndJPEGStartsWithItsMarker() throws {
        let (width, height) = (37, 21)
        var rgba = [UInt8](repeating: 0, count: width * height * 4)
        for index in 0..<(width * height) {
            rgba[index * 4] = UInt8(index % 256)
            rgba[index * 4 + 1] = UInt8((index / 7) % 256)
            rgba[index * 4 + 2] = UInt8((index * 3) % 256)
            rgba[index * 4 + 3] = 255
        }
        let png = try ImageEncoder.encode(rgba: rgba, width: width, height: height, as: .png)
        #expect(Array(png.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        let file = MediaFixtures.directory.appendingPathComponent("roundtrip.png")
        try Data(png).write(to: file)
        let decoded = MediaFixtures.run(
            "ffmpeg",
            ["-hide_banner", "-loglevel", "error", "-i", file.path, "-f", "rawvideo", "-pix_fmt", "rgba", "-"])
        #expect(decoded.status == 0)
        #expect(Array(decoded.output) == rgba)

        let jpeg = try ImageEncoder.encode(rgba: rgba, width: width, height: height, as: .jpeg(quality: 0.9))
        #expect(Array(jpeg.prefix(3)) == [0xFF, 0xD8, 0xFF])
        #expect(throws: MediaFailure.self) {
            try ImageEncoder.encode(rgba: [1, 2, 3], width: 2, height: 2, as: .png)
        }
    }
}
