// Playhead: draws subtitle cues over the video rect: outlined white (or styled) text placed
// by the cue's alignment and position, and subtitle pictures scaled with the video.
//
// Concurrency: confined to the render thread that owns the renderer.
internal import CSDL2
import Foundation
import OpenAVFoundation

/// Draws `AVSubtitleCue`s with SDL_ttf (DejaVu Sans, bold and italic by font style) and SDL
/// textures; draws no text when the font is missing.
final class SubtitleRenderer {
    private typealias FontKey = GlyphCache.FontKey

    /// A run of one line, measured in points.
    private struct Piece {
        var run: AVSubtitleTextRun
        var text: String
        var width: CGFloat
        var height: CGFloat
    }

    private static let cacheLimit = 96
    private let renderer: OpaquePointer
    private let glyphs: GlyphCache
    /// owned by this object; destroyed when evicted and in deinit
    private var pictures: [String: OpaquePointer] = [:]

    init(renderer: OpaquePointer, path: String = TextRenderer.fontPath) {
        self.renderer = renderer
        glyphs = GlyphCache(renderer: renderer, path: path, limit: Self.cacheLimit)
    }

    deinit {
        for texture in pictures.values { SDL_DestroyTexture(texture) }
    }

    /// The text size for a video rect: a sixteenth of its height, at least 12 px.
    static func fontSize(for videoRect: CGRect) -> Int { max(12, Int(videoRect.height / 16)) }

    /// Draws `cues` over `videoRect` (the rectangle the video occupies in the target); text at
    /// the bottom stays above `limit` (the top of the control bar while it shows).
    func draw(_ cues: [AVSubtitleCue], in videoRect: CGRect, above limit: CGFloat = .infinity) {
        guard videoRect.width >= 1, videoRect.height >= 1 else { return }
        var bottomOffset: CGFloat = 0
        for cue in cues {
            for (index, bitmap) in cue.bitmaps.enumerated() {
                draw(bitmap, key: "\(cue.timeRange.start.seconds)-\(index)", in: videoRect)
            }
            if !cue.runs.isEmpty {
                bottomOffset += drawText(
                    cue, in: videoRect, stackedAbove: bottomOffset, limit: limit)
            }
        }
    }

    // MARK: - Text

    /// Draws the cue's text; returns the height used when it stacks at the bottom.
    private func drawText(
        _ cue: AVSubtitleCue, in video: CGRect, stackedAbove offset: CGFloat, limit: CGFloat
    ) -> CGFloat {
        // On a HiDPI window the renderer scales points to pixels: glyphs are rendered at the
        // pixel size so they stay sharp, and laid out in points.
        var scaleX: Float = 1
        var scaleY: Float = 1
        SDL_RenderGetScale(renderer, &scaleX, &scaleY)
        let scale = CGFloat(scaleX > 0 ? scaleX : 1)
        let size = max(1, Int((CGFloat(Self.fontSize(for: video)) * scale).rounded()))
        let outline = Int32(max(1, size / 12))
        let lines = Self.lines(of: cue.runs).map { line in
            line.compactMap { run -> Piece? in
                guard let measured = measure(run.text, font: fontKey(run, size: size, outline: 0))
                else { return nil }
                return Piece(
                    run: run, text: run.text, width: CGFloat(measured.0) / scale,
                    height: CGFloat(measured.1) / scale)
            }
        }
        let lineHeight = lines.compactMap { $0.map(\.height).max() }.max() ?? CGFloat(size) / scale
        let blockHeight = lineHeight * CGFloat(lines.count)
        let margin = video.height * 0.05
        let column = (cue.alignment - 1) % 3  // 0 left, 1 centre, 2 right
        let row = (cue.alignment - 1) / 3  // 0 bottom, 1 middle, 2 top
        var anchorX: CGFloat
        var top: CGFloat
        if let position = cue.position {
            anchorX = video.minX + position.x * video.width
            let anchorY = video.minY + position.y * video.height
            top = row == 0 ? anchorY - blockHeight : row == 1 ? anchorY - blockHeight / 2 : anchorY
        } else {
            anchorX =
                column == 0 ? video.minX + margin : column == 1 ? video.midX : video.maxX - margin
            top =
                row == 0
                ? min(video.maxY - margin, limit - margin / 2) - blockHeight - offset
                : row == 1 ? video.midY - blockHeight / 2 : video.minY + margin
        }
        for (index, line) in lines.enumerated() {
            let width = line.map(\.width).reduce(0, +)
            var x = column == 0 ? anchorX : column == 1 ? anchorX - width / 2 : anchorX - width
            let y = top + CGFloat(index) * lineHeight
            for piece in line {
                drawPiece(piece, size: size, outline: outline, scale: scale, x: x, y: y)
                x += piece.width
            }
        }
        return cue.position == nil && row == 0 ? blockHeight + lineHeight / 4 : 0
    }

