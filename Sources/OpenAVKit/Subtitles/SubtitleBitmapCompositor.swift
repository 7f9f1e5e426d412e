// Playhead: flattens the coverage masks a subtitle rasteriser (libass) returns into RGBA
// pictures, blended in order as libass intends (shadows, then outlines, then glyphs).
//
// Only the areas the masks cover are flattened: masks whose rectangles overlap (directly or
// through others) form one piece over their bounding box, and pieces never overlap, so each
// pixel comes out as if the whole frame had been flattened at once, without clearing,
// blending, converting and uploading the empty rows between a top line and a bottom line.
//
// Concurrency: a value-only helper; each call works on the picture it is given, on the
// caller's thread (the window's).

/// One coloured coverage mask: `bitmap[y * stride + x]` is how much of the colour covers that
/// pixel (0-255), placed at (`x`, `y`) on the frame.
struct SubtitleMask {
    var x: Int
    var y: Int
    var width: Int
    var height: Int
    var stride: Int
    var bitmap: UnsafePointer<UInt8>
    /// 0xRRGGBBTT: red, green, blue and transparency (0 opaque, 255 invisible), as libass gives.
    var color: UInt32
}

/// The flattened subtitles: disjoint rectangles of the frame, each with RGBA rows (straight
/// alpha) in `rgba`; everything outside them is transparent.
struct SubtitlePicture {
    /// One rectangle: `width * height * 4` bytes from `rgba[offset]`, rows of `width` pixels.
    struct Piece: Equatable {
        var x: Int
        var y: Int
        var width: Int
        var height: Int
        var offset: Int
    }

    var pieces: [Piece] = []
    /// The pieces' pixels one after another, not premultiplied (SDL's plain blending takes
    /// that); may be longer than the pieces use (its capacity is reused).
    var rgba: [UInt8] = []

    /// A picture of nothing.
    static let empty = SubtitlePicture()
    var isEmpty: Bool { pieces.isEmpty }

    /// The left edge of the box around every piece (0 when empty).
    var x: Int { pieces.map(\.x).min() ?? 0 }
    /// The top edge of the box around every piece (0 when empty).
    var y: Int { pieces.map(\.y).min() ?? 0 }
    /// The width of the box around every piece (0 when empty).
    var width: Int { (pieces.map { $0.x + $0.width }.max() ?? 0) - x }
    /// The height of the box around every piece (0 when empty).
    var height: Int { (pieces.map { $0.y + $0.height }.max() ?? 0) - y }
}

enum SubtitleBitmapCompositor {
    /// A mask's rectangle clipped to the frame, as [left, right) x [top, bottom).
    private struct Area {
        var left: Int
        var top: Int
        var right: Int
        var bottom: Int

        func overlaps(_ other: Area) -> Bool {
            left < other.right && other.left < right && top < other.bottom && other.top < bottom
        }

        mutating func formUnion(_ other: Area) {
            left = min(left, other.left)
            top = min(top, other.top)
            right = max(right, other.right)
            bottom = max(bottom, other.bottom)
        }
    }

    /// Blends `masks` in order into `picture` (whose buffer is reused), clipped to a
    /// `frameWidth` x `frameHeight` frame. Blending is done premultiplied, then the colours are
    /// divided by alpha for SDL's plain blend mode.
    static func flatten(
        _ masks: [SubtitleMask], frameWidth: Int, frameHeight: Int, into picture: inout SubtitlePicture
    ) {
        // Group the visible masks into pieces whose areas do not overlap.
        var areas: [Area] = []
        var members: [[Int]] = []
        for (index, mask) in masks.enumerated()
        where mask.width > 0 && mask.height > 0 && (mask.color & 0xFF) != 0xFF {
            var area = Area(
                left: max(0, mask.x), top: max(0, mask.y), right: min(frameWidth, mask.x + mask.width),
                bottom: min(frameHeight, mask.y + mask.height))
            guard area.left < area.right, area.top < area.bottom else { continue }
            var joined = [index]
            // Join every piece the area overlaps; a grown area may overlap more: until none does.
            var grown = true
            while grown {
                grown = false
                var other = areas.count - 1
                while other >= 0 {
                    if areas[other].overlaps(area) {
                        area.formUnion(areas.remove(at: other))
                        joined += members.remove(at: other)
                        grown = true
                    }
                    other -= 1
                }
            }
            areas.append(area)
            members.append(joined)
        }
        picture.pieces.removeAll(keepingCapacity: true)
        guard !areas.isEmpty else { return }
        // Lay the pieces out top to bottom.
        let order = areas.indices.sorted { (areas[$0].top, areas[$0].left) < (areas[$1].top, areas[$1].left) }
        var total = 0
        for index in order {
            let area = areas[index]
            let width = area.right - area.left
            let height = area.bottom - area.top
            picture.pieces.append(Piece(x: area.left, y: area.top, width: width, height: height, offset: total))
            total += width * height * 4
        }
        if picture.rgba.count < total {
            picture.rgba = [UInt8](repeating: 0, count: total)
        }
        let pieces = picture.pieces
        picture.rgba.withUnsafeMutableBufferPointer { buffer in
            let base = buffer.baseAddress!
            for (slot, index) in order.enumerated() {
                let piece = pieces[slot]
                let bytes = piece.width * piece.height * 4
                let pixels = UnsafeMutableBufferPointer(start: base + piece.offset, count: bytes)
                pixels.initialize(repeating: 0)
                let area = areas[index]
                // Blend in the masks' own order (libass's: shadows, outlines, glyphs).
                for member in members[index].sorted() {
                    blend(masks[member], into: pixels, area: area)
                }
                unpremultiply(pixels)
            }
        }
    }

