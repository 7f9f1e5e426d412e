// Playhead: draws the control overlay's scene: bars, buttons (as shapes), labels, the seek
// slider with its played and buffered parts, and the centre content.
//
// Concurrency: confined to the render thread that owns the renderer.
internal import CSDL2
import Foundation

/// Paints a `ControlsScene` laid out by a `ControlsLayout`.
final class ControlsRenderer {
    /// The overlay's colours (the tests read them back from pixels).
    enum Palette {
        static let bar = SDL_Color(0, 0, 0, 150)
        static let icon = SDL_Color(255, 255, 255)
        static let text = SDL_Color(235, 235, 235)
        static let track = SDL_Color(90, 90, 90)
        static let buffered = SDL_Color(170, 170, 170)
        static let played = SDL_Color(229, 57, 53)
        static let centerDisc = SDL_Color(0, 0, 0, 140)
        static let errorBox = SDL_Color(60, 0, 0, 200)
    }

    let shapes: Shapes
    let text: TextRenderer

    /// A renderer drawing with `target`.
    init(target: RenderTarget) {
        shapes = Shapes(renderer: target.renderer)
        text = TextRenderer(renderer: target.renderer)
    }

    /// Draws `scene` over whatever is already drawn.
    func draw(_ scene: ControlsScene, layout: ControlsLayout) {
        drawCenter(scene.center, layout: layout)
        if let indicator = scene.volumeIndicator { drawVolumeIndicator(indicator, layout: layout) }
        if let text = scene.audioDelayText ?? scene.subtitleDelayText { drawIndicatorText(text, layout: layout) }
        guard scene.barsVisible else { return }
        drawTopBar(scene, layout: layout)
        drawBottomBar(scene, layout: layout)
    }

    // MARK: - Bars

    private func drawTopBar(_ scene: ControlsScene, layout: ControlsLayout) {
        shapes.fill(layout.topBar, Palette.bar)
        text.draw(scene.title, size: 16, color: Palette.text, in: layout.titleArea)
        let box = layout.closeButton.insetBy(dx: 14, dy: 14)
        shapes.line(CGPoint(x: box.minX, y: box.minY), CGPoint(x: box.maxX, y: box.maxY), width: 2.5, Palette.icon)
        shapes.line(CGPoint(x: box.maxX, y: box.minY), CGPoint(x: box.minX, y: box.maxY), width: 2.5, Palette.icon)
    }

    private func drawBottomBar(_ scene: ControlsScene, layout: ControlsLayout) {
        shapes.fill(layout.bottomBar, Palette.bar)
        let play = layout.playPauseButton.insetBy(dx: 11, dy: 10)
        if scene.showsPause {
            drawPause(in: play)
        } else {
            drawPlay(in: play)
        }
        text.draw(scene.currentTimeText, size: 14, color: Palette.text, in: layout.currentTimeArea, alignment: .center)
        text.draw(scene.durationText, size: 14, color: Palette.text, in: layout.durationArea, alignment: .center)
        drawSlider(scene, track: layout.sliderTrack)
        drawSpeaker(in: layout.muteButton.insetBy(dx: 9, dy: 11), muted: scene.isMuted, volume: scene.volume)
        text.draw(scene.speedText, size: 14, color: Palette.text, in: layout.speedButton, alignment: .center)
        drawFullscreenIcon(in: layout.fullscreenButton.insetBy(dx: 11, dy: 11), leaving: scene.isFullscreen)
    }

    private func drawSlider(_ scene: ControlsScene, track: CGRect) {
        guard track.width > 0 else { return }
        shapes.fill(track, Palette.track)
        for range in scene.bufferedFractions {
            let x = track.minX + track.width * range.lowerBound
            let width = track.width * (range.upperBound - range.lowerBound)
            shapes.fill(CGRect(x: x, y: track.minY, width: width, height: track.height), Palette.buffered)
        }
        let playedWidth = track.width * scene.playedFraction
        shapes.fill(CGRect(x: track.minX, y: track.minY, width: playedWidth, height: track.height), Palette.played)
        let knob = CGPoint(x: track.minX + playedWidth, y: track.midY)
        shapes.circle(center: knob, radius: scene.isScrubbing ? 9 : 7, Palette.icon)
    }

    // MARK: - Centre