    /// Splits runs at "\n" into lines of runs.
    static func lines(of runs: [AVSubtitleTextRun]) -> [[AVSubtitleTextRun]] {
        var lines: [[AVSubtitleTextRun]] = [[]]
        for run in runs {
            let parts = run.text.split(separator: "\n", omittingEmptySubsequences: false)
            for (index, part) in parts.enumerated() {
                if index > 0 { lines.append([]) }
                if !part.isEmpty {
                    var piece = run
                    piece.text = String(part)
                    lines[lines.count - 1].append(piece)
                }
            }
        }
        return lines.filter { !$0.isEmpty }
    }

    /// Draws one run at (`x`, `y`) in points: its black outline, then the text. `size` and
    /// `outline` are in pixels (`scale` pixels a point).
    private func drawPiece(
        _ piece: Piece, size: Int, outline: Int32, scale: CGFloat, x: CGFloat, y: CGFloat
    ) {
        let black = SDL_Color(r: 0, g: 0, b: 0, a: 255)
        func place(_ texture: OpaquePointer, _ width: Int, _ height: Int, offset: CGFloat) {
            var rect = SDL_FRect(
                x: Float((x - offset).rounded()), y: Float((y - offset).rounded()),
                w: Float(CGFloat(width) / scale), h: Float(CGFloat(height) / scale))
            SDL_RenderCopyF(renderer, texture, nil, &rect)
        }
        if let border = texture(
            piece.text, font: fontKey(piece.run, size: size, outline: outline), color: black)
        {
            place(border.texture, border.width, border.height, offset: CGFloat(outline) / scale)
        }
        let colour =
            piece.run.color.map {
                SDL_Color(
                    r: Self.byte($0.red), g: Self.byte($0.green), b: Self.byte($0.blue),
                    a: Self.byte($0.alpha))
            } ?? SDL_Color(r: 255, g: 255, b: 255, a: 255)
        if let fill = texture(
            piece.text, font: fontKey(piece.run, size: size, outline: 0), color: colour)
        {
            place(fill.texture, fill.width, fill.height, offset: 0)
        }
    }

    private static func byte(_ value: Double) -> UInt8 {
        UInt8(max(0, min(255, (value * 255).rounded())))
    }

    private func fontKey(_ run: AVSubtitleTextRun, size: Int, outline: Int32) -> FontKey {
        var style: Int32 = 0
        if run.isBold { style |= Int32(TTF_STYLE_BOLD) }
        if run.isItalic { style |= Int32(TTF_STYLE_ITALIC) }
        if run.isUnderlined { style |= Int32(TTF_STYLE_UNDERLINE) }
        return FontKey(size: size, style: style, outline: outline)
    }

    private func measure(_ text: String, font key: FontKey) -> (Int, Int)? {
        glyphs.measure(text, font: key).map { ($0.width, $0.height) }
    }

    private func texture(_ text: String, font key: FontKey, color: SDL_Color) -> GlyphCache.Entry? {
        glyphs.texture(text, font: key, color: color)
    }

    // MARK: - Pictures

    private func draw(_ bitmap: AVSubtitleBitmap, key: String, in video: CGRect) {
        guard bitmap.pixelWidth > 0, bitmap.pixelHeight > 0,
            bitmap.rgba.count >= bitmap.pixelWidth * bitmap.pixelHeight * 4
        else { return }
        let texture: OpaquePointer
        if let cached = pictures[key] {
            texture = cached
        } else {
            // ABGR8888 is R, G, B, A in memory on little-endian machines.
            guard
                let made = SDL_CreateTexture(
                    renderer, SDL_PIXELFORMAT_ABGR8888.rawValue,
                    Int32(SDL_TEXTUREACCESS_STATIC.rawValue),
                    Int32(bitmap.pixelWidth), Int32(bitmap.pixelHeight))
            else { return }
            bitmap.rgba.withUnsafeBytes { bytes in
                _ = SDL_UpdateTexture(made, nil, bytes.baseAddress, Int32(bitmap.pixelWidth * 4))
            }
            SDL_SetTextureBlendMode(made, SDL_BLENDMODE_BLEND)
            if pictures.count >= 16 {
                for old in pictures.values { SDL_DestroyTexture(old) }
                pictures.removeAll()
            }
            pictures[key] = made
            texture = made
        }
        var destination = VideoRenderer.sdlRect(
            CGRect(
                x: video.minX + bitmap.x * video.width, y: video.minY + bitmap.y * video.height,
                width: bitmap.width * video.width, height: bitmap.height * video.height))
        SDL_RenderCopy(renderer, texture, nil, &destination)
    }
}

extension RenderTarget {
    /// Makes later drawing use points of `scale` pixels, as a HiDPI window does (offscreen
    /// targets use it to check HiDPI layout).
    func setPointScale(_ scale: Float) { SDL_RenderSetScale(renderer, scale, scale) }
}
