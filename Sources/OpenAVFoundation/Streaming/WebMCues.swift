// Playhead: the Cues of a WebM file (Matroska's index, as the WebM DASH on-demand profile
// uses it): where a DASH `SegmentBase`'s `indexRange` points in a WebM Representation, as a
// `sidx` does in an MP4 one. Each cue point names a cluster's place and time; a subsegment
// runs from one cued cluster to the next, the last to the Cues (written after the clusters)
// or the Segment's end. Places count from the Segment's data, which the initialisation
// section (`Initialization range`: the EBML header, the Segment's head, Info, Tracks) gives,
// with Info's `TimecodeScale` and `Duration`. FFmpeg's Matroska demuxer keeps its reading
// of the index to itself, so the few elements are read here (EBML: RFC 8794; Matroska:
// RFC 9559).
//
// Concurrency: a value and a pure parser; used on the thread that opens an input.
import Foundation

/// A WebM file's cued subsegments; see the file comment.
struct WebMCues: Equatable, Sendable {
    /// The subsegments, in time order (bytes in the file, seconds).
    let references: [SegmentIndexBox.Reference]

    /// The most cue points read (an hour of one-second clusters is 3600).
    static let maximumCuePoints = 100_000

    /// Element IDs (with their length markers, as written).
    private enum ID {
        static let header: UInt64 = 0x1A45_DFA3
        static let segment: UInt64 = 0x1853_8067
        static let info: UInt64 = 0x1549_A966
        static let timecodeScale: UInt64 = 0x2A_D7B1
        static let duration: UInt64 = 0x4489
        static let cluster: UInt64 = 0x1F43_B675
        static let cues: UInt64 = 0x1C53_BB6B
        static let cuePoint: UInt64 = 0xBB
        static let cueTime: UInt64 = 0xB3
        static let cueTrackPositions: UInt64 = 0xB7
        static let cueClusterPosition: UInt64 = 0xF1
    }

    /// The Cues in `cues` (read from `cuesOffset` in the file) of the file whose
    /// initialisation section is `initialisation` (read from its start); nil when either is not
    /// what it should be, no cluster is cued, or the last subsegment's end or length cannot be
    /// told.
    init?(initialisation: Data, cues: Data, cuesOffset: Int) {
        let head = EBMLReader([UInt8](initialisation))
        guard let header = head.element(at: 0), header.id == ID.header, let headerSize = header.size,
            let segment = head.element(at: header.dataStart + headerSize), segment.id == ID.segment
        else { return nil }
        let segmentData = segment.dataStart
        let segmentEnd = segment.size.map { segmentData + $0 }
        // Info, among the Segment's first children (the initialisation section ends before
        // the first cluster).
        var scale = 1_000_000.0
        var duration: Double?
        var position = segmentData
        while let element = head.element(at: position), element.id != ID.cluster, let size = element.size {
            if element.id == ID.info, element.dataStart + size <= head.count {
                for child in head.children(from: element.dataStart, to: element.dataStart + size) {
                    if child.id == ID.timecodeScale, let value = head.unsigned(child), value > 0, value <= 1_000_000_000 {
                        scale = Double(value)
                    }
                    if child.id == ID.duration { duration = head.float(child) }
                }
            }
            position = element.dataStart + size
        }
        // The cue points: each one's time and the place of the first track's cluster.
        let index = EBMLReader([UInt8](cues))
        guard let cuesElement = index.element(at: 0), cuesElement.id == ID.cues else { return nil }
        let cuesEnd = min(index.count, cuesElement.dataStart + (cuesElement.size ?? index.count))
        var points: [(time: UInt64, place: Int)] = []
        for point in index.children(from: cuesElement.dataStart, to: cuesEnd) where point.id == ID.cuePoint {
            guard points.count < Self.maximumCuePoints, let size = point.size else { break }
            var time: UInt64?
            var place: UInt64?
            for child in index.children(from: point.dataStart, to: point.dataStart + size) {
                if child.id == ID.cueTime { time = index.unsigned(child) }
                if child.id == ID.cueTrackPositions, place == nil, let positionsSize = child.size {
                    place = index.children(from: child.dataStart, to: child.dataStart + positionsSize)
                        .first { $0.id == ID.cueClusterPosition }.flatMap(index.unsigned)
                }
            }
            guard let time, let place, place <= UInt64(HLSPlaylist.maximumByteOffset) else { continue }
            points.append((time, segmentData + Int(place)))
        }
        // One subsegment per cued cluster, in the file's order.
        // (Several points on one cluster keep its earliest time.)
        points.sort { ($0.place, $0.time) < ($1.place, $1.time) }
        var clusters: [(time: UInt64, place: Int)] = []
        for point in points where point.place != clusters.last?.place { clusters.append(point) }
        guard let last = clusters.last, clusters.map(\.time) == clusters.map(\.time).sorted() else { return nil }
        let end = cuesOffset > last.place ? cuesOffset : segmentEnd
        let seconds = { (ticks: UInt64) in Double(ticks) * scale / 1e9 }
        // (Times a hostile file could make unbounded stay within what a presentation lasts.)
        guard let end, end > last.place, let total = duration.map({ $0 * scale / 1e9 }), total.isFinite,
            total > seconds(last.time), total <= SegmentIndexBox.maximumSeconds
        else { return nil }
        references = clusters.indices.map { number in
            let cluster = clusters[number]
            let next = number + 1 < clusters.count ? clusters[number + 1] : nil
            return SegmentIndexBox.Reference(
                bytes: cluster.place..<(next?.place ?? end), start: seconds(cluster.time),
                duration: (next.map { seconds($0.time) } ?? total) - seconds(cluster.time))
        }
    }
}

