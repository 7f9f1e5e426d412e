// Playhead: lays thumbnails out on a grid with a time stamp on each tile.
import OpenAVFoundation

/// A contact sheet: `columns`×`rows` tiles on a dark background, filled row by row.
///
/// Geometry (what the layout tests check): every tile is `tileWidth`×`tileHeight`; tile `i`
/// sits at column `i % columns`, row `i / columns`, with its top-left corner at
/// `(padding + column * (tileWidth + padding), padding + row * (tileHeight + padding))`.
/// A tile's time stamp is white text on a black box in its bottom-left corner.
struct ContactSheet {
    /// Tiles across and down.
    let columns: Int, rows: Int
    /// The size of every tile (the first image's size; others are placed top-left and cut).
    let tileWidth: Int, tileHeight: Int
    /// Pixels between tiles and around the edge.
    static let padding = 4
    /// The background colour.
    static let background: (UInt8, UInt8, UInt8) = (32, 32, 32)

    /// The sheet's width in pixels.
    var width: Int { columns * tileWidth + (columns + 1) * Self.padding }
    /// The sheet's height in pixels.
    var height: Int { rows * tileHeight + (rows + 1) * Self.padding }

    /// The top-left corner of tile `index`.
    func origin(ofTile index: Int) -> (x: Int, y: Int) {
        let column = index % columns, row = index / columns
        return (
            Self.padding + column * (tileWidth + Self.padding),
            Self.padding + row * (tileHeight + Self.padding)
        )
    }

    /// The scale of the time stamp font for this tile size (1 up to 179 px tall tiles).
    var stampScale: Int { max(1, tileHeight / 90) }

    /// The sheet with `tiles` (image and time) drawn in order; extra grid cells stay empty.
    func render(_ tiles: [(image: CGImage, seconds: Double)]) -> CGImage? {
        var canvas = [UInt8](repeating: 255, count: width * height * 4)
        for pixel in 0..<(width * height) {
            canvas[pixel * 4] = Self.background.0
            canvas[pixel * 4 + 1] = Self.background.1
            canvas[pixel * 4 + 2] = Self.background.2
        }
        for (index, tile) in tiles.prefix(columns * rows).enumerated() {
            let (x, y) = origin(ofTile: index)
            copy(tile.image, to: &canvas, x: x, y: y)
            stamp(TimestampFont.label(tile.seconds), on: &canvas, tileX: x, tileY: y)
        }
        return CGImage(width: width, height: height, rgbaBytes: canvas)
    }

    private func copy(_ image: CGImage, to canvas: inout [UInt8], x: Int, y: Int) {
        let copyWidth = min(image.width, tileWidth), copyHeight = min(image.height, tileHeight)
        image.rgbaBytes.withUnsafeBufferPointer { source in
            canvas.withUnsafeMutableBufferPointer { target in
                for row in 0..<copyHeight {
                    let from = row * image.bytesPerRow
                    let to = ((y + row) * width + x) * 4
                    for byte in 0..<(copyWidth * 4) { target[to + byte] = source[from + byte] }
                }
            }
        }
    }

    /// A black box with the label in white, in the tile's bottom-left corner.
    private func stamp(_ label: String, on canvas: inout [UInt8], tileX: Int, tileY: Int) {
        let scale = stampScale
        let text = TimestampFont.size(of: label, scale: scale)
        let margin = 2 * scale
        let boxWidth = min(tileWidth, text.width + 2 * margin)
        let boxHeight = min(tileHeight, text.height + 2 * margin)
        let boxY = tileY + tileHeight - boxHeight
        for row in boxY..<(boxY + boxHeight) {
            for column in tileX..<(tileX + boxWidth) {
                let offset = (row * width + column) * 4
                canvas[offset] = 0
                canvas[offset + 1] = 0
                canvas[offset + 2] = 0
                canvas[offset + 3] = 255
            }
        }
        TimestampFont.draw(
            label, into: &canvas, canvasWidth: width, x: tileX + margin, y: boxY + margin, scale: scale,
            color: (255, 255, 255))
    }
}
