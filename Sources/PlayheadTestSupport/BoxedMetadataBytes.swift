// Playhead: MP4/QuickTime timed metadata ('mebx') written byte by byte (ffmpeg cannot write
// such a track): key tables, samples, and a whole track added to a movie ffmpeg wrote.
// Concurrency: pure functions.
import Foundation

/// Builds boxed timed metadata as AVAssetWriter lays it out: a 'meta' handler track whose
/// 'mebx' sample entry declares keys ('keys' → local ID box → 'keyd' + 'dtyp'), and samples
/// made of boxes typed by those local IDs holding the values.
public enum BoxedMetadataBytes {
    /// One key of the track: its local ID, its 'mdta' name and its well-known data type.
    public struct Key: Sendable {
        /// The box type that stands for the key in samples.
        public var localID: UInt32
        /// The reverse-DNS key name, e.g. "com.apple.quicktime.title".
        public var name: String
        /// The well-known data type (1 UTF-8, 23 float32, 21 signed integer, ...).
        public var wellKnownType: UInt32

        /// A key with these fields.
        public init(localID: UInt32, name: String, wellKnownType: UInt32) {
            self.localID = localID
            self.name = name
            self.wellKnownType = wellKnownType
        }
    }

    /// A box of `type` (four characters) around `payload`.
    public static func box(_ type: String, _ payload: [UInt8]) -> [UInt8] {
        box(code: type.utf8.prefix(4).reduce(0) { $0 << 8 | UInt32($1) }, payload)
    }

    /// A box whose type is the number `code` (a local key ID) around `payload`.
    public static func box(code: UInt32, _ payload: [UInt8]) -> [UInt8] {
        be32(UInt32(8 + payload.count)) + be32(code) + payload
    }

    /// The 'keys' table declaring `keys` in the 'mdta' namespace.
    public static func keyTable(_ keys: [Key]) -> [UInt8] {
        box(
            "keys",
            keys.flatMap { key in
                box(
                    code: key.localID,
                    box("keyd", Array("mdta".utf8) + Array(key.name.utf8)) + box("dtyp", be32(0) + be32(key.wellKnownType)))
            })
    }

    /// An 'stsd' box with one 'mebx' sample entry declaring `keys`.
    public static func sampleDescriptions(_ keys: [Key]) -> [UInt8] {
        let entry = box("mebx", [UInt8](repeating: 0, count: 6) + be16(1) + keyTable(keys))
        return box("stsd", be32(0) + be32(1) + entry)
    }

    /// A sample holding `values` (raw value bytes by local key ID), in order.
    public static func sample(_ values: [(localID: UInt32, value: [UInt8])]) -> [UInt8] {
        values.flatMap { box(code: $0.localID, $0.value) }
    }

    /// A value wrapped in a 'data' box: type set 0, `wellKnownType`, locale 0, the bytes.
    public static func dataBox(wellKnownType: UInt32, _ value: [UInt8]) -> [UInt8] {
        box("data", be32(wellKnownType & 0x00FF_FFFF) + be32(0) + value)
    }

    /// `movie` (an MP4 whose top-level boxes use 32-bit sizes, as ffmpeg writes short files)
    /// with a timed metadata track added: `samples` one after another from 0, each lasting
    /// `sampleMilliseconds`, stored in a new 'mdat' before the rewritten 'moov'. The track's
    /// ID is the movie's next track ID.
    public static func addingTrack(
        to movie: [UInt8], keys: [Key], samples: [[UInt8]], sampleMilliseconds: UInt32
    ) throws -> [UInt8] {
        let top = try children(movie[...])
        guard let moov = top.first(where: { $0.type == "moov" }) else { throw TestSupportError("no moov box") }
        var moovChildren = try children(moov.payload)
        guard let mvhdIndex = moovChildren.firstIndex(where: { $0.type == "mvhd" }) else {
            throw TestSupportError("no mvhd box")
        }
        // The movie's time scale follows version, flags and two times; the next track ID is
        // the last field.
        var mvhd = Array(moovChildren[mvhdIndex].payload)
        let scaleAt = mvhd.first == 1 ? 20 : 12
        guard mvhd.count >= scaleAt + 8 else { throw TestSupportError("short mvhd box") }
        let movieScale = mvhd[scaleAt..<(scaleAt + 4)].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        let trackID = mvhd.suffix(4).reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        mvhd.replaceSubrange((mvhd.count - 4)..., with: be32(trackID + 1))
        moovChildren[mvhdIndex].payload = mvhd[...]

        var output = top.filter { $0.type != "moov" }.flatMap { box($0.type, Array($0.payload)) }
        var offsets: [UInt32] = []
        var offset = UInt32(output.count + 8)
        for sample in samples {
            offsets.append(offset)
            offset += UInt32(sample.count)
        }
        output += box("mdat", samples.flatMap { $0 })
        let duration = sampleMilliseconds * UInt32(samples.count)
        let movieDuration = UInt32(UInt64(duration) * UInt64(movieScale) / 1000)
        let track = trak(
            id: trackID, duration: duration, movieDuration: movieDuration, keys: keys, sizes: samples.map { UInt32($0.count) }, offsets: offsets,
            sampleMilliseconds: sampleMilliseconds)
        let moovPayload = moovChildren.flatMap { box($0.type, Array($0.payload)) } + track
        return output + box("moov", moovPayload)
    }

