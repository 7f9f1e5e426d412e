// Playhead: the segment index box (`sidx`, ISO/IEC 14496-12 §8.16.3) a DASH `SegmentBase`
// points at with `indexRange`: where each subsegment of a single-file Representation lies in
// the file and how long it plays. FFmpeg keeps its own reading of the box inside the MP4
// demuxer, out of reach, so the few fields are read here. A reference may name another
// `sidx` instead of media (a hierarchy, as some packagers write one index per group of
// subsegments): `subsegments(reading:)` follows those, reading each box from the file.
//
// Concurrency: a value and a pure parser; used on the thread that opens an input.
import Foundation

/// A `sidx` box's subsegments; see the file comment.
struct SegmentIndexBox: Equatable, Sendable {
    /// One subsegment: its bytes in the file, its start and length in seconds; or, with
    /// `isIndex`, another `sidx` box at the start of `bytes` that indexes them.
    struct Reference: Equatable, Sendable {
        let bytes: Range<Int>
        let start: Double
        let duration: Double
        var isIndex = false
    }

    let references: [Reference]

    /// The box at the start of `data`, which was read from `offset` in the file; nil when it is
    /// not a `sidx` or is cut short.
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
            guard let sized = read(4), let duration = read(4), read(4) != nil else { return nil }
            let length = Int(sized & 0x7fff_ffff)
            references.append(
                Reference(
                    bytes: byte..<(byte + length), start: Double(time) / Double(timescale),
                    duration: Double(duration) / Double(timescale), isIndex: sized >> 31 == 1))
            // (At most 65535 references of 2^31 bytes and 2^32 ticks each: no overflow.)
            byte += length
            time += duration
        }
        // (Times a hostile box could make unbounded stay within what a presentation lasts.)
        guard !references.isEmpty,
            references.allSatisfy({ $0.start + $0.duration <= Self.maximumSeconds })
        else { return nil }
        self.references = references
    }

    /// The most `sidx` boxes a hierarchy (or a daisy chain, each box's last reference naming
    /// the next) may hold, each read with a request; the most subsegments it may list; the
    /// largest box (65535 references); the latest time a subsegment may end, seconds.
    static let maximumIndexes = 256
    static let maximumSubsegments = 100_000
    static let maximumBoxBytes = 40 + 12 * 65_535
    static let maximumSeconds = Double(UInt32.max)

    /// The media subsegments of this box, the indexes it names followed (depth first, in
    /// order): `read` gives the first bytes of a referenced box (asked again whole when the
    /// box is larger). Nil when a named index cannot be read or the indexes exceed the limits.
    func subsegments(reading read: (Range<Int>) -> Data?) -> [Reference]? {
        var indexes = 0
        var found: [Reference] = []
        func expand(_ box: SegmentIndexBox) -> Bool {
            for reference in box.references {
                guard reference.isIndex else {
                    found.append(reference)
                    guard found.count <= Self.maximumSubsegments else { return false }
                    continue
                }
                indexes += 1
                guard indexes <= Self.maximumIndexes else { return false }
                let first = reference.bytes.lowerBound..<min(reference.bytes.upperBound, reference.bytes.lowerBound + 65_536)
                guard var data = read(first) else { return false }
                // A box larger than the first read is asked for whole.
                let declared = data.prefix(4).reduce(0) { $0 << 8 | Int($1) }
                if declared > data.count, declared <= reference.bytes.count, declared <= Self.maximumBoxBytes {
                    guard let whole = read(reference.bytes.lowerBound..<(reference.bytes.lowerBound + declared)) else {
                        return false
                    }
                    data = whole
                }
                guard let nested = SegmentIndexBox(data, offset: reference.bytes.lowerBound), expand(nested) else {
                    return false
                }
            }
            return true
        }
        return expand(self) ? found : nil
    }
}