    private func drawCenter(_ center: CenterContent, layout: ControlsLayout) {
        let box = layout.centerButton
        let middle = CGPoint(x: box.midX, y: box.midY)
        switch center {
        case .none:
            return
        case .play:
            shapes.circle(center: middle, radius: box.width / 2, Palette.centerDisc)
            drawPlay(in: box.insetBy(dx: 30, dy: 26).offsetBy(dx: 4, dy: 0))
        case .replay:
            shapes.circle(center: middle, radius: box.width / 2, Palette.centerDisc)
            let radius = box.width / 2 - 22
            shapes.arc(center: middle, radius: radius, width: 6, from: -.pi / 2 + 0.5, to: 1.5 * .pi - 0.1, Palette.icon)
            // The arrow head at the start of the arc, pointing clockwise.
            let angle = -CGFloat.pi / 2 + 0.5
            let tip = CGPoint(x: middle.x + cos(angle) * (radius - 3), y: middle.y + sin(angle) * (radius - 3))
            shapes.triangle(
                CGPoint(x: tip.x - 2, y: tip.y - 12), CGPoint(x: tip.x + 11, y: tip.y + 2),
                CGPoint(x: tip.x - 6, y: tip.y + 10), Palette.icon)
        case .spinner(let step):
            for index in 0..<12 {
                let angle = CGFloat(index) / 12 * 2 * .pi
                let age = (step - index + 12) % 12
                let alpha = UInt8(max(40, 255 - age * 20))
                let dot = CGPoint(x: middle.x + cos(angle) * 28, y: middle.y + sin(angle) * 28)
                shapes.circle(center: dot, radius: 5, SDL_Color(255, 255, 255, alpha))
            }
        case .error(let message):
            let width = min(layout.size.width - 40, 560)
            let area = CGRect(x: layout.size.width / 2 - width / 2, y: middle.y - 30, width: width, height: 60)
            shapes.fill(area, Palette.errorBox)
            text.draw(message, size: 16, color: Palette.text, in: area.insetBy(dx: 12, dy: 0), alignment: .center)
        }
    }

    // MARK: - Icons

    private func drawPlay(in box: CGRect) {
        shapes.triangle(
            CGPoint(x: box.minX, y: box.minY), CGPoint(x: box.maxX, y: box.midY),
            CGPoint(x: box.minX, y: box.maxY), Palette.icon)
    }

    private func drawPause(in box: CGRect) {
        let bar = box.width * 0.35
        shapes.fill(CGRect(x: box.minX, y: box.minY, width: bar, height: box.height), Palette.icon)
        shapes.fill(CGRect(x: box.maxX - bar, y: box.minY, width: bar, height: box.height), Palette.icon)
    }

    private func drawSpeaker(in box: CGRect, muted: Bool, volume: Float) {
        let body = CGRect(x: box.minX, y: box.midY - box.height * 0.2, width: box.width * 0.22, height: box.height * 0.4)
        shapes.fill(body, Palette.icon)
        shapes.triangles(
            [
                CGPoint(x: body.maxX, y: body.minY), CGPoint(x: box.minX + box.width * 0.5, y: box.minY),
                CGPoint(x: box.minX + box.width * 0.5, y: box.maxY), CGPoint(x: body.maxX, y: body.minY),
                CGPoint(x: box.minX + box.width * 0.5, y: box.maxY), CGPoint(x: body.maxX, y: body.maxY),
            ], Palette.icon)
        let waves = CGPoint(x: box.minX + box.width * 0.5, y: box.midY)
        if muted || volume <= 0 {
            let x = box.minX + box.width * 0.62
            shapes.line(CGPoint(x: x, y: box.midY - 5), CGPoint(x: x + 10, y: box.midY + 5), width: 2, Palette.icon)
            shapes.line(CGPoint(x: x + 10, y: box.midY - 5), CGPoint(x: x, y: box.midY + 5), width: 2, Palette.icon)
            return
        }
        shapes.arc(center: waves, radius: box.width * 0.3, width: 2, from: -0.8, to: 0.8, Palette.icon)
        if volume > 0.5 {
            shapes.arc(center: waves, radius: box.width * 0.48, width: 2, from: -0.8, to: 0.8, Palette.icon)
        }
    }

    private func drawFullscreenIcon(in box: CGRect, leaving: Bool) {
        let arm = box.width * 0.35
        let corners: [(CGPoint, CGFloat, CGFloat)] = [
            (CGPoint(x: box.minX, y: box.minY), 1, 1), (CGPoint(x: box.maxX, y: box.minY), -1, 1),
            (CGPoint(x: box.minX, y: box.maxY), 1, -1), (CGPoint(x: box.maxX, y: box.maxY), -1, -1),
        ]
        for (corner, sx, sy) in corners {
            // Leaving fullscreen draws the brackets pointing inwards instead of outwards.
            let origin = leaving ? CGPoint(x: corner.x + sx * arm, y: corner.y + sy * arm) : corner
            let dx = leaving ? -sx : sx, dy = leaving ? -sy : sy
            shapes.line(origin, CGPoint(x: origin.x + dx * arm, y: origin.y), width: 2.5, Palette.icon)
            shapes.line(origin, CGPoint(x: origin.x, y: origin.y + dy * arm), width: 2.5, Palette.icon)
        }
    }
}
