// Playhead: the player layer and the control overlay drawn by SDL's software renderer into
// an offscreen surface, checked pixel by pixel (no display needed).
import FFmpegBridge
import Foundation
import OpenAVFoundation
import Testing

@testable import OpenAVKit

@Suite struct OffscreenRenderingTests {
    /// Clears a `width`×`height` offscreen target to black and draws `picture` through a layer
    /// with `gravity`.
    func render(
        _ picture: TestPicture, gravity: AVLayerVideoGravity, width: Int = 400, height: Int = 400,
        rotation: Int = 0
    ) throws -> RenderTarget {
        let target = try RenderTarget(offscreenWidth: width, height: height)
        let layer = AVPlayerLayer(player: nil)
        layer.frame = CGRect(x: 0, y: 0, width: width, height: height)
        layer.videoGravity = gravity
        layer.slot.put(picture)
        let renderer = VideoRenderer(target: target)
        clear(target)
        renderer.draw(layer, rotation: rotation)
        return target
    }

    func clear(_ target: RenderTarget) {
        let shapes = Shapes(renderer: target.renderer)
        shapes.fill(CGRect(x: 0, y: 0, width: 4000, height: 4000), .init(0, 0, 0))
    }

    func isBlack(_ pixel: (red: UInt8, green: UInt8, blue: UInt8)) -> Bool {
        pixel.red < 8 && pixel.green < 8 && pixel.blue < 8
    }

    func isWhite(_ pixel: (red: UInt8, green: UInt8, blue: UInt8)) -> Bool {
        pixel.red > 235 && pixel.green > 235 && pixel.blue > 235
    }

    func isGreen(_ pixel: (red: UInt8, green: UInt8, blue: UInt8)) -> Bool {
        pixel.red < 40 && pixel.green > 200 && pixel.blue < 40
    }

    /// 160×90 (16:9) with a green stripe down the left 16 columns, white elsewhere.
    let striped = TestPicture.rgba(width: 160, height: 90) { x, _ in x < 16 ? (0, 255, 0) : (255, 255, 255) }

    @Test func aspectLetterboxesAWidePictureInASquare() async throws {
        // A YUV picture uploads to an IYUV texture without conversion.
        let target = try render(TestPicture.yuv(width: 160, height: 90, y: 235), gravity: .resizeAspect)
        // 400 wide → 225 high, centred: rows 87…312 show video, the rest stays black.
        #expect(isBlack(target.pixel(x: 200, y: 40)))
        #expect(isBlack(target.pixel(x: 200, y: 84)))
        #expect(isWhite(target.pixel(x: 200, y: 91)))
        #expect(isWhite(target.pixel(x: 200, y: 200)))
        #expect(isWhite(target.pixel(x: 200, y: 308)))
        #expect(isBlack(target.pixel(x: 200, y: 316)))
        #expect(isBlack(target.pixel(x: 200, y: 380)))
    }

    @Test func aspectPillarboxesATallPicture() async throws {
        let target = try render(TestPicture.yuv(width: 90, height: 160, y: 235), gravity: .resizeAspect)
        #expect(isBlack(target.pixel(x: 40, y: 200)))
        #expect(isWhite(target.pixel(x: 200, y: 200)))
        #expect(isBlack(target.pixel(x: 360, y: 200)))
    }

    @Test func gravityModesFitTheStripedPictureDifferently() async throws {
        let aspect = try render(striped, gravity: .resizeAspect)
        #expect(isGreen(aspect.pixel(x: 10, y: 200)))  // the stripe shows at the left edge…
        #expect(isBlack(aspect.pixel(x: 10, y: 40)))  // …inside the letterbox

        let fill = try render(striped, gravity: .resizeAspectFill)
        // Scaled to 711×400 and cropped by 155 px a side: the stripe is cut away, no bars.
        #expect(isWhite(fill.pixel(x: 10, y: 200)))
        #expect(isWhite(fill.pixel(x: 200, y: 5)))
        #expect(isWhite(fill.pixel(x: 200, y: 395)))

        let resize = try render(striped, gravity: .resize)
        // Stretched to 400×400: stripe 40 px wide, full height, no bars.
        #expect(isGreen(resize.pixel(x: 10, y: 5)))
        #expect(isGreen(resize.pixel(x: 35, y: 395)))
        #expect(isWhite(resize.pixel(x: 45, y: 200)))
    }