    /// A 'trak' for the metadata track: header, an edit list of the whole track (as
    /// AVAssetWriter writes one; without it FFmpeg 5.1 stretches the last sample to the end of
    /// the movie), media header (1000 ticks a second), 'meta' handler, null media header,
    /// self-contained data reference and sample tables.
    private static func trak(
        id: UInt32, duration: UInt32, movieDuration: UInt32, keys: [Key], sizes: [UInt32], offsets: [UInt32], sampleMilliseconds: UInt32
    ) -> [UInt8] {
        let identity: [UInt32] = [0x10000, 0, 0, 0, 0x10000, 0, 0, 0, 0x4000_0000]
        let tkhd = full(
            "tkhd", flags: 3,
            be32(0) + be32(0) + be32(id) + be32(0) + be32(movieDuration) + zeros(16) + identity.flatMap(be32)
                + be32(0) + be32(0))
        let edts = box("edts", full("elst", be32(1) + be32(movieDuration) + be32(0) + be32(0x10000)))
        let mdhd = full("mdhd", be32(0) + be32(0) + be32(1000) + be32(duration) + be16(0x55C4) + be16(0))
        let hdlr = full("hdlr", be32(0) + Array("meta".utf8) + zeros(12) + Array("Timed Metadata\0".utf8))
        let dinf = box("dinf", full("dref", be32(1) + full("url ", flags: 1, [])))
        let count = UInt32(sizes.count)
        let stbl = box(
            "stbl",
            sampleDescriptions(keys)
                + full("stts", be32(1) + be32(count) + be32(sampleMilliseconds))
                + full("stsc", be32(1) + be32(1) + be32(1) + be32(1))
                + full("stsz", be32(0) + be32(count) + sizes.flatMap(be32))
                + full("stco", be32(count) + offsets.flatMap(be32)))
        let minf = box("minf", full("nmhd", []) + dinf + stbl)
        return box("trak", tkhd + edts + box("mdia", mdhd + hdlr + minf))
    }

    private struct Child {
        var type: String
        var payload: ArraySlice<UInt8>
    }

    /// The boxes laid end to end in `bytes` (32-bit sizes only).
    private static func children(_ bytes: ArraySlice<UInt8>) throws -> [Child] {
        var result: [Child] = []
        var offset = bytes.startIndex
        while offset + 8 <= bytes.endIndex {
            let size = bytes[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) }
            guard size >= 8, offset + size <= bytes.endIndex else { throw TestSupportError("unexpected box size") }
            let type = String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self)
            result.append(Child(type: type, payload: bytes[(offset + 8)..<(offset + size)]))
            offset += size
        }
        return result
    }

    private static func full(_ type: String, flags: UInt32 = 0, _ payload: [UInt8]) -> [UInt8] {
        box(type, be32(flags & 0x00FF_FFFF) + payload)
    }

    private static func zeros(_ count: Int) -> [UInt8] { [UInt8](repeating: 0, count: count) }

    /// `value` as four big-endian bytes.
    public static func be32(_ value: UInt32) -> [UInt8] { [24, 16, 8, 0].map { UInt8((value >> $0) & 0xff) } }

    private static func be16(_ value: UInt16) -> [UInt8] { [UInt8(value >> 8), UInt8(value & 0xff)] }
}
