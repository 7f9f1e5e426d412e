// Playhead: flattens the coverage masks a subtitle rasteriser (libass) returns into one RGBA
// picture, blended in order as libass intends (shadows, then outlines, then glyphs).
//
// Concurrency: a value-only helper; each call works on the buffer it is given, on the
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

/// The flattened picture: RGBA rows (straight alpha) covering `x`, `y`, `width`, `height` of the frame.
struct SubtitlePicture: Equatable {
    var x: Int
    var y: Int
    var width: Int
    var height: Int
    /// `width * height * 4` bytes, not premultiplied (SDL's plain blending takes that).
    var rgba: [UInt8]

    /// A picture of nothing.
    static let empty = SubtitlePicture(x: 0, y: 0, width: 0, height: 0, rgba: [])
    var isEmpty: Bool { width == 0 || height == 0 }
}

enum SubtitleBitmapCompositor {
    /// Blends `masks` in order into one RGBA picture over their bounding box, clipped to a
    /// `frameWidth` x `frameHeight` frame; reuses `storage`'s capacity. Blending is done
    /// premultiplied, then the colours are divided by alpha for SDL's plain blend mode.
    static func flatten(
        _ masks: [SubtitleMask], frameWidth: Int, frameHeight: Int, reusing storage: inout [UInt8]
    ) -> SubtitlePicture {
        var left = Int.max, top = Int.max, right = Int.min, bottom = Int.min
        for mask in masks where mask.width > 0 && mask.height > 0 && (mask.color & 0xFF) != 0xFF {
            left = min(left, max(0, mask.x))
            top = min(top, max(0, mask.y))
            right = max(right, min(frameWidth, mask.x + mask.width))
            bottom = max(bottom, min(frameHeight, mask.y + mask.height))
        }
        guard left < right, top < bottom else { return .empty }
        let width = right - left
        let height = bottom - top
        let count = width * height * 4
        if storage.count != count {
            storage = [UInt8](repeating: 0, count: count)
        } else {
            storage.withUnsafeMutableBytes { $0.initializeMemory(as: UInt8.self, repeating: 0) }
        }
        storage.withUnsafeMutableBufferPointer { pixels in
            for mask in masks { blend(mask, into: pixels, left: left, top: top, right: right, bottom: bottom) }
            unpremultiply(pixels)
        }
        return SubtitlePicture(x: left, y: top, width: width, height: height, rgba: storage)
    }

    /// Divides each colour by its pixel's alpha (straight alpha out of premultiplied).
    private static func unpremultiply(_ pixels: UnsafeMutableBufferPointer<UInt8>) {
        var offset = 0
        while offset < pixels.count {
            let alpha = Int(pixels[offset + 3])
            if alpha != 0 && alpha != 255 {
                for channel in 0..<3 {
                    pixels[offset + channel] = UInt8(min(255, (Int(pixels[offset + channel]) * 255 + alpha / 2) / alpha))
                }
            }
            offset += 4
        }
    }

    /// Blends one mask "over" the picture (premultiplied arithmetic, rounded).
    private static func blend(
        _ mask: SubtitleMask, into pixels: UnsafeMutableBufferPointer<UInt8>, left: Int, top: Int,
        right: Int, bottom: Int
    ) {
        let opacity = 255 - Int(mask.color & 0xFF)
        guard opacity > 0 else { return }
        let red = Int(mask.color >> 24)
        let green = Int((mask.color >> 16) & 0xFF)
        let blue = Int((mask.color >> 8) & 0xFF)
        let width = right - left
        let firstRow = max(mask.y, top)
        let lastRow = min(mask.y + mask.height, bottom)
        let firstColumn = max(mask.x, left)
        let lastColumn = min(mask.x + mask.width, right)
        guard firstRow < lastRow, firstColumn < lastColumn else { return }
        for row in firstRow..<lastRow {
            let source = mask.bitmap + (row - mask.y) * mask.stride - mask.x
            var offset = ((row - top) * width + (firstColumn - left)) * 4
            for column in firstColumn..<lastColumn {
                let coverage = Int(source[column])
                if coverage != 0 {
                    // k: this mask's alpha at the pixel, 0...255.
                    let k = (coverage * opacity + 127) / 255
                    let keep = 255 - k
                    pixels[offset] = UInt8((red * k + Int(pixels[offset]) * keep + 127) / 255)
                    pixels[offset + 1] = UInt8((green * k + Int(pixels[offset + 1]) * keep + 127) / 255)
                    pixels[offset + 2] = UInt8((blue * k + Int(pixels[offset + 2]) * keep + 127) / 255)
                    pixels[offset + 3] = UInt8((255 * k + Int(pixels[offset + 3]) * keep + 127) / 255)
                }
                offset += 4
            }
        }
    }
}
