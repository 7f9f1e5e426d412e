// Playhead: puts the libass renderer's flattened subtitle picture on screen: one streaming
// SDL texture, re-uploaded only when the picture changed, copied 1:1 onto the pixels of the
// video's rectangle.
//
// Concurrency: confined to the window's thread, which owns the SDL renderer.
internal import CSDL2
import Foundation

/// The texture holding the current subtitle picture.
final class SubtitlePictureTexture {
    private let renderer: OpaquePointer
    /// owned by this object; destroyed when replaced and in deinit
    private var texture: OpaquePointer?
    private var capacity = (width: 0, height: 0)
    private var shown = SubtitlePicture.empty

    init(renderer: OpaquePointer) { self.renderer = renderer }

    deinit { if let texture { SDL_DestroyTexture(texture) } }

    /// Uploads `picture` when it differs from the one held.
    func upload(_ picture: SubtitlePicture) {
        guard picture != shown else { return }
        shown = picture
        guard !picture.isEmpty else { return }
        if texture == nil || picture.width > capacity.width || picture.height > capacity.height {
            if let texture { SDL_DestroyTexture(texture) }
            let width = max(picture.width, capacity.width)
            let height = max(picture.height, capacity.height)
            // ABGR8888 is R, G, B, A in memory on little-endian machines.
            texture = SDL_CreateTexture(
                renderer, SDL_PIXELFORMAT_ABGR8888.rawValue, Int32(SDL_TEXTUREACCESS_STREAMING.rawValue),
                Int32(width), Int32(height))
            guard let texture else { return }
            capacity = (width, height)
            SDL_SetTextureBlendMode(texture, SDL_BLENDMODE_BLEND)
        }
        guard let texture else { return }
        var area = SDL_Rect(x: 0, y: 0, w: Int32(picture.width), h: Int32(picture.height))
        picture.rgba.withUnsafeBytes { bytes in
            _ = SDL_UpdateTexture(texture, &area, bytes.baseAddress, Int32(picture.width * 4))
        }
    }

    /// Draws the held picture with its frame's top-left corner at `origin` (in points),
    /// `scale` pixels to a point.
    func draw(frameOrigin origin: CGPoint, scale: CGFloat) {
        guard let texture, !shown.isEmpty, scale > 0 else { return }
        var source = SDL_Rect(x: 0, y: 0, w: Int32(shown.width), h: Int32(shown.height))
        var destination = SDL_FRect(
            x: Float(origin.x + CGFloat(shown.x) / scale), y: Float(origin.y + CGFloat(shown.y) / scale),
            w: Float(CGFloat(shown.width) / scale), h: Float(CGFloat(shown.height) / scale))
        SDL_RenderCopyF(renderer, texture, &source, &destination)
    }
}
