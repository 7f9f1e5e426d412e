// Playhead: drawing at a 2× pixel density (a HiDPI window): the overlay is laid out in points
// and lands at twice the coordinates in pixels, with text rendered at the pixel size.
import Foundation
import OpenAVFoundation
import Testing

@testable import OpenAVKit

@Suite struct HiDPIRenderingTests {
    func black(_ target: RenderTarget) {
        Shapes(renderer: target.renderer).fill(
            CGRect(x: 0, y: 0, width: 4000, height: 4000), .init(0, 0, 0))
    }

    /// The right-most column with a lit pixel in row band `rows`.
    func rightmostLit(_ target: RenderTarget, width: Int, rows: Range<Int>) -> Int {
        var last = -1
        for x in 0..<width where rows.contains(where: { y in target.pixel(x: x, y: y).red > 100 }) {
            last = x
        }
        return last
    }

    @Test func controlsLaidOutInPointsLandAtTwiceTheirPositionInPixels() throws {
        let target = try RenderTarget(offscreenWidth: 800, height: 450)
        target.applyScale(x: 2, y: 2)
        black(target)
        let layout = ControlsLayout(size: CGSize(width: 400, height: 225))
        let controller = PlayerControlsController(
            actions: FakePlayer(), clock: ManualClock(), size: layout.size)
        controller.playbackStateDidChange(
            PlaybackState(phase: .ready, isPlaying: true, currentTime: 5, duration: 10))
        ControlsRenderer(target: target).draw(controller.scene, layout: layout)
        target.applyScale(x: 1, y: 1)
        // The pause icon's left bar, at (22, height - 28) in points, is at twice that in pixels.
        let bar = target.pixel(x: 44, y: 450 - 56)
        #expect(bar.red > 225 && bar.green > 225 && bar.blue > 225)
        // The slider track shows at twice its point position, and nothing at the point position.
        let track = layout.sliderTrack
        #expect(target.pixel(x: Int(track.midX * 2), y: Int(track.midY * 2)) != (0, 0, 0))
        #expect(target.pixel(x: Int(track.midX), y: Int(track.midY)) == (0, 0, 0))
    }

    @Test func textIsRenderedAtThePixelSizeNotScaledUp() throws {
        guard FileManager.default.fileExists(atPath: TextRenderer.fontPath) else { return }
        func textWidth(scale: Float) throws -> Int {
            let target = try RenderTarget(offscreenWidth: 600, height: 100)
            black(target)
            target.applyScale(x: scale, y: scale)
            TextRenderer(renderer: target.renderer).draw(
                "Playhead", size: 16, color: .init(255, 255, 255),
                in: CGRect(x: 0, y: 0, width: 280, height: 40))
            target.applyScale(x: 1, y: 1)
            return rightmostLit(target, width: 600, rows: 0..<Int(40 * scale))
        }
        let single = try textWidth(scale: 1)
        let double = try textWidth(scale: 2)
        #expect(single > 40)
        #expect(abs(double - 2 * single) <= 4, "1×: \(single) px, 2×: \(double) px")
    }
}