    @Test func samplePixelAspectWidensThePicture() async throws {
        // 100×100 pixels twice as wide as high display as 200×100: a 400×200 band.
        let picture = TestPicture.yuv(width: 100, height: 100, y: 235, sampleAspect: SampleAspect(2, 1))
        let target = try render(picture, gravity: .resizeAspect)
        #expect(isBlack(target.pixel(x: 200, y: 90)))
        #expect(isWhite(target.pixel(x: 200, y: 110)))
        #expect(isWhite(target.pixel(x: 200, y: 290)))
        #expect(isBlack(target.pixel(x: 200, y: 310)))
    }

    @Test func aQuarterTurnStandsAWidePictureUpright() async throws {
        let target = try render(striped, gravity: .resizeAspect, rotation: 90)
        // Displayed 90×160 → 225×400, centred: columns 87…312.
        #expect(isBlack(target.pixel(x: 60, y: 200)))
        #expect(isWhite(target.pixel(x: 200, y: 200)))
        #expect(isBlack(target.pixel(x: 340, y: 200)))
        // Turned clockwise, the stripe that was on the left now runs along the top.
        #expect(isGreen(target.pixel(x: 200, y: 10)))
        #expect(isWhite(target.pixel(x: 200, y: 390)))
    }

    @Test func videoRectFollowsGravity() async {
        let bounds = CGRect(x: 0, y: 0, width: 400, height: 400)
        let content = CGSize(width: 160, height: 90)
        #expect(VideoGeometry.videoRect(content: content, in: bounds, gravity: .resizeAspect) == CGRect(x: 0, y: 87.5, width: 400, height: 225))
        let fill = VideoGeometry.videoRect(content: content, in: bounds, gravity: .resizeAspectFill)
        #expect(abs(fill.width - 711.11) < 0.01 && fill.height == 400 && abs(fill.midX - 200) < 0.001)
        #expect(VideoGeometry.videoRect(content: content, in: bounds, gravity: .resize) == bounds)
        #expect(VideoGeometry.displaySize(width: 160, height: 90, sampleAspect: nil, rotationDegrees: 270) == CGSize(width: 90, height: 160))
    }

    // MARK: - Overlay

    @Test func theSliderShowsPlayedBufferedAndUnloadedParts() async throws {
        let target = try RenderTarget(offscreenWidth: 800, height: 450)
        clear(target)
        let layout = ControlsLayout(size: CGSize(width: 800, height: 450))
        let player = FakePlayer()
        let controller = PlayerControlsController(
            actions: player, clock: ManualClock(), size: layout.size)
        controller.playbackStateDidChange(
            PlaybackState(
                title: "clip", phase: .ready, isPlaying: false, currentTime: 20, duration: 100,
                loadedRanges: [0...60]))
        ControlsRenderer(target: target).draw(controller.scene, layout: layout)
        let track = layout.sliderTrack
        func color(at fraction: Double) -> (red: UInt8, green: UInt8, blue: UInt8) {
            target.pixel(x: Int(track.minX + track.width * fraction), y: Int(track.midY))
        }
        let played = ControlsRenderer.Palette.played, buffered = ControlsRenderer.Palette.buffered
        let unloaded = ControlsRenderer.Palette.track
        #expect(color(at: 0.1) == (played.r, played.g, played.b))
        #expect(color(at: 0.4) == (buffered.r, buffered.g, buffered.b))
        #expect(color(at: 0.55) == (buffered.r, buffered.g, buffered.b))
        #expect(color(at: 0.8) == (unloaded.r, unloaded.g, unloaded.b))
        // Paused: the big play button's white triangle sits in the middle of the window.
        #expect(isWhite(target.pixel(x: 400, y: 225)))
    }

    @Test func hiddenBarsDrawNothingOverTheVideo() async throws {
        let target = try RenderTarget(offscreenWidth: 800, height: 450)
        clear(target)
        let layout = ControlsLayout(size: CGSize(width: 800, height: 450))
        let clock = ManualClock()
        let controller = PlayerControlsController(actions: FakePlayer(), clock: clock, size: layout.size)
        controller.playbackStateDidChange(PlaybackState(phase: .ready, isPlaying: true, duration: 10))
        clock.advance(by: 4)
        ControlsRenderer(target: target).draw(controller.scene, layout: layout)
        for y in stride(from: 0, to: 450, by: 15) {
            for x in stride(from: 0, to: 800, by: 40) {
                #expect(isBlack(target.pixel(x: x, y: y)), "(\(x), \(y))")
            }
        }
    }
}
