// Playhead: a picture's colour (matrix, range, primaries, transfer) read from its stream, and
// conversions that honour it: RGB as FFmpeg's own scale filter makes it from the same tags
// (swscale alone reads every picture as BT.601 video range), YCbCr targets in the range their
// format names.
import FFmpegBridge
import Foundation
import PlayheadTestSupport
import Testing

// Concurrency: each test owns its frames on the test's own task.

@Suite struct PictureColourTests {
    /// A 2-second clip of `source` (a lavfi graph) encoded losslessly with `matrix` and `range`
    /// and tagged with `tags`; `codec` picks the encoder.
    static func clip(
        _ name: String, source: String, matrix: String, range: String, tags: [String],
        codec: String = "h264"
    ) throws -> URL {
        let encoder =
            codec == "vp9"
            ? ["-c:v", "libvpx-vp9", "-lossless", "1", "-deadline", "realtime"]
            : ["-c:v", "libx264", "-qp", "0", "-preset", "ultrafast"]
        // The clip's length and rate go on the first filter of the graph.
        let parts = source.split(separator: ",", maxSplits: 1).map(String.init)
        let graph = parts[0] + ":d=0.2:r=10" + (parts.count > 1 ? "," + parts[1] : "")
        return try GeneratedMedia.url(
            named: "colour-\(name)", fileExtension: codec == "vp9" ? "webm" : "mp4",
            ffmpeg: [
                "-f", "lavfi", "-i", graph,
                "-vf", "scale=out_color_matrix=\(matrix):out_range=\(range),format=yuv420p",
            ] + tags + encoder)
    }

    /// The first picture of `url`.
    static func firstFrame(_ url: URL) throws -> VideoFrame {
        try #require(try Decode.allVideoFrames(url).first, "no picture in \(url.lastPathComponent)")
    }

    /// FFmpeg's RGBA for the first picture of `url`, through its scale filter (`filter`: what
    /// it is told beyond the stream's own tags).
    static func ffmpegRGBA(_ url: URL, filter: String? = nil) -> [UInt8] {
        let result = MediaFixtures.run(
            "ffmpeg",
            ["-hide_banner", "-loglevel", "error", "-i", url.path, "-frames:v", "1"]
                + (filter.map { ["-vf", $0] } ?? []) + ["-f", "rawvideo", "-pix_fmt", "rgba", "-"])
        return [UInt8](result.output)
    }

    /// The largest difference of any sample between two pictures of the same size.
    static func largestDifference(_ first: [UInt8], _ second: [UInt8]) -> Int {
        zip(first, second).reduce(0) { max($0, abs(Int($1.0) - Int($1.1))) }
    }

    @Test(arguments: [
        ("bt709-sd", "testsrc2=s=320x240", "bt709", "tv", ["-colorspace", "bt709"], "h264"),
        ("bt709-hd", "testsrc2=s=1280x720", "bt709", "tv", ["-colorspace", "bt709"], "h264"),
        (
            "bt601-full", "testsrc2=s=320x240", "bt601", "pc",
            ["-colorspace", "smpte170m", "-color_range", "pc"], "vp9"
        ),
        ("bt2020", "testsrc2=s=320x240", "bt2020", "tv", ["-colorspace", "bt2020nc"], "h264"),
    ])
    func rgbFromATaggedPictureIsWhatFFmpegsScaleFilterMakes(
        name: String, source: String, matrix: String, range: String, tags: [String], codec: String
    ) throws {
        let url = try Self.clip(
            name, source: source, matrix: matrix, range: range, tags: tags, codec: codec)
        let frame = try Self.firstFrame(url)
        #expect(frame.pixelFormatName == "yuv420p")
        #expect(frame.colour.matrix.rawValue == (matrix == "bt601" ? "bt601" : matrix))
        #expect(frame.colour.isFullRange == (range == "pc"))
        let rgba = try #require(frame.converted(to: .rgba)).packedBytes()
        let reference = Self.ffmpegRGBA(url)
        try #require(rgba.count == reference.count && !rgba.isEmpty)
        let difference = Self.largestDifference(rgba, reference)
        #expect(difference <= 2, "\(name): largest difference \(difference)")
    }

