// Playhead: AVPlayerItemVideoOutput's buffers in the colour their stream states: RGB made with
// the stream's matrix and range (as FFmpeg's scale filter makes it), planar buffers in the
// range their format names ('y420' video, 'f420' full; no format: the decoder's own), and the
// colour attachments Core Video puts on its buffers, read with Core Video's functions.
import FFmpegBridge
import Foundation
import PlayheadTestSupport
import Testing

@testable import OpenAVFoundation

@MainActor
@Suite struct VideoOutputColourTests {
    /// The red, green and blue of the middle pixel of a BGRA buffer.
    private func middle(ofBGRA buffer: CVPixelBuffer) -> (red: UInt8, green: UInt8, blue: UInt8) {
        let bytes = VideoOutputBuffers.bytes(of: buffer, plane: 0, perPixel: 4)
        let width = CVPixelBufferGetWidth(buffer)
        let offset = (CVPixelBufferGetHeight(buffer) / 2 * width + width / 2) * 4
        return (bytes[offset + 2], bytes[offset + 1], bytes[offset])
    }

    @Test func bgraBuffersHaveTheColoursTheStreamStates() async throws {
        for kind in [ColourClips.bt709SD, ColourClips.fullRangeVP9, ColourClips.bt2020] {
            let url = try ColourClips.url(kind, seconds: 2)
            let (buffer, _) = try await VideoOutputBuffers.first(
                of: url, format: kCVPixelFormatType_32BGRA)
            let expected = try ColourClips.ffmpegColour(url)
            let shown = middle(ofBGRA: buffer)
            #expect(
                ColourClips.difference(expected, shown) <= 2,
                "\(kind): \(shown) against FFmpeg's \(expected)")
            #expect(
                CVBufferCopyAttachment(buffer, kCVImageBufferYCbCrMatrixKey, nil) == nil,
                "RGB has no matrix")
        }
    }

    @Test func withoutAFormatAFullRangePictureComesInFullRangePlanarBuffers() async throws {
        let url = try ColourClips.url(ColourClips.fullRangeVP9, seconds: 2)
        let (native, _) = try await VideoOutputBuffers.first(of: url, format: nil)
        #expect(
            CVPixelBufferGetPixelFormatType(native) == kCVPixelFormatType_420YpCbCr8PlanarFullRange)
        let (full, _) = try await VideoOutputBuffers.first(
            of: url, format: kCVPixelFormatType_420YpCbCr8PlanarFullRange)
        let (video, _) = try await VideoOutputBuffers.first(
            of: url, format: kCVPixelFormatType_420YpCbCr8Planar)
        #expect(CVPixelBufferGetPixelFormatType(video) == kCVPixelFormatType_420YpCbCr8Planar)
        let nativeLuma = VideoOutputBuffers.bytes(of: native, plane: 0, perPixel: 1)
        let fullLuma = VideoOutputBuffers.bytes(of: full, plane: 0, perPixel: 1)
        let videoLuma = VideoOutputBuffers.bytes(of: video, plane: 0, perPixel: 1)
        #expect(nativeLuma == fullLuma, "no conversion")
        // Full range Y to video range: 16 + Y × 219 / 255.
        let y = Int(try #require(fullLuma.first))
        let expected = 16 + (y * 219 + 127) / 255
        #expect(
            abs(Int(videoLuma[0]) - expected) <= 1, "Y \(y) became \(videoLuma[0]), not \(expected)"
        )
        for buffer in [native, video] {
            #expect(
                CVBufferCopyAttachment(buffer, kCVImageBufferYCbCrMatrixKey, nil) as? String
                    == kCVImageBufferYCbCrMatrix_ITU_R_601_4)
        }
    }

    @Test func buffersCarryTheStreamsColourAsCoreVideoAttachments() async throws {
        let url = try ColourClips.url(ColourClips.bt709Tagged, seconds: 2)
        let (buffer, _) = try await VideoOutputBuffers.first(
            of: url, format: kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange)
        var mode = CVAttachmentMode.shouldNotPropagate
        let matrix = CVBufferCopyAttachment(buffer, kCVImageBufferYCbCrMatrixKey, &mode)
        #expect(matrix as? String == kCVImageBufferYCbCrMatrix_ITU_R_709_2)
        #expect(mode == .shouldPropagate)
        // The older, unretained form, as renderers written before macOS 12 read it.
        let primaries = CVBufferGetAttachment(buffer, kCVImageBufferColorPrimariesKey, nil)?
            .takeUnretainedValue()
        #expect(primaries as? String == kCVImageBufferColorPrimaries_ITU_R_709_2)
        let attachments = try #require(CVBufferCopyAttachments(buffer, .shouldPropagate))
        #expect(
            attachments[kCVImageBufferTransferFunctionKey] as? String
                == kCVImageBufferTransferFunction_ITU_R_709_2)
        #expect(attachments.count == 3)
        #expect(CVImageBufferGetEncodedSize(buffer) == CGSize(width: 320, height: 240))

        // An untagged stream states no primaries or transfer; its matrix is the size's guess.
        let (plain, _) = try await VideoOutputBuffers.first(of: try Fixture.url(.mp4), format: nil)
        #expect(CVBufferCopyAttachment(plain, kCVImageBufferColorPrimariesKey, nil) == nil)
        #expect(CVBufferCopyAttachment(plain, kCVImageBufferTransferFunctionKey, nil) == nil)
        #expect(
            CVBufferCopyAttachment(plain, kCVImageBufferYCbCrMatrixKey, nil) as? String
                == kCVImageBufferYCbCrMatrix_ITU_R_601_4)
    }

    @Test func appsSetRemoveAndPropagateAttachments() async throws {
        let (first, _) = try await VideoOutputBuffers.first(of: try Fixture.url(.mp4), format: nil)
        let (second, _) = try await VideoOutputBuffers.first(
            of: try Fixture.url(.mp4), format: kCVPixelFormatType_32BGRA)
        CVBufferSetAttachment(first, "AppTag", "kept here" as NSString, .shouldNotPropagate)
        CVBufferSetAttachment(
            first, kCVImageBufferYCbCrMatrixKey, kCVImageBufferYCbCrMatrix_ITU_R_709_2,
            .shouldPropagate)
        #expect(CVBufferCopyAttachment(first, "AppTag", nil) as? String == "kept here")
        CVBufferPropagateAttachments(first, second)
        #expect(CVBufferCopyAttachment(second, "AppTag", nil) == nil)
        #expect(
            CVBufferCopyAttachment(second, kCVImageBufferYCbCrMatrixKey, nil) as? String
                == kCVImageBufferYCbCrMatrix_ITU_R_709_2)
        CVBufferRemoveAttachment(first, "AppTag")
        #expect(CVBufferCopyAttachment(first, "AppTag", nil) == nil)
        CVBufferRemoveAllAttachments(first)
        #expect(CVBufferCopyAttachments(first, .shouldPropagate) == nil)
    }
}
