// Playhead: when an exact seek may go on with the video decoder's run instead of flushing it
// (`DecoderRun`), with no threads and no decoding.
import FFmpegBridge
import Foundation
import Testing

@testable import OpenAVFoundation

@Suite struct DecoderRunTests {
    /// A packet at `frame` / 25 s (decode time the same), one frame long, of `size` bytes.
    static func packet(_ frame: Int64, keyframe: Bool = false, size: Int = 1) throws -> Packet {
        try #require(
            Packet(
                bytes: Array(repeating: 0, count: size), streamIndex: 0, pts: frame, timeBase: (1, 25),
                isKeyframe: keyframe, duration: 1))
    }

    /// The picture of `frame` / 25 s, one frame long.
    static func picture(_ frame: Int64) throws -> VideoFrame {
        try #require(VideoFrame.blank(pts: CMTime(value: frame, timescale: 25), duration: CMTime(value: 1, timescale: 25)))
    }

    static func time(_ frame: Int64) -> CMTime { CMTime(value: frame, timescale: 25) }

    /// A run that took frames 0…`through` (keyframe 0 of `size` bytes) and let out 0…`out`.
    static func run(through: Int64, out: Int64, size: Int = 10, skippingBefore: CMTime? = nil) throws -> DecoderRun {
        var run = DecoderRun()
        run.took(try packet(0, keyframe: true, size: size), skippingBefore: skippingBefore)
        for frame in 1...through { run.took(try packet(frame), skippingBefore: skippingBefore) }
        for frame in 0...out { run.letOut(try picture(frame)) }
        return run
    }

    @Test func goesOnForATargetAfterEveryPictureLetOutWhenTheSameKeyframeIsReadAgain() throws {
        let run = try Self.run(through: 12, out: 10)
        let keyframe = try Self.packet(0, keyframe: true, size: 10)
        #expect(run.lastTaken == Self.time(12))
        #expect(run.latestPicture?.pts == Self.time(10))
        #expect(run.canGoOn(from: keyframe, toExactTarget: Self.time(11)), "picture 10 ends at 11")
        #expect(run.canGoOn(from: keyframe, toExactTarget: Self.time(40)))
        #expect(!run.canGoOn(from: keyframe, toExactTarget: Self.time(10) + CMTime(value: 1, timescale: 100)),
            "picture 10 covers the target and is gone")
        #expect(!run.canGoOn(from: keyframe, toExactTarget: Self.time(5)), "backward")
    }

    @Test func anotherKeyframeOrANewRunStartsAgain() throws {
        let run = try Self.run(through: 12, out: 10)
        #expect(!run.canGoOn(from: try Self.packet(0, keyframe: true, size: 11), toExactTarget: Self.time(20)),
            "same time, other bytes: another variant's keyframe")
        #expect(!run.canGoOn(from: try Self.packet(25, keyframe: true, size: 10), toExactTarget: Self.time(30)),
            "the next group of pictures")
        #expect(!run.canGoOn(from: try Self.packet(0, size: 10), toExactTarget: Self.time(20)), "not a keyframe")
        var flushed = run
        flushed.flushed()
        #expect(!flushed.canGoOn(from: try Self.packet(0, keyframe: true, size: 10), toExactTarget: Self.time(20)))
        #expect(!DecoderRun().canGoOn(from: try Self.packet(0, keyframe: true), toExactTarget: Self.time(20)))
    }

    @Test func picturesSkippedForALaterTargetStopTheRunForAnEarlierOne() throws {
        // A seek to frame 30 that has not landed yet: pictures before it were skipped.
        let run = try Self.run(through: 12, out: 3, skippingBefore: Self.time(30))
        let keyframe = try Self.packet(0, keyframe: true, size: 10)
        #expect(!run.canGoOn(from: keyframe, toExactTarget: Self.time(20)))
        #expect(run.canGoOn(from: keyframe, toExactTarget: Self.time(30)))
    }

    @Test func decodeTimesOutOfOrderOrARunNotStartingAtAKeyframeNeverGoOn() throws {
        let keyframe = try Self.packet(0, keyframe: true, size: 10)
        var backwards = try Self.run(through: 12, out: 10)
        backwards.took(try Self.packet(12), skippingBefore: nil)
        #expect(!backwards.canGoOn(from: keyframe, toExactTarget: Self.time(20)))
        var unordered = try Self.run(through: 12, out: 10)
        unordered.letOut(try Self.picture(9))
        #expect(!unordered.canGoOn(from: keyframe, toExactTarget: Self.time(20)))
        var midway = DecoderRun()
        midway.took(try Self.packet(3, size: 10), skippingBefore: nil)
        #expect(!midway.canGoOn(from: try Self.packet(3, keyframe: true, size: 10), toExactTarget: Self.time(20)))
        var failed = try Self.run(through: 12, out: 10)
        failed.failed()
        #expect(!failed.canGoOn(from: keyframe, toExactTarget: Self.time(20)))
    }
}
