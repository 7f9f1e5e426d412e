// Playhead: which streams get a second, slice-threaded decoder for the decode from a keyframe
// to an exact-seek target, and where it may hand over to the frame-threaded one.
//
// Concurrency: pure functions over immutable stream parameters and packet bytes; any thread.
internal import CFFmpeg

/// After a seek, frame threading first fills one frame per thread before any picture comes
/// out, and decodes each picture on one thread. For HEVC pictures that split into independent
/// parts (wavefronts or tiles), slice threading decodes the catch-up with every thread on each
/// picture and no pipeline fill. Playback after the target goes back to frame threading at the
/// next point where a decoder can start cleanly: an HEVC IDR picture; at a CRA picture (open
/// GOPs) both decoders overlap until the CRA's leading pictures, which need the previous GOP,
/// are out (`OpenGOPHandOver`).
///
/// VP9 tile columns were tried too and dropped: on the benchmark machine (2 cores) frame
/// threading reached 720p and 1080p exact-seek targets 2–4 ms sooner (Benchmarks/notes.md).
enum SeekCatchUp {
    /// The codecs that get a catch-up decoder.
    enum Kind {
        case hevc
    }

    /// The catch-up kind for a stream, or nil to keep the one frame-threaded decoder.
    static func kind(for parameters: UnsafePointer<AVCodecParameters>) -> Kind? {
        switch parameters.pointee.codec_id {
        case AV_CODEC_ID_HEVC:
            let size = Int(parameters.pointee.extradata_size)
            guard let extradata = parameters.pointee.extradata, size > 0 else { return nil }
            let bytes = Array(UnsafeBufferPointer(start: extradata, count: size))
            return HEVCParallelism.allowsSliceThreading(extradata: bytes) ? .hevc : nil
        default:
            return nil
        }
    }

    /// True when a fresh decoder can start at `packet` without losing pictures: an HEVC IDR
    /// or BLA picture (BLA's leading pictures are dropped by any decoder).
    static func canHandOver(at packet: Packet, kind: Kind) -> Bool {
        guard packet.isKeyframe else { return false }
        switch kind {
        case .hevc:
            guard let type = firstHEVCPictureType(packet.bytes) else { return false }
            return (16...20).contains(type)
        }
    }

    /// True when `packet` starts an HEVC CRA picture: a fresh decoder could start there but
    /// would drop its leading pictures, so the hand-over overlaps both decoders
    /// (`OpenGOPHandOver`).
    static func startsOpenGOP(at packet: Packet, kind: Kind) -> Bool {
        guard packet.isKeyframe, kind == .hevc, packet.pts.isNumeric else { return false }
        return firstHEVCPictureType(packet.bytes) == 21
    }

    /// The type of the first picture (VCL) NAL unit in a packet, length-prefixed (4-byte, as
    /// MP4 and Matroska store HEVC) or Annex B: 16–18 BLA, 19–20 IDR, 21 CRA, below 16 not a
    /// random access point.
    static func firstHEVCPictureType(_ bytes: [UInt8]) -> UInt8? {
        let annexB = bytes.count > 4 && bytes[0] == 0 && bytes[1] == 0
            && (bytes[2] == 1 || (bytes[2] == 0 && bytes[3] == 1))
        let units = annexB
            ? HEVCParallelism.nalUnits(in: bytes).map { Array($0) } : lengthPrefixedUnits(bytes)
        for unit in units where unit.count >= 2 {
            let type = (unit[0] >> 1) & 0x3F
            if type < 32 { return type }
        }
        return nil
    }

    private static func lengthPrefixedUnits(_ bytes: [UInt8]) -> [[UInt8]] {
        var units: [[UInt8]] = []
        var offset = 0
        while offset + 4 <= bytes.count {
            let length = bytes[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) }
            offset += 4
            guard length > 0, length <= bytes.count - offset else { break }
            units.append(Array(bytes[offset..<(offset + length)]))
            offset += length
        }
        return units
    }
}
