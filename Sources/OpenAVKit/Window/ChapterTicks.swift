// Playhead: chapter marks drawn on the control overlay's seek slider.
//
// Concurrency: confined to the render thread that owns the renderer.
internal import CSDL2
import Foundation

/// Draws a short light tick across the slider track at each chapter start.
enum ChapterTicks {
    /// Draws ticks at `fractions` (0...1) of `track`.
    static func draw(_ fractions: [Double], on track: CGRect, renderer: OpaquePointer) {
        guard track.width > 0, !fractions.isEmpty else { return }
        let shapes = Shapes(renderer: renderer)
        for fraction in fractions {
            let x = track.minX + CGFloat(fraction) * track.width
            shapes.fill(
                CGRect(x: x.rounded() - 1, y: track.midY - 6, width: 2, height: 12),
                SDL_Color(r: 255, g: 210, b: 80, a: 255))
        }
    }
}
