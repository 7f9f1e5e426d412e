// Playhead: text for the control overlay, drawn with SDL_ttf and cached as textures.
//
// Concurrency: confined to the render thread that owns the renderer.
internal import CSDL2
import Foundation

/// Draws short strings in DejaVu Sans; draws nothing when the font is missing.
final class TextRenderer {
    /// The font the overlay uses.
    static let fontPath = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
    /// How many rendered strings to keep before starting over.
    private static let cacheLimit = 128

    enum Alignment { case leading, center, trailing }

    private let renderer: OpaquePointer
    private let glyphs: GlyphCache

    /// A text renderer for `renderer` using the font at `path`.
    init(renderer: OpaquePointer, path: String = TextRenderer.fontPath) {
        self.renderer = renderer
        glyphs = GlyphCache(renderer: renderer, path: path, limit: Self.cacheLimit)
    }

    /// Draws `text` vertically centred in `rect`, aligned horizontally as asked, clipped to
    /// `rect`'s width by dropping characters at the end.
    func draw(
        _ text: String, size: Int, color: SDL_Color, in rect: CGRect,
        alignment: Alignment = .leading
    ) {
        // On a HiDPI window the renderer scales points to pixels: render the glyphs at the
        // pixel size so they stay sharp, and place them in points.
        var scaleX: Float = 1, scaleY: Float = 1
        SDL_RenderGetScale(renderer, &scaleX, &scaleY)
        let scale = CGFloat(scaleX > 0 ? scaleX : 1)
        let pixelSize = max(1, Int((CGFloat(size) * scale).rounded()))
        guard !text.isEmpty, var entry = texture(for: text, size: pixelSize, color: color) else { return }
        var shown = text
        while CGFloat(entry.width) / scale > rect.width, shown.count > 1 {
            shown = String(shown.dropLast(2)) + "…"
            guard let shorter = texture(for: shown, size: pixelSize, color: color) else { return }
            entry = shorter
        }
        let width = CGFloat(entry.width) / scale, height = CGFloat(entry.height) / scale
        let x: CGFloat
        switch alignment {
        case .leading: x = rect.minX
        case .center: x = rect.midX - width / 2
        case .trailing: x = rect.maxX - width
        }
        var destination = SDL_FRect(
            x: Float(x.rounded()), y: Float((rect.midY - height / 2).rounded()), w: Float(width), h: Float(height))
        SDL_RenderCopyF(renderer, entry.texture, nil, &destination)
    }

    private func texture(for text: String, size: Int, color: SDL_Color) -> GlyphCache.Entry? {
        glyphs.texture(text, font: GlyphCache.FontKey(size: size), color: color)
    }
}
