// Playhead: AVPlayerItemVideoOutput's bi-planar 4:2:0 buffers ('420v' and '420f', what renderers
// written for Metal ask for): the video-range one is the decoded picture with its Cb and Cr
// planes interleaved, byte for byte; the full-range one stretches luma to 0-255.
import FFmpegBridge
import Foundation
import PlayheadTestSupport
import Testing

@testable import OpenAVFoundation

@MainActor
@Suite struct BiPlanarVideoOutputTests {
    private func firstBuffer(of url: URL, format: OSType) async throws -> (CVPixelBuffer, CMTime) {
        try await VideoOutputBuffers.first(of: url, format: format)
    }

    private func bytes(of buffer: CVPixelBuffer, plane: Int, perPixel: Int) -> [UInt8] {
        VideoOutputBuffers.bytes(of: buffer, plane: plane, perPixel: perPixel)
    }

    @Test func videoRangeBuffersAreTheDecodedPictureWithItsChromaInterleaved() async throws {
        let url = try Fixture.url(.mp4)
        let reference = await linearFrames(of: url)
        let (buffer, shown) = try await firstBuffer(
            of: url, format: kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange)
        #expect(
            CVPixelBufferGetPixelFormatType(buffer)
                == kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange)
        #expect(CVPixelBufferIsPlanar(buffer) && CVPixelBufferGetPlaneCount(buffer) == 2)
        #expect(
            CVPixelBufferGetWidthOfPlane(buffer, 1) == 160
                && CVPixelBufferGetHeightOfPlane(buffer, 1) == 120)
        #expect(CVPixelBufferGetBytesPerRowOfPlane(buffer, 1) >= 320)
        let frame = try #require(
            reference[Int((shown.seconds * 1000).rounded())], "no frame at \(shown.seconds)")
        // The decoded planar picture: Y (320×240), then Cb and Cr (160×120 each).
        let planar = frame.packedBytes()
        let luma = 320 * 240
        let chroma = 160 * 120
        #expect(planar.count == luma + 2 * chroma)
        #expect(bytes(of: buffer, plane: 0, perPixel: 1) == Array(planar[..<luma]))
        let cb = planar[luma..<(luma + chroma)]
        let cr = planar[(luma + chroma)...]
        let interleaved = zip(cb, cr).flatMap { [$0, $1] }
        #expect(bytes(of: buffer, plane: 1, perPixel: 2) == interleaved)
    }

    @Test func fullRangeBuffersStretchLumaToTheWholeByte() async throws {
        // White and black halves, encoded in video range (Y 235 and 16; Cb and Cr 128).
        let url = try GeneratedMedia.url(
            named: "white-black-halves", fileExtension: "mp4",
            ffmpeg: [
                "-f", "lavfi", "-i",
                "color=c=white:s=64x64:d=2:r=25,drawbox=x=0:y=32:w=64:h=32:c=black:t=fill",
                "-c:v", "libx264", "-qp", "0", "-pix_fmt", "yuv420p",
            ])
        let (video, _) = try await firstBuffer(
            of: url, format: kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange)
        let (full, _) = try await firstBuffer(
            of: url, format: kCVPixelFormatType_420YpCbCr8BiPlanarFullRange)
        #expect(
            CVPixelBufferGetPixelFormatType(full) == kCVPixelFormatType_420YpCbCr8BiPlanarFullRange)
        let videoLuma = bytes(of: video, plane: 0, perPixel: 1)
        let fullLuma = bytes(of: full, plane: 0, perPixel: 1)
        // Row 8 is white, row 56 black.
        #expect(
            abs(Int(videoLuma[8 * 64 + 10]) - 235) <= 1
                && abs(Int(videoLuma[56 * 64 + 10]) - 16) <= 1)
        let (white, black) = (fullLuma[8 * 64 + 10], fullLuma[56 * 64 + 10])
        #expect(white >= 254 && black <= 1, "white \(white) black \(black)")
        #expect(
            bytes(of: full, plane: 1, perPixel: 2).allSatisfy { abs(Int($0) - 128) <= 1 },
            "grey chroma")
    }
}