    @Test func anUntaggedPictureIsReadAsBT709WhenHighDefinitionAndBT601Otherwise() throws {
        let hd = try Self.clip(
            "untagged-hd", source: "testsrc2=s=1280x720", matrix: "bt709", range: "tv", tags: [])
        let hdFrame = try Self.firstFrame(hd)
        #expect(hdFrame.colour == PictureColour(matrix: .bt709, isFullRange: false))
        let hdRGBA = try #require(hdFrame.converted(to: .rgba)).packedBytes()
        // FFmpeg reads an untagged picture as BT.601 whatever its size; told BT.709, it agrees.
        let told = Self.ffmpegRGBA(hd, filter: "scale=in_color_matrix=bt709")
        #expect(Self.largestDifference(hdRGBA, told) <= 2)
        #expect(
            Self.largestDifference(hdRGBA, Self.ffmpegRGBA(hd)) > 10, "the matrix made a difference"
        )

        let sd = try Self.clip(
            "untagged-sd", source: "testsrc2=s=720x576", matrix: "bt601", range: "tv", tags: [])
        let sdFrame = try Self.firstFrame(sd)
        #expect(sdFrame.colour.matrix == .bt601)
        let sdRGBA = try #require(sdFrame.converted(to: .rgba)).packedBytes()
        #expect(Self.largestDifference(sdRGBA, Self.ffmpegRGBA(sd)) <= 2)
        #expect(PictureColour.untaggedMatrix(width: 1280, height: 536) == .bt709, "a wide film")
        #expect(PictureColour.untaggedMatrix(width: 1024, height: 576) == .bt601)
    }

    @Test func aFullRangePictureBecomesVideoRangeInTheVideoRangeFormatsOnly() throws {
        // White and black halves, full range: Y 255 and 0.
        let url = try Self.clip(
            "halves-full",
            source: "color=c=white:s=64x64,drawbox=x=0:y=32:w=64:h=32:c=black:t=fill",
            matrix: "bt601", range: "pc", tags: ["-color_range", "pc"], codec: "vp9")
        let frame = try Self.firstFrame(url)
        #expect(frame.colour.isFullRange)
        #expect(frame.converted(to: .yuv420pFullRange) === frame, "nothing to change")
        let video = try #require(frame.converted(to: .yuv420p))
        #expect(!video.colour.isFullRange)
        let luma = video.packedBytes()
        try #require(luma.count >= 64 * 64)
        #expect(abs(Int(luma[8 * 64 + 10]) - 235) <= 1 && abs(Int(luma[56 * 64 + 10]) - 16) <= 1)
        // And back: a video-range picture stretched to full range.
        let full = try #require(video.converted(to: .yuv420pFullRange))
        #expect(full.colour.isFullRange)
        let stretched = full.packedBytes()
        #expect(stretched[8 * 64 + 10] >= 254 && stretched[56 * 64 + 10] <= 1)
        #expect(video.converted(to: .yuv420p) === video)
    }

    @Test func primariesAndTransferAreReadFromTheStreamAndLeftOutWhenUntagged() throws {
        let hdr = try Self.clip(
            "pq", source: "testsrc2=s=320x240", matrix: "bt2020", range: "tv",
            tags: [
                "-colorspace", "bt2020nc", "-color_primaries", "bt2020", "-color_trc", "smpte2084",
            ])
        #expect(
            try Self.firstFrame(hdr).colour
                == PictureColour(
                    matrix: .bt2020, isFullRange: false, primaries: .bt2020, transfer: .pq))
        let hd = try Self.clip(
            "bt709-all", source: "testsrc2=s=320x240", matrix: "bt709", range: "tv",
            tags: ["-colorspace", "bt709", "-color_primaries", "bt709", "-color_trc", "bt709"])
        #expect(
            try Self.firstFrame(hd).colour
                == PictureColour(
                    matrix: .bt709, isFullRange: false, primaries: .bt709, transfer: .bt709))
        let plain = try Self.firstFrame(MediaFixtures.h264MP4).colour
        #expect(plain.primaries == nil && plain.transfer == nil && plain.matrix == .bt601)
    }
}

