// Playhead: the drawing surface a custom control overlay paints on: filled rectangles,
// circles, lines and text, in drawable pixels.
//
// Concurrency: confined to the render thread of the window that owns it (the window makes one
// and lends it to every `draw(on:)` call; its text cache lives as long as the window).
internal import CSDL2
import Foundation

/// A colour with 8-bit red, green, blue and opacity.
public struct OverlayColor: Equatable, Sendable {
    /// The red component, 0 to 255.
    public var red: UInt8
    /// The green component, 0 to 255.
    public var green: UInt8
    /// The blue component, 0 to 255.
    public var blue: UInt8
    /// 255 is opaque.
    public var alpha: UInt8

    /// A colour from its components.
    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// Opaque white.
    public static let white = OverlayColor(red: 255, green: 255, blue: 255)
    /// Opaque black.
    public static let black = OverlayColor(red: 0, green: 0, blue: 0)

    var sdl: SDL_Color { SDL_Color(r: red, g: green, b: blue, a: alpha) }
}

/// Where a `PlayerControlsOverlay` draws: shapes and text over the video.
public final class OverlayCanvas {
    /// The drawable size in pixels.
    public internal(set) var size: CGSize
    private let shapes: Shapes
    private let text: TextRenderer

    init(target: RenderTarget, size: CGSize) {
        self.size = size
        shapes = Shapes(renderer: target.renderer)
        text = TextRenderer(renderer: target.renderer)
    }

    /// Fills `rect` with `color` (blended by its opacity).
    public func fill(_ rect: CGRect, _ color: OverlayColor) { shapes.fill(rect, color.sdl) }

    /// Fills a disc.
    public func circle(center: CGPoint, radius: CGFloat, _ color: OverlayColor) {
        shapes.circle(center: center, radius: radius, color.sdl)
    }

    /// Draws a line `width` pixels thick.
    public func line(from start: CGPoint, to end: CGPoint, width: CGFloat, _ color: OverlayColor) {
        shapes.line(start, end, width: width, color.sdl)
    }

    /// Draws `string` in DejaVu Sans at `points`, vertically centred in `rect`, left-aligned
    /// or centred, clipped to `rect`.
    public func text(
        _ string: String, size points: Int, _ color: OverlayColor, in rect: CGRect,
        centered: Bool = false
    ) {
        text.draw(
            string, size: points, color: color.sdl, in: rect,
            alignment: centered ? .center : .leading)
    }
}
