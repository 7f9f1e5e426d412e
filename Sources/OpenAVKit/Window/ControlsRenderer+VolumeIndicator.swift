// Playhead: draws the volume indicator (a dark box below the top bar with a level bar and the
// volume as a percentage, or "Muted") and, in the same box, the audio delay.
//
// Concurrency: confined to the render thread that owns the renderer.
internal import CSDL2
import Foundation

extension ControlsRenderer {
    /// Where the indicator's box sits: centred, just below the top bar.
    static func volumeIndicatorBox(in layout: ControlsLayout) -> CGRect {
        CGRect(
            x: layout.size.width / 2 - 110, y: ControlsLayout.topBarHeight + 16, width: 220,
            height: 44)
    }

    func drawVolumeIndicator(_ indicator: VolumeIndicator, layout: ControlsLayout) {
        let box = Self.volumeIndicatorBox(in: layout)
        shapes.fill(box, Palette.bar)
        let track = CGRect(x: box.minX + 14, y: box.midY - 3, width: 130, height: 6)
        shapes.fill(track, Palette.track)
        let level = indicator.isMuted ? 0 : CGFloat(min(1, max(0, indicator.level)))
        shapes.fill(
            CGRect(x: track.minX, y: track.minY, width: track.width * level, height: track.height),
            Palette.icon)
        let label = CGRect(
            x: track.maxX + 8, y: box.minY, width: box.maxX - track.maxX - 16, height: box.height)
        text.draw(indicator.text, size: 14, color: Palette.text, in: label, alignment: .center)
    }

    /// Draws `text` alone in the indicator's box (the audio delay).
    func drawIndicatorText(_ text: String, layout: ControlsLayout) {
        let box = Self.volumeIndicatorBox(in: layout)
        shapes.fill(box, Palette.bar)
        self.text.draw(text, size: 14, color: Palette.text, in: box, alignment: .center)
    }
}