/// Reads EBML elements from bytes: IDs and sizes as variable-length integers.
private struct EBMLReader {
    struct Element {
        let id: UInt64
        /// The size of its data; nil when unknown (all ones: a live or unfinished Segment).
        let size: Int?
        let dataStart: Int
    }

    let bytes: [UInt8]
    var count: Int { bytes.count }

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// The element whose ID starts at `position`; nil when it runs past the bytes' end.
    func element(at position: Int) -> Element? {
        guard let (id, idLength) = vint(at: position, keepingMarker: true), idLength <= 4,
            let (size, sizeLength) = vint(at: position + idLength, keepingMarker: false)
        else { return nil }
        let unknown = size == (UInt64(1) << (7 * UInt64(sizeLength))) - 1
        guard unknown || size <= UInt64(HLSPlaylist.maximumByteOffset) else { return nil }
        return Element(id: id, size: unknown ? nil : Int(size), dataStart: position + idLength + sizeLength)
    }

    /// The elements of known size that lie whole between `start` and `end`, in order.
    func children(from start: Int, to end: Int) -> [Element] {
        var found: [Element] = []
        var position = start
        while position < min(end, count), let element = element(at: position), let size = element.size,
            element.dataStart + size <= min(end, count)
        {
            found.append(element)
            position = element.dataStart + size
        }
        return found
    }

    /// An unsigned integer element's value (at most 8 bytes).
    func unsigned(_ element: Element) -> UInt64? {
        guard let size = element.size, size <= 8, element.dataStart + size <= count else { return nil }
        return bytes[element.dataStart..<(element.dataStart + size)].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
    }

    /// A float element's value (4 or 8 bytes).
    func float(_ element: Element) -> Double? {
        guard let raw = unsigned(element) else { return nil }
        switch element.size {
        case 4: return Double(Float(bitPattern: UInt32(raw)))
        case 8: return Double(bitPattern: raw)
        default: return nil
        }
    }

    /// The variable-length integer at `position` and its length; nil past the end or for a
    /// first byte of zero.
    private func vint(at position: Int, keepingMarker: Bool) -> (UInt64, Int)? {
        guard position >= 0, position < count, bytes[position] != 0 else { return nil }
        let length = bytes[position].leadingZeroBitCount + 1
        guard position + length <= count else { return nil }
        var value = UInt64(keepingMarker ? bytes[position] : bytes[position] & (0xFF >> length))
        for byte in bytes[(position + 1)..<(position + length)] { value = value << 8 | UInt64(byte) }
        return (value, length)
    }
}