    typealias Piece = SubtitlePicture.Piece

    /// `unpremultiplied[alpha << 8 | colour]`: (colour * 255 + alpha / 2) / alpha, at most 255.
    private static let unpremultiplied: [UInt8] = {
        var table = [UInt8](repeating: 0, count: 256 * 256)
        for alpha in 1..<256 {
            for colour in 0..<256 {
                table[alpha << 8 | colour] = UInt8(min(255, (colour * 255 + alpha / 2) / alpha))
            }
        }
        return table
    }()

    /// Divides each colour by its pixel's alpha (straight alpha out of premultiplied).
    private static func unpremultiply(_ pixels: UnsafeMutableBufferPointer<UInt8>) {
        unpremultiplied.withUnsafeBufferPointer { table in
            let table = table.baseAddress!
            let base = pixels.baseAddress!
            var offset = 0
            let count = pixels.count
            while offset < count {
                let alpha = Int(base[offset + 3])
                if alpha != 0 && alpha != 255 {
                    let row = table + (alpha << 8)
                    base[offset] = row[Int(base[offset])]
                    base[offset + 1] = row[Int(base[offset + 1])]
                    base[offset + 2] = row[Int(base[offset + 2])]
                }
                offset += 4
            }
        }
    }

    /// Blends one mask "over" the piece covering `area` (premultiplied arithmetic, rounded).
    private static func blend(_ mask: SubtitleMask, into pixels: UnsafeMutableBufferPointer<UInt8>, area: Area) {
        let opacity = 255 - Int(mask.color & 0xFF)
        guard opacity > 0 else { return }
        // R, G, B, A of the colour, 16 bits a lane: every sum below fits (at most 255 * 255 + 127).
        let colour = SIMD4<UInt16>(
            UInt16(mask.color >> 24), UInt16((mask.color >> 16) & 0xFF), UInt16((mask.color >> 8) & 0xFF), 255)
        let solid = SIMD4<UInt8>(truncatingIfNeeded: colour)
        let width = area.right - area.left
        let firstRow = max(mask.y, area.top)
        let lastRow = min(mask.y + mask.height, area.bottom)
        let firstColumn = max(mask.x, area.left)
        let lastColumn = min(mask.x + mask.width, area.right)
        guard firstRow < lastRow, firstColumn < lastColumn else { return }
        let base = UnsafeMutableRawPointer(pixels.baseAddress!)
        for row in firstRow..<lastRow {
            let source = mask.bitmap + (row - mask.y) * mask.stride - mask.x
            var pixel = base + ((row - area.top) * width + (firstColumn - area.left)) * 4
            for column in firstColumn..<lastColumn {
                let coverage = Int(source[column])
                if coverage != 0 {
                    // k: this mask's alpha at the pixel, 0...255.
                    let k = (coverage * opacity + 127) / 255
                    if k == 255 {
                        // (c * 255 + 127) / 255 is c: the colour replaces the pixel.
                        pixel.storeBytes(of: solid, as: SIMD4<UInt8>.self)
                    } else {
                        let under = SIMD4<UInt16>(truncatingIfNeeded: pixel.loadUnaligned(as: SIMD4<UInt8>.self))
                        let over = colour &* UInt16(k) &+ under &* UInt16(255 - k) &+ 127
                        pixel.storeBytes(of: SIMD4<UInt8>(truncatingIfNeeded: over / 255), as: SIMD4<UInt8>.self)
                    }
                }
                pixel += 4
            }
        }
    }
}
