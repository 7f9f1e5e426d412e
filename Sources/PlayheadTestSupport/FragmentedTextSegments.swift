// Playhead: subtitle segments in fragmented MP4 (ISO/IEC 14496-30), written box by box for
// tests: FFmpeg 5.1 cannot fragment TTML ("not currently supported for TTML in MP4") nor
// write WebVTT in MP4 fragments the way DASH packagers do, so the tests make them here.
// Concurrency: pure functions.
import Foundation

/// Builds fragmented MP4 subtitle tracks: an initialisation section and media segments.
public enum FragmentedTextSegments {
    /// The sample format of the track.
    public enum Format: String, Sendable {
        /// TTML documents (IMSC1).
        case ttml = "stpp"
        /// WebVTT cue boxes.
        case webVTT = "wvtt"
    }

    /// An initialisation section: `ftyp`, then `moov` with one text track of `format` on
    /// `timescale` and a `trex` with no defaults. With `afterVideoTrack`, a video track (ID 1,
    /// its `trex` defaults 512-tick samples of 9 bytes) comes first and the text track is ID 2.
    public static func initialisation(_ format: Format, timescale: UInt32, afterVideoTrack: Bool = false) -> Data {
        let entry: Data
        switch format {
        case .ttml:
            entry = box("stpp", Data(count: 6) + uint16(1) + Data("http://www.w3.org/ns/ttml\0\0\0".utf8))
        case .webVTT:
            entry = box("wvtt", Data(count: 6) + uint16(1) + box("vttC", Data("WEBVTT".utf8)))
        }
        let mdhd = fullBox("mdhd", version: 0, flags: 0, uint32(0) + uint32(0) + uint32(timescale) + uint32(0) + uint16(0x55C4) + uint16(0))
        let hdlr = fullBox("hdlr", version: 0, flags: 0, uint32(0) + Data("subt".utf8) + Data(count: 12) + Data("Text\0".utf8))
        let stbl = box("stbl", fullBox("stsd", version: 0, flags: 0, uint32(1) + entry))
        let id: UInt32 = afterVideoTrack ? 2 : 1
        func tkhd(_ id: UInt32) -> Data { fullBox("tkhd", version: 0, flags: 3, uint32(0) + uint32(0) + uint32(id) + Data(count: 68)) }
        let trak = box("trak", tkhd(id) + box("mdia", mdhd + hdlr + box("minf", stbl)))
        var traks = trak
        var extends = fullBox("trex", version: 0, flags: 0, uint32(id) + uint32(1) + uint32(0) + uint32(0) + uint32(0))
        if afterVideoTrack {
            let video = box(
                "stbl", fullBox("stsd", version: 0, flags: 0, uint32(1) + box("avc1", Data(count: 78))))
            traks = box("trak", tkhd(1) + box("mdia", mdhd + box("minf", video))) + trak
            extends = fullBox("trex", version: 0, flags: 0, uint32(1) + uint32(1) + uint32(512) + uint32(9) + uint32(0)) + extends
        }
        return box("ftyp", Data("iso6".utf8) + uint32(0) + Data("iso6dash".utf8)) + box("moov", traks + box("mvex", extends))
    }

    /// A media segment: `styp`, one `moof` (decode time `startTicks`, sample durations and
    /// sizes in its `trun`, offsets from the `moof`) and the `mdat` of `samples`.
    public static func segment(sequence: UInt32, startTicks: UInt64, samples: [(duration: UInt32, bytes: Data)]) -> Data {
        func moof(dataOffset: UInt32) -> Data {
            let tfhd = fullBox("tfhd", version: 0, flags: 0x02_0000, uint32(1))
            let tfdt = fullBox("tfdt", version: 1, flags: 0, uint64(startTicks))
            var run = uint32(UInt32(samples.count)) + uint32(dataOffset)
            for sample in samples { run += uint32(sample.duration) + uint32(UInt32(sample.bytes.count)) }
            let trun = fullBox("trun", version: 0, flags: 0x0301, run)
            return box("moof", fullBox("mfhd", version: 0, flags: 0, uint32(sequence)) + box("traf", tfhd + tfdt + trun))
        }
        let size = moof(dataOffset: 0).count
        let mdat = box("mdat", samples.reduce(Data()) { $0 + $1.bytes })
        return box("styp", Data("msdh".utf8) + uint32(0) + Data("msdhmsix".utf8)) + moof(dataOffset: UInt32(size + 8)) + mdat
    }

    /// One file of `initialisation`, a `sidx` box indexing `segments` (each `duration` ticks of
    /// `timescale`, the first at time 0), then the segments: a DASH `SegmentBase`
    /// Representation. Returns the file and the byte ranges of its initialisation and index.
    public static func indexedFile(initialisation: Data, timescale: UInt32, segments: [(duration: UInt32, bytes: Data)])
        -> (file: Data, initialisation: Range<Int>, index: Range<Int>)
    {
        var references = Data()
        for segment in segments {
            references += uint32(UInt32(segment.bytes.count)) + uint32(segment.duration) + uint32(0x9000_0000)
        }
        let sidx = fullBox(
            "sidx", version: 0, flags: 0,
            uint32(1) + uint32(timescale) + uint32(0) + uint32(0) + uint16(0) + uint16(UInt16(segments.count)) + references)
        let file = initialisation + sidx + segments.reduce(Data()) { $0 + $1.bytes }
        return (file, 0..<initialisation.count, initialisation.count..<(initialisation.count + sidx.count))
    }

    /// A TTML document of `cues` (seconds on the track's timeline).
    public static func ttml(_ cues: [(begin: Double, end: Double, text: String)]) -> Data {
        let paragraphs = cues.map { #"<p begin="\#($0.begin)s" end="\#($0.end)s">\#($0.text)</p>"# }.joined()
        return Data(
            #"<?xml version="1.0" encoding="UTF-8"?><tt xmlns="http://www.w3.org/ns/ttml" xml:lang="en"><body><div>\#(paragraphs)</div></body></tt>"#
                .utf8)
    }

    /// A WebVTT sample holding one cue (`vttc` with `payl`, and `sttg` when given).
    public static func webVTTCue(_ text: String, settings: String? = nil) -> Data {
        box("vttc", (settings.map { box("sttg", Data($0.utf8)) } ?? Data()) + box("payl", Data(text.utf8)))
    }

    /// A WebVTT sample with no cue (`vtte`).
    public static let emptyWebVTTSample = box("vtte", Data())

    /// A box of `type` around `payload`.
    public static func box(_ type: String, _ payload: Data) -> Data {
        uint32(UInt32(8 + payload.count)) + Data(type.utf8) + payload
    }

    /// A full box (version and 24-bit flags) of `type` around `payload`.
    public static func fullBox(_ type: String, version: UInt8, flags: UInt32, _ payload: Data) -> Data {
        box(type, Data([version]) + uint32(flags).suffix(3) + payload)
    }

    /// Big-endian numbers.
    public static func uint16(_ value: UInt16) -> Data { Data([UInt8(value >> 8), UInt8(value & 0xFF)]) }

    public static func uint32(_ value: UInt32) -> Data { Data((0..<4).map { UInt8((value >> (24 - 8 * $0)) & 0xFF) }) }

    public static func uint64(_ value: UInt64) -> Data { Data((0..<8).map { UInt8((value >> (56 - 8 * $0)) & 0xFF) }) }
}