extension PictureColourTests {
    /// A clip of one orange-red (0xC03020) stored as `pixelFormat` with FFV1 (lossless), of
    /// `size`.
    static func plainClip(_ pixelFormat: String, size: String) throws -> URL {
        try GeneratedMedia.url(
            named: "colour-plain-\(pixelFormat)-\(size)", fileExtension: "mkv",
            ffmpeg: [
                "-f", "lavfi", "-i", "color=c=0xC03020:s=\(size):d=0.2:r=10", "-pix_fmt",
                pixelFormat,
                "-c:v", "ffv1",
            ])
    }

    @Test func rgbAndGreyPicturesKeepTheirColoursWhenScaledToRGB() throws {
        // An HD RGB picture (whose untagged-matrix guess would be BT.709) scaled down: no
        // YCbCr matrix is involved, so the colour stays.
        let rgb = try Self.firstFrame(try Self.plainClip("bgr0", size: "1280x720"))
        #expect(!rgb.colour.isYCbCr)
        let scaled = try #require(rgb.converted(to: .rgba, width: 640, height: 360)).packedBytes()
        let middle = (180 * 640 + 320) * 4
        // (swscale scales RGB through YCbCr of its own: a step or two of rounding; a matrix
        // mismatch would move green by more than ten.)
        let shown = scaled[middle..<(middle + 3)].map(Int.init)
        #expect(zip(shown, [0xC0, 0x30, 0x20]).allSatisfy { abs($0 - $1) <= 2 }, "\(shown)")
        // Grey is full range unless it says otherwise: FFmpeg's own RGB of it.
        let greyURL = try Self.plainClip("gray", size: "320x240")
        let grey = try Self.firstFrame(greyURL)
        #expect(!grey.colour.isYCbCr && grey.colour.isFullRange)
        let greyRGBA = try #require(grey.converted(to: .rgba)).packedBytes()
        #expect(Self.largestDifference(greyRGBA, Self.ffmpegRGBA(greyURL)) <= 1)
    }

    @Test func convertedYCbCrPicturesStateTheMatrixTheirSamplesAreIn() throws {
        // An untagged HD picture scaled to SD keeps the HD guess (BT.709), stated.
        let hd = try Self.clip(
            "untagged-hd", source: "testsrc2=s=1280x720", matrix: "bt709", range: "tv", tags: [])
        let small = try #require(
            try Self.firstFrame(hd).converted(to: .yuv420p, width: 640, height: 360))
        #expect(small.colour.matrix == .bt709)
        // An HD RGB picture made YCbCr is in BT.601 (swscale's), whatever its size.
        let rgb = try Self.firstFrame(try Self.plainClip("bgr0", size: "1280x720"))
        let biPlanar = try #require(rgb.converted(to: .nv12))
        #expect(biPlanar.colour.matrix == .bt601 && !biPlanar.colour.isFullRange)
    }

    @Test func oneScalerFollowsEachPicturesColour() throws {
        // The same size and format, two matrices: the kept context is made again for each.
        let scaler = Scaler()
        let tagged = try Self.clip(
            "bt709-sd", source: "testsrc2=s=320x240", matrix: "bt709", range: "tv",
            tags: ["-colorspace", "bt709"])
        let plain = try Self.clip(
            "untagged-320", source: "testsrc2=s=320x240", matrix: "bt601", range: "tv", tags: [])
        for url in [tagged, plain, tagged] {
            let rgba = try #require(try Self.firstFrame(url).converted(to: .rgba, using: scaler))
                .packedBytes()
            #expect(
                Self.largestDifference(rgba, Self.ffmpegRGBA(url)) <= 2, "\(url.lastPathComponent)")
        }
    }
}
