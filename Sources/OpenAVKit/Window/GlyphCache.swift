// Playhead: the SDL_ttf fonts and rendered-text textures shared by the control overlay's
// `TextRenderer` and the `SubtitleRenderer`.
//
// Concurrency: confined to the render thread that owns the renderer.
internal import CSDL2
import Foundation

/// Opens fonts on demand (one per size, style and outline) and keeps rendered strings as
/// textures, so text drawn every frame is rasterised once. Empty when the font file or SDL_ttf
/// is missing: every lookup answers nil and callers draw no text.
final class GlyphCache {
    /// A font as drawn: its pixel size, TTF_STYLE_* bits and outline width.
    struct FontKey: Hashable {
        var size: Int
        var style: Int32 = 0
        var outline: Int32 = 0
    }

    /// A rendered string: its texture and size in pixels.
    typealias Entry = (texture: OpaquePointer, width: Int, height: Int)

    private struct TextKey: Hashable {
        var text: String
        var font: FontKey
        var color: UInt32
    }

    private let renderer: OpaquePointer
    private let path: String
    private let limit: Int
    /// True when the font file exists and SDL_ttf started.
    let isAvailable: Bool
    /// owned by this object; closed in deinit
    private var fonts: [FontKey: OpaquePointer] = [:]
    /// owned by this object; destroyed when the cache starts over and in deinit
    private var texts: [TextKey: Entry] = [:]

    /// A cache drawing with the font at `path` into `renderer`, keeping up to `limit` strings
    /// before starting over.
    init(renderer: OpaquePointer, path: String, limit: Int) {
        self.renderer = renderer
        self.path = path
        self.limit = limit
        isAvailable = FileManager.default.fileExists(atPath: path) && SDLSubsystem.startFonts()
    }

    deinit {
        for entry in texts.values { SDL_DestroyTexture(entry.texture) }
        for font in fonts.values { TTF_CloseFont(font) }
    }

    /// The open font for `key`, opening it the first time.
    func font(_ key: FontKey) -> OpaquePointer? {
        if let font = fonts[key] { return font }
        guard isAvailable, let font = TTF_OpenFont(path, Int32(key.size)) else { return nil }
        if key.style != 0 { TTF_SetFontStyle(font, key.style) }
        if key.outline != 0 { TTF_SetFontOutline(font, key.outline) }
        fonts[key] = font
        return font
    }

    /// The size in pixels `text` takes in `key`'s font, without rendering it.
    func measure(_ text: String, font key: FontKey) -> (width: Int, height: Int)? {
        guard let font = font(key) else { return nil }
        var width: Int32 = 0
        var height: Int32 = 0
        guard TTF_SizeUTF8(font, text, &width, &height) == 0 else { return nil }
        return (Int(width), Int(height))
    }

    /// `text` rendered (anti-aliased) in `key`'s font and `color`, from the cache when drawn
    /// before.
    func texture(_ text: String, font key: FontKey, color: SDL_Color) -> Entry? {
        let packed =
            UInt32(color.r) << 24 | UInt32(color.g) << 16 | UInt32(color.b) << 8 | UInt32(color.a)
        let textKey = TextKey(text: text, font: key, color: packed)
        if let entry = texts[textKey] { return entry }
        guard let font = font(key), let surface = TTF_RenderUTF8_Blended(font, text, color) else {
            return nil
        }
        defer { SDL_FreeSurface(surface) }
        guard let texture = SDL_CreateTextureFromSurface(renderer, surface) else { return nil }
        if texts.count >= limit {
            for entry in texts.values { SDL_DestroyTexture(entry.texture) }
            texts.removeAll()
        }
        let entry = (texture, Int(surface.pointee.w), Int(surface.pointee.h))
        texts[textKey] = entry
        return entry
    }
}
