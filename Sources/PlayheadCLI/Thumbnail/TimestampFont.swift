// Playhead: a 5×7 pixel font for the digits, colon and point of contact-sheet time stamps.

/// Draws time stamps such as `1:02.50` into RGBA pixels with a built-in bitmap font (no
/// font files needed, so sheets look the same on every machine).
enum TimestampFont {
    /// Glyph width and height in font pixels, and the gap after each glyph.
    static let glyphWidth = 5, glyphHeight = 7, spacing = 1

    /// Seven rows per glyph, the five high bits of each row's low five used left to right.
    private static let glyphs: [Character: [UInt8]] = [
        "0": [0x0E, 0x11, 0x13, 0x15, 0x19, 0x11, 0x0E],
        "1": [0x04, 0x0C, 0x04, 0x04, 0x04, 0x04, 0x0E],
        "2": [0x0E, 0x11, 0x01, 0x02, 0x04, 0x08, 0x1F],
        "3": [0x1F, 0x02, 0x04, 0x02, 0x01, 0x11, 0x0E],
        "4": [0x02, 0x06, 0x0A, 0x12, 0x1F, 0x02, 0x02],
        "5": [0x1F, 0x10, 0x1E, 0x01, 0x01, 0x11, 0x0E],
        "6": [0x06, 0x08, 0x10, 0x1E, 0x11, 0x11, 0x0E],
        "7": [0x1F, 0x01, 0x02, 0x04, 0x08, 0x08, 0x08],
        "8": [0x0E, 0x11, 0x11, 0x0E, 0x11, 0x11, 0x0E],
        "9": [0x0E, 0x11, 0x11, 0x0F, 0x01, 0x02, 0x0C],
        ":": [0x00, 0x0C, 0x0C, 0x00, 0x0C, 0x0C, 0x00],
        ".": [0x00, 0x00, 0x00, 0x00, 0x00, 0x0C, 0x0C],
    ]

    /// `seconds` as `M:SS.ss` (or `H:MM:SS.ss` from one hour).
    static func label(_ seconds: Double) -> String {
        let hundredths = Int((max(0, seconds) * 100).rounded())
        let (totalSeconds, fraction) = hundredths.quotientAndRemainder(dividingBy: 100)
        let (minutes, secs) = totalSeconds.quotientAndRemainder(dividingBy: 60)
        let fractionText = fraction < 10 ? "0\(fraction)" : "\(fraction)"
        let secondsText = secs < 10 ? "0\(secs)" : "\(secs)"
        if minutes >= 60 {
            let (hours, mins) = minutes.quotientAndRemainder(dividingBy: 60)
            return "\(hours):\(mins < 10 ? "0" : "")\(mins):\(secondsText).\(fractionText)"
        }
        return "\(minutes):\(secondsText).\(fractionText)"
    }

    /// The size in image pixels of `text` drawn at `scale`.
    static func size(of text: String, scale: Int) -> (width: Int, height: Int) {
        let count = text.count
        return ((count * (glyphWidth + spacing) - spacing) * scale, glyphHeight * scale)
    }

    /// Draws `text` in `color` with its top-left corner at (`x`, `y`) into a `width`-wide RGBA
    /// canvas; pixels outside the canvas are skipped. Unknown characters leave a blank.
    static func draw(
        _ text: String, into canvas: inout [UInt8], canvasWidth: Int, x: Int, y: Int, scale: Int,
        color: (UInt8, UInt8, UInt8)
    ) {
        let canvasHeight = canvas.count / (canvasWidth * 4)
        for (index, character) in text.enumerated() {
            guard let rows = glyphs[character] else { continue }
            let left = x + index * (glyphWidth + spacing) * scale
            for (row, bits) in rows.enumerated() {
                for column in 0..<glyphWidth where bits & (0x10 >> UInt8(column)) != 0 {
                    for dy in 0..<scale {
                        for dx in 0..<scale {
                            let px = left + column * scale + dx, py = y + row * scale + dy
                            guard px >= 0, px < canvasWidth, py >= 0, py < canvasHeight else { continue }
                            let offset = (py * canvasWidth + px) * 4
                            canvas[offset] = color.0
                            canvas[offset + 1] = color.1
                            canvas[offset + 2] = color.2
                            canvas[offset + 3] = 255
                        }
                    }
                }
            }
        }
    }
}
