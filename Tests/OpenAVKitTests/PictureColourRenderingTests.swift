// Playhead: decoded pictures drawn by SDL's software renderer into an offscreen surface have
// the colours their streams state (matrix and range), as FFmpeg converts them: SDL converts the
// BT.601/BT.709 and full-range BT.601 planes it can, swscale the rest. The OpenGL renderer of a
// real window is checked by PlayerWindowXTests' colour test.
import FFmpegBridge
import Foundation
import OpenAVFoundation
import OpenCoreMedia
import PlayheadTestSupport
import Testing

@testable import OpenAVKit

@Suite struct PictureColourRenderingTests {
    @Test(arguments: [ColourClips.bt709SD, ColourClips.fullRangeVP9, ColourClips.bt2020])
    func aDecodedPictureIsDrawnInTheColourItsStreamStates(_ kind: ColourClips.Kind) throws {
        let url = try ColourClips.url(kind)
        let grabber = try FrameGrabber(location: try MediaLocation(url: url))
        let frame = try #require(grabber.frame(at: .zero))
        let target = try RenderTarget(offscreenWidth: frame.width, height: frame.height)
        let layer = AVPlayerLayer(player: nil)
        layer.frame = CGRect(x: 0, y: 0, width: frame.width, height: frame.height)
        layer.videoGravity = .resize
        layer.slot.put(frame)
        VideoRenderer(target: target).draw(layer, rotation: 0)
        let expected = try ColourClips.ffmpegColour(url)
        let shown = target.pixel(x: frame.width / 2, y: frame.height / 2)
        #expect(
            ColourClips.difference(expected, shown) <= 3,
            "\(kind): \(shown) against FFmpeg's \(expected)")
    }

    @Test func sdlConvertsTheMatricesAndRangesItKnowsAndSwscaleTheRest() {
        #expect(VideoRenderer.yuvConversion(for: nil) == .automatic)
        #expect(
            VideoRenderer.yuvConversion(for: PictureColour(matrix: .bt601, isFullRange: false))
                == .bt601)
        #expect(
            VideoRenderer.yuvConversion(for: PictureColour(matrix: .bt601, isFullRange: true))
                == .jpeg)
        #expect(
            VideoRenderer.yuvConversion(for: PictureColour(matrix: .bt709, isFullRange: false))
                == .bt709)
        #expect(
            VideoRenderer.yuvConversion(for: PictureColour(matrix: .bt709, isFullRange: true))
                == nil)
        #expect(
            VideoRenderer.yuvConversion(for: PictureColour(matrix: .bt2020, isFullRange: false))
                == nil)
    }
}
