// Playhead: a Blu-ray presentation graphics (PGS, `.sup`) subtitle stream written byte by
// byte: FFmpeg 5.1 has no PGS encoder, so the fixture is built from the public segment layout.
// Concurrency: pure functions.
import Foundation

/// Builds a raw PGS stream: display sets of segments, each segment `"PG"`, PTS and DTS
/// (32-bit, 90 kHz), a type byte and a 16-bit size, then the payload. ffmpeg reads the bytes
/// with its `sup` demuxer as `hdmv_pgs_subtitle`.
///
/// The stream has two display sets on a 640x480 presentation:
/// - at 1 s (epoch start): one 240x40 object at (160, 360), every row 120 pixels of palette
///   entry 1 (opaque red, Y 81 Cb 90 Cr 240), 110 of entry 2 (blue at alpha 128, Y 41 Cb 240
///   Cr 110) and 10 transparent ones (entry 0), sent in two object segments (first and last
///   fragment) as discs do with pictures over 64 KB;
/// - at 3 s: a composition with no objects, which clears the screen.
public enum PGSSubtitleBytes {
    /// The presentation (canvas) size the compositions declare.
    public static let presentation = (width: 640, height: 480)
    /// Where the object is drawn on the presentation, and its size.
    public static let object = (x: 160, y: 360, width: 240, height: 40)
    /// When the picture appears, in 90 kHz ticks (1 s).
    public static let showPTS = 90_000
    /// When the empty composition clears it, in 90 kHz ticks (3 s).
    public static let clearPTS = 270_000
    /// The palette: entry, Y, Cb, Cr, alpha (BT.601 video range; entry 0 stays transparent).
    public static let palette: [(entry: UInt8, y: UInt8, cb: UInt8, cr: UInt8, alpha: UInt8)] = [
        (1, 81, 90, 240, 255),
        (2, 41, 240, 110, 128),
    ]

    /// The whole `.sup` stream: the picture's display set, then the clearing one.
    public static func stream() -> [UInt8] {
        let window = windowDefinition(
            id: 0, x: object.x, y: object.y, width: object.width, height: object.height)
        let row =
            [UInt8](repeating: 1, count: 120) + [UInt8](repeating: 2, count: 110)
            + [UInt8](repeating: 0, count: object.width - 230)
        let rows = [[UInt8]](repeating: row, count: object.height)
        var bytes: [UInt8] = []
        bytes += segment(
            0x16, pts: showPTS,
            composition(
                number: 0, state: 0x80, objects: [(id: 0, window: 0, x: object.x, y: object.y)]))
        bytes += segment(0x17, pts: showPTS, window)
        bytes += segment(0x14, pts: showPTS, paletteDefinition(id: 0))
        for fragment in objectDefinition(id: 0, rows: rows, fragments: 2) {
            bytes += segment(0x15, pts: showPTS, fragment)
        }
        bytes += segment(0x80, pts: showPTS, [])
        bytes += segment(0x16, pts: clearPTS, composition(number: 1, state: 0x00, objects: []))
        bytes += segment(0x17, pts: clearPTS, window)
        bytes += segment(0x80, pts: clearPTS, [])
        return bytes
    }

    /// One segment: magic, PTS, DTS (0: "not given", as most discs have it), type, size, payload.
    static func segment(_ type: UInt8, pts: Int, _ payload: [UInt8]) -> [UInt8] {
        [0x50, 0x47] + be32(pts) + be32(0) + [type] + be16(payload.count) + payload
    }

    /// A presentation composition segment (0x16): the presentation size, frame rate code 0x10,
    /// composition number and state (0x80 epoch start, 0x40 acquisition point, 0 normal), no
    /// palette-only update, palette 0, then each object's id, window and top-left corner.
    static func composition(
        number: Int, state: UInt8, objects: [(id: Int, window: UInt8, x: Int, y: Int)]
    ) -> [UInt8] {
        var bytes = be16(presentation.width) + be16(presentation.height) + [0x10]
        bytes += be16(number) + [state, 0x00, 0x00, UInt8(objects.count)]
        for placed in objects {
            // 0x00: not cropped.
            bytes += be16(placed.id) + [placed.window, 0x00] + be16(placed.x) + be16(placed.y)
        }
        return bytes
    }

    /// A window definition segment (0x17) with one window.
    static func windowDefinition(id: UInt8, x: Int, y: Int, width: Int, height: Int) -> [UInt8] {
        [1, id] + be16(x) + be16(y) + be16(width) + be16(height)
    }

    /// A palette definition segment (0x14): id, version 0, then entry, Y, Cr, Cb, alpha
    /// (the segment stores Cr before Cb).
    static func paletteDefinition(id: UInt8) -> [UInt8] {
        var bytes: [UInt8] = [id, 0]
        for colour in palette {
            bytes += [colour.entry, colour.y, colour.cr, colour.cb, colour.alpha]
        }
        return bytes
    }

    /// Object definition segments (0x15) for one picture, its run-length data cut into
    /// `fragments` pieces. Each starts with the id, version 0 and sequence flags (0x80 first
    /// fragment, 0x40 last, both for a single one); the first then has a 24-bit length counting
    /// the 4 size bytes and all the run-length data, the width and the height; the others carry
    /// only the rest of the data.
    static func objectDefinition(id: Int, rows: [[UInt8]], fragments: Int = 1) -> [[UInt8]] {
        let width = rows.first?.count ?? 0
        let coded = rows.flatMap(runLengthCoded)
        let length = coded.count + 4
        let pieceSize = (coded.count + fragments - 1) / max(1, fragments)
        var segments: [[UInt8]] = []
        var start = 0
        while start < coded.count || segments.isEmpty {
            let end = min(coded.count, start + pieceSize)
            var flags: UInt8 = start == 0 ? 0x80 : 0x00
            if end == coded.count { flags |= 0x40 }
            var bytes = be16(id) + [0x00, flags]
            if start == 0 {
                bytes += [UInt8((length >> 16) & 0xFF), UInt8((length >> 8) & 0xFF)]
                bytes += [UInt8(length & 0xFF)] + be16(width) + be16(rows.count)
            }
            segments.append(bytes + coded[start..<end])
            start = end
        }
        return segments
    }

    /// One row of palette indices as PGS run-length codes, ending with the end-of-line code
    /// `00 00`. A non-zero byte is one pixel of that colour; after a `00` escape, the next byte's
    /// top bits say whether a colour follows (bit 7) and whether the length takes 14 bits
    /// (bit 6) instead of 6.
    static func runLengthCoded(_ row: [UInt8]) -> [UInt8] {
        var bytes: [UInt8] = []
        var start = 0
        while start < row.count {
            let colour = row[start]
            var end = start
            while end < row.count, row[end] == colour, end - start < 16383 { end += 1 }
            let count = end - start
            if colour != 0, count <= 2 {
                bytes += [UInt8](repeating: colour, count: count)
            } else {
                let flags: UInt8 = (colour == 0 ? 0x00 : 0x80) | (count > 63 ? 0x40 : 0x00)
                bytes.append(0)
                if count > 63 {
                    bytes += [flags | UInt8(count >> 8), UInt8(count & 0xFF)]
                } else {
                    bytes.append(flags | UInt8(count))
                }
                if colour != 0 { bytes.append(colour) }
            }
            start = end
        }
        return bytes + [0x00, 0x00]
    }

    private static func be16(_ value: Int) -> [UInt8] {
        [UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }

    private static func be32(_ value: Int) -> [UInt8] {
        [
            UInt8((value >> 24) & 0xFF), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF),
            UInt8(value & 0xFF),
        ]
    }
}
