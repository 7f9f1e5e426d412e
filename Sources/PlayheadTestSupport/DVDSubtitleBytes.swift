// Playhead: DVD subtitle pictures written byte by byte (ffmpeg cannot turn text into bitmap
// subtitles), wrapped in a minimal MPEG program stream that ffmpeg can remux.
// Concurrency: pure functions.
import Foundation

/// Builds DVD sub-picture units (SPU) and an MPEG-PS holding them as private stream 1,
/// substream 0x20, which ffmpeg reads as a `dvd_subtitle` stream.
enum DVDSubtitleBytes {
    /// Two opaque boxes: (100…219, 180…199) at 1 s for 2 s, (40…159, 20…39) at 3 s for 1 s.
    static func programStream() -> [UInt8] {
        pack() + pes(pts: 90_000, spu(x1: 100, x2: 219, y1: 180, y2: 199, stopDelay: 176))
            + pack() + pes(pts: 270_000, spu(x1: 40, x2: 159, y1: 20, y2: 39, stopDelay: 88))
            + [0, 0, 1, 0xB9]
    }

    /// One SPU: every line filled with colour 1 (opaque), shown at once and hidden after
    /// `stopDelay` units of 1024/90000 s.
    static func spu(x1: Int, x2: Int, y1: Int, y2: Int, stopDelay: Int) -> [UInt8] {
        let height = y2 - y1 + 1
        let line: [UInt8] = [0x00, 0x01]  // run "to the end of the line" of colour 1
        let top = Array([[UInt8]](repeating: line, count: (height + 1) / 2).joined())
        let bottom = Array([[UInt8]](repeating: line, count: height / 2).joined())
        let topOffset = 4
        let bottomOffset = 4 + top.count
        let firstControl = bottomOffset + bottom.count
        let secondControl = firstControl + 24
        var control: [UInt8] = be16(0) + be16(secondControl)
        control += [0x03, 0x00, 0xF0]  // palette entries
        control += [0x04, 0x00, 0xF0]  // colour 1 opaque, the rest transparent
        control += [0x05, UInt8(x1 >> 4), UInt8((x1 & 0xF) << 4 | x2 >> 8), UInt8(x2 & 0xFF)]
        control += [UInt8(y1 >> 4), UInt8((y1 & 0xF) << 4 | y2 >> 8), UInt8(y2 & 0xFF)]
        control += [0x06] + be16(topOffset) + be16(bottomOffset)
        control += [0x01, 0xFF]  // start display
        let stop: [UInt8] = be16(stopDelay) + be16(secondControl) + [0x02, 0xFF]
        let body = top + bottom + control + stop
        return be16(4 + body.count) + be16(firstControl) + body
    }

    /// An MPEG-2 pack header with SCR 0.
    static func pack() -> [UInt8] { [0, 0, 1, 0xBA, 0x44, 0, 4, 0, 4, 1, 0x01, 0x89, 0xC3, 0xF8] }

    /// A private-stream-1 PES packet with a PTS (90 kHz) carrying `payload` in substream 0x20.
    static func pes(pts: Int, _ payload: [UInt8]) -> [UInt8] {
        let stamp: [UInt8] = [
            UInt8(0x21 | ((pts >> 29) & 0x0E)), UInt8((pts >> 22) & 0xFF),
            UInt8(((pts >> 14) & 0xFE) | 1),
            UInt8((pts >> 7) & 0xFF), UInt8(((pts << 1) & 0xFE) | 1),
        ]
        let data: [UInt8] = [0x81, 0x80, 5] + stamp + [0x20] + payload
        return [0, 0, 1, 0xBD] + be16(data.count) + data
    }

    private static func be16(_ value: Int) -> [UInt8] {
        [UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }
}
