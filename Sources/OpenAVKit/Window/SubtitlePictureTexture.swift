// Playhead: puts the libass renderer's flattened subtitle picture on screen: one streaming
// SDL texture holding the picture's pieces stacked top to bottom, re-uploaded only when the
// picture changed, each piece copied 1:1 onto the pixels of the video's rectangle.
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
    /// The pieces shown, each with the row of the texture it starts at.
    private var shown: [(piece: SubtitlePicture.Piece, row: Int)] = []

    init(renderer: OpaquePointer) { self.renderer = renderer }

    deinit { if let texture { SDL_DestroyTexture(texture) } }

    /// Uploads `picture` (call when it changed).
    func upload(_ picture: SubtitlePicture) {
        shown.removeAll(keepingCapacity: true)
        guard !picture.isEmpty else { return }
        var needed = (width: 0, height: 0)
        for piece in picture.pieces {
            needed.width = max(needed.width, piece.width)
            needed.height += piece.height
        }
        if texture == nil || needed.width > capacity.width || needed.height > capacity.height {
            if let texture { SDL_DestroyTexture(texture) }
            let width = max(needed.width, capacity.width)
            let height = max(needed.height, capacity.height)
            // ABGR8888 is R, G, B, A in memory on little-endian machines.
            texture = SDL_CreateTexture(
                renderer, SDL_PIXELFORMAT_ABGR8888.rawValue, Int32(SDL_TEXTUREACCESS_STREAMING.rawValue),
                Int32(width), Int32(height))
            guard let texture else {
                capacity = (0, 0)
                return
            }
            capacity = (width, height)
            SDL_SetTextureBlendMode(texture, SDL_BLENDMODE_BLEND)
        }
        guard let texture else { return }
        picture.rgba.withUnsafeBytes { bytes in
            var row = 0
            for piece in picture.pieces {
                var area = SDL_Rect(x: 0, y: Int32(row), w: Int32(piece.width), h: Int32(piece.height))
                _ = SDL_UpdateTexture(texture, &area, bytes.baseAddress! + piece.offset, Int32(piece.width * 4))
                shown.append((piece, row))
                row += piece.height
            }
        }
    }

    /// Draws the held picture with its frame's top-left corner at `origin` (in points),
    /// `scale` pixels to a point.
    func draw(frameOrigin origin: CGPoint, scale: CGFloat, lift: (SubtitlePicture.Piece) -> CGFloat = { _ in 0 }) {
        guard let texture, scale > 0 else { return }
        for (piece, row) in shown {
            let raised = lift(piece)
            var source = SDL_Rect(x: 0, y: Int32(row), w: Int32(piece.width), h: Int32(piece.height))
            var destination = SDL_FRect(
                x: Float(origin.x + CGFloat(piece.x) / scale), y: Float(origin.y - raised + CGFloat(piece.y) / scale),
                w: Float(CGFloat(piece.width) / scale), h: Float(CGFloat(piece.height) / scale))
            SDL_RenderCopyF(renderer, texture, &source, &destination)
        }
    }
}
