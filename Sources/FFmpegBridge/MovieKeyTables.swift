// Playhead: the key tables of an MP4/QuickTime file's timed metadata ('mebx') tracks.
//
// FFmpeg 5.1's mov demuxer makes such a track a data stream (codec tag 'mebx', no codec) and
// hands out its samples as packets, but it skips the rest of the sample description, where
// the keys are declared, and keeps it nowhere (no extradata). Without the keys the samples'
// boxes (typed by local key IDs) mean nothing, so the movie box is walked here: top-level
// boxes to 'moov', each 'trak' for its track ID ('tkhd') and its 'stsd'
// (mdia/minf/stbl/stsd). Every read is bounded and every size checked against its parent.
//
// Concurrency: `FormatContext.boxedMetadataKeys` runs on the thread that owns the format
// context (the inspecting or demux thread), before packets are read; it puts the read
// position back. `MovieKeyTables` is pure over the read function it is given.
internal import CFFmpeg
import Foundation

/// Walks a movie's boxes through a random-access read function.
package enum MovieKeyTables {
    /// The most top-level boxes looked at before giving up on finding 'moov'.
    static let maximumTopLevelBoxes = 1024
    /// The most bytes of one 'stsd' box read.
    static let maximumDescriptionBytes = 1 << 20

    /// One box's place in the input: its type, where its payload starts, and where it ends.
    struct Extent {
        var type: UInt32
        var payload: Int64
        var end: Int64
    }

    /// The keys each track's timed metadata sample description declares, by track ID (the ID
    /// in its 'tkhd', which FFmpeg's mov demuxer gives its stream as `id`). `read(offset,
    /// count)` returns up to `count` bytes at `offset` (fewer at the end), nil on failure;
    /// `size` is the input's length when known.
    package static func keys(read: (Int64, Int) -> [UInt8]?, size: Int64?) -> [Int32: [BoxedMetadataKey]] {
        let moovCode = ISOBoxes.code("moov"), trakCode = ISOBoxes.code("trak")
        let top = extents(from: 0, to: size, read: read, limit: maximumTopLevelBoxes, stopAt: moovCode)
        guard let moov = top.last, moov.type == moovCode else { return [:] }
        var tables: [Int32: [BoxedMetadataKey]] = [:]
        for trak in extents(from: moov.payload, to: moov.end, read: read) where trak.type == trakCode {
            let children = extents(from: trak.payload, to: trak.end, read: read)
            guard let tkhd = children.first(where: { $0.type == ISOBoxes.code("tkhd") }),
                let trackID = trackID(tkhd, read: read),
                let stsd = descend(children, through: ["mdia", "minf", "stbl", "stsd"], read: read)
            else { continue }
            let length = Int(min(stsd.end - stsd.payload, Int64(maximumDescriptionBytes)))
            guard length > 0, let bytes = read(stsd.payload, length), bytes.count == length else { continue }
            let keys = BoxedMetadataKey.keys(fromSampleDescriptions: bytes[...])
            if !keys.isEmpty, tables[trackID] == nil { tables[trackID] = keys }
        }
        return tables
    }

    /// The box at the end of `path`, starting among `boxes`.
    private static func descend(_ boxes: [Extent], through path: [String], read: (Int64, Int) -> [UInt8]?)
        -> Extent?
    {
        var level = boxes
        var found: Extent?
        for (depth, name) in path.enumerated() {
            guard let box = level.first(where: { $0.type == ISOBoxes.code(name) }) else { return nil }
            found = box
            if depth < path.count - 1 { level = extents(from: box.payload, to: box.end, read: read) }
        }
        return found
    }

    /// The track ID in a 'tkhd' box: after version, flags and two times (32- or 64-bit).
    private static func trackID(_ tkhd: Extent, read: (Int64, Int) -> [UInt8]?) -> Int32? {
        guard let bytes = read(tkhd.payload, 24), bytes.count >= 12 else { return nil }
        let offset = bytes[0] == 1 ? 20 : 12
        guard bytes.count >= offset + 4, tkhd.payload + Int64(offset) + 4 <= tkhd.end else { return nil }
        return Int32(bitPattern: ISOBoxes.readUInt32(bytes[...], offset))
    }

    /// The boxes from `start` to `end` (nil: to wherever the input ends), up to `limit`, or up
    /// to and including the first of type `stopAt`. A malformed header ends the list.
    static func extents(
        from start: Int64, to end: Int64?, read: (Int64, Int) -> [UInt8]?,
        limit: Int = ISOBoxes.maximumBoxes, stopAt: UInt32? = nil
    ) -> [Extent] {
        var result: [Extent] = []
        var offset = start
        while result.count < limit, end.map({ $0 - offset >= 8 }) ?? true {
            guard let header = read(offset, 16), header.count >= 8 else { break }
            let size32 = ISOBoxes.readUInt32(header[...], 0)
            let type = ISOBoxes.readUInt32(header[...], 4)
            var headerLength: Int64 = 8
            var boxEnd: Int64
            if size32 == 1 {
                guard header.count >= 16 else { break }
                let size = ISOBoxes.readUInt64(header[...], 8)
                guard size <= UInt64(Int64.max - offset) else { break }
                headerLength = 16
                boxEnd = offset + Int64(size)
            } else if size32 == 0 {
                boxEnd = end ?? Int64.max
            } else {
                guard offset <= Int64.max - Int64(size32) else { break }
                boxEnd = offset + Int64(size32)
            }
            guard boxEnd - offset >= headerLength, end.map({ boxEnd <= $0 }) ?? true else { break }
            result.append(Extent(type: type, payload: offset + headerLength, end: boxEnd))
            if type == stopAt || boxEnd == Int64.max { break }
            offset = boxEnd
        }
        return result
    }
}

extension FormatContext {
    /// The key tables of the input's timed metadata tracks by track ID, read through the
    /// demuxer's own I/O (so a network input is read with its options), giving up after
    /// `timeout` seconds. Empty when the input cannot seek. The read position, end-of-file
    /// and error state are put back afterwards.
    func boxedMetadataKeys(timeout: Double) -> [Int32: [BoxedMetadataKey]] {
        guard let io = pointer.pointee.pb, (io.pointee.seekable & AVIO_SEEKABLE_NORMAL) != 0 else { return [:] }
        interrupt.expire(after: timeout)
        let position = avio_tell(io)
        let error = io.pointee.error
        defer {
            avio_seek(io, position, SEEK_SET)
            io.pointee.error = error
        }
        let size = avio_size(io)
        return MovieKeyTables.keys(
            read: { offset, count in
                guard count > 0, offset >= 0, avio_seek(io, offset, SEEK_SET) == offset else { return nil }
                var bytes = [UInt8](repeating: 0, count: count)
                let got = bytes.withUnsafeMutableBufferPointer { avio_read(io, $0.baseAddress, Int32(count)) }
                return got > 0 ? Array(bytes.prefix(Int(got))) : nil
            }, size: size > 0 ? size : nil)
    }
}
