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

    private struct Key: Hashable {
        var text: String
        var size: Int
        var color: UInt32
    }

    private let renderer: OpaquePointer
    private let path: String
    /// owned by this object; closed in deinit
    private var fonts: [Int: OpaquePointer] = [:]
    /// owned by this object; destroyed when evicted and in deinit
    private var cache: [Key: (texture: OpaquePointer, width: Int, height: Int)] = [:]
    private let available: Bool

    /// A text renderer for `renderer` using the font at `path`.
    init(renderer: OpaquePointer, path: String = TextRenderer.fontPath) {
        self.renderer = renderer
        self.path = path
        available = FileManager.default.fileExists(atPath: path) && SDLSubsystem.startFonts()
    }

    deinit {
        for entry in cache.values { SDL_DestroyTexture(entry.texture) }
        for font in fonts.values { TTF_CloseFont(font) }
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

    private func texture(for text: String, size: Int, color: SDL_Color)
        -> (texture: OpaquePointer, width: Int, height: Int)?
    {
        let packed = UInt32(color.r) << 24 | UInt32(color.g) << 16 | UInt32(color.b) << 8 | UInt32(color.a)
        let key = Key(text: text, size: size, color: packed)
        if let entry = cache[key] { return entry }
        guard available, let font = font(size: size) else { return nil }
        guard let surface = TTF_RenderUTF8_Blended(font, text, color) else { return nil }
        defer { SDL_FreeSurface(surface) }
        guard let texture = SDL_CreateTextureFromSurface(renderer, surface) else { return nil }
        if cache.count >= Self.cacheLimit {
            for entry in cache.values { SDL_DestroyTexture(entry.texture) }
            cache.removeAll()
        }
        let entry = (texture, Int(surface.pointee.w), Int(surface.pointee.h))
        cache[key] = entry
        return entry
    }

    private func font(size: Int) -> OpaquePointer? {
        if let font = fonts[size] { return font }
        guard let font = TTF_OpenFont(path, Int32(size)) else { return nil }
        fonts[size] = font
        return font
    }
}
