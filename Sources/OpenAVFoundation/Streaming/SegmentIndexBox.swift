// Playhead: the segment index box (`sidx`, ISO/IEC 14496-12 §8.16.3) a DASH `SegmentBase`
// points at with `indexRange`: where each subsegment of a single-file Representation lies in
// the file and how long it plays. FFmpeg keeps its own reading of the box inside the MP4
// demuxer, out of reach, so the few fields are read here.
//
// Concurrency: a value and a pure parser; used on the thread that opens an input.
import Foundation

/// A `sidx` box's subsegments; see the file comment.
struct SegmentIndexBox: Equatable, Sendable {
    /// One subsegment: its bytes in the file, its start and length in seconds.
    struct Reference: Equatable, Sendable {
        let bytes: Range<Int>
        let start: Double
        let duration: Double
    }

    let references: [Reference]

    /// The box at the start of `data`, which was read from `offset` in the file; nil when it is
    /// not a `sidx`, is cut short, or indexes further indexes (a hierarchy Playhead does not follow).
    init?(_ data: Data, offset: Int) {
        let bytes = [UInt8](data)
        var position = 0
        func read(_ count: Int) -> UInt64? {
            guard position + count <= bytes.count else { return nil }
            let value = bytes[position..<(position + count)].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            position += count
            return value
        }
        guard let size = read(4), size >= 32, Int(size) <= bytes.count, let type = read(4),
            type == 0x7369_6478,  // "sidx"
            let versionAndFlags = read(4), read(4) != nil,  // reference_ID
            let timescale = read(4), timescale > 0
        else { return nil }
        let version = versionAndFlags >> 24
        guard let earliest = read(version == 0 ? 4 : 8), let firstOffset = read(version == 0 ? 4 : 8),
            read(2) != nil, let count = read(2)
        else { return nil }
        // Offsets count from the first byte after the box (a hostile box's numbers are bounded
        // so no sum overflows).
        let limit = UInt64(HLSPlaylist.maximumByteOffset)
        guard offset >= 0, offset <= HLSPlaylist.maximumByteOffset, firstOffset <= limit, earliest <= limit else { return nil }
        var byte = offset + Int(size) + Int(firstOffset)
        var time = earliest
        var references: [Reference] = []
        for _ in 0..<count {
            guard let sized = read(4), let duration = read(4), read(4) != nil, sized >> 31 == 0 else { return nil }
            let length = Int(sized & 0x7fff_ffff)
            references.append(
                Reference(
                    bytes: byte..<(byte + length), start: Double(time) / Double(timescale),
                    duration: Double(duration) / Double(timescale)))
            // (At most 65535 references of 2^31 bytes and 2^32 ticks each: no overflow.)
            byte += length
            time += duration
        }
        guard !references.isEmpty else { return nil }
        self.references = references
    }
}
