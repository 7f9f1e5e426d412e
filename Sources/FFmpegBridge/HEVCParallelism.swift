// Playhead: reads an HEVC stream's picture parameter sets (from its extradata) to learn whether
// its pictures can be decoded in parallel inside one frame (wavefront rows or tiles).
//
// Concurrency: pure functions over a byte array; any thread.

/// Whether an HEVC stream's pictures carry intra-frame parallelism.
///
/// When every picture parameter set enables wavefront parallel processing
/// (`entropy_coding_sync_enabled_flag`, x265's default) or tiles, libavcodec's slice threading
/// spreads one picture over all threads. That decodes a single picture with no pipeline
/// latency, where frame threading first fills one frame per thread: the first frame after
/// opening or an exact seek arrives sooner, and on a two-core machine whole-stream
/// throughput was also better (Benchmarks/notes.md). Streams without it keep frame threading.
package enum HEVCParallelism {
    /// True when `extradata` (an `hvcC` record or Annex B parameter sets) holds at least one
    /// picture parameter set and every one enables wavefronts or tiles. False when unsure.
    package static func allowsSliceThreading(extradata: [UInt8]) -> Bool {
        let units = nalUnits(in: extradata).map { Array($0) }
        // A NAL unit header is two bytes; type 34 is a picture parameter set.
        let ppsFlags = units.filter { unit in unit.count > 2 && (unit[0] >> 1) & 0x3F == 34 }
            .map { parallelismFlags(pps: removingEmulationPrevention(Array($0.dropFirst(2)))) }
        return !ppsFlags.isEmpty && ppsFlags.allSatisfy { $0 == true }
    }

    /// The NAL units of an `hvcC` record (first byte 1) or of an Annex B byte stream.
    static func nalUnits(in data: [UInt8]) -> [ArraySlice<UInt8>] {
        if data.count > 23, data[0] == 1 { return hvcCUnits(data) }
        var units: [ArraySlice<UInt8>] = []
        var index = 0
        var start: Int?
        while index + 2 < data.count {
            if data[index] == 0, data[index + 1] == 0, data[index + 2] == 1 {
                if let begin = start { units.append(trimmingZeros(data[begin..<index])) }
                index += 3
                start = index
            } else {
                index += 1
            }
        }
        if let begin = start, begin < data.count { units.append(data[begin..<data.count]) }
        return units
    }

    private static func trimmingZeros(_ unit: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var end = unit.endIndex
        while end > unit.startIndex, unit[end - 1] == 0 { end -= 1 }
        return unit[unit.startIndex..<end]
    }

    /// hvcC: 22 header bytes, numOfArrays, then per array: type, numNalus (2 bytes), and per
    /// NAL unit a 2-byte length and the unit.
    private static func hvcCUnits(_ data: [UInt8]) -> [ArraySlice<UInt8>] {
        var units: [ArraySlice<UInt8>] = []
        var offset = 23
        let arrays = Int(data[22])
        for _ in 0..<arrays {
            guard offset + 3 <= data.count else { break }
            let count = Int(data[offset + 1]) << 8 | Int(data[offset + 2])
            offset += 3
            for _ in 0..<count {
                guard offset + 2 <= data.count else { return units }
                let length = Int(data[offset]) << 8 | Int(data[offset + 1])
                offset += 2
                guard offset + length <= data.count else { return units }
                units.append(data[offset..<(offset + length)])
                offset += length
            }
        }
        return units
    }

    /// The RBSP of a NAL unit payload: every `00 00 03` loses its `03`.
    static func removingEmulationPrevention(_ bytes: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var zeros = 0
        for byte in bytes {
            if zeros >= 2 && byte == 3 {
                zeros = 0
                continue
            }
            zeros = byte == 0 ? zeros + 1 : 0
            output.append(byte)
        }
        return output
    }

    /// `tiles_enabled_flag || entropy_coding_sync_enabled_flag` of a PPS RBSP (H.265 7.3.2.3.1),
    /// or nil when it is too short to tell.
    static func parallelismFlags(pps: [UInt8]) -> Bool? {
        var reader = BitReader(pps)
        guard reader.unsignedExpGolomb() != nil,  // pps_pic_parameter_set_id
            reader.unsignedExpGolomb() != nil,  // pps_seq_parameter_set_id
            // dependent_slice_segments, output_flag_present, 3 extra bits, sign_data_hiding
            reader.bits(6) != nil,
            reader.bits(1) != nil,  // cabac_init_present_flag
            reader.unsignedExpGolomb() != nil,  // num_ref_idx_l0_default_active_minus1
            reader.unsignedExpGolomb() != nil,  // num_ref_idx_l1_default_active_minus1
            reader.unsignedExpGolomb() != nil,  // init_qp_minus26 (se, same length)
            reader.bits(2) != nil,  // constrained_intra_pred, transform_skip_enabled
            let cuQPDelta = reader.bits(1)
        else { return nil }
        // diff_cu_qp_delta_depth
        if cuQPDelta == 1 && reader.unsignedExpGolomb() == nil { return nil }
        guard reader.unsignedExpGolomb() != nil,  // pps_cb_qp_offset
            reader.unsignedExpGolomb() != nil,  // pps_cr_qp_offset
            // slice_chroma_qp_offsets, weighted_pred, weighted_bipred, transquant_bypass
            reader.bits(4) != nil,
            let tiles = reader.bits(1), let wavefronts = reader.bits(1)
        else { return nil }
        return tiles == 1 || wavefronts == 1
    }
}

/// Reads bits most significant first from a byte array.
struct BitReader {
    private let bytes: [UInt8]
    private var position = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// The next `count` (at most 32) bits, or nil past the end.
    mutating func bits(_ count: Int) -> UInt32? {
        guard position + count <= bytes.count * 8 else { return nil }
        var value: UInt32 = 0
        for _ in 0..<count {
            let bit = (bytes[position >> 3] >> (7 - UInt8(position & 7))) & 1
            value = value << 1 | UInt32(bit)
            position += 1
        }
        return value
    }

    /// An Exp-Golomb code (ue(v)); nil past the end or beyond 31 leading zeros.
    mutating func unsignedExpGolomb() -> UInt32? {
        var zeros = 0
        while true {
            guard let bit = bits(1) else { return nil }
            if bit == 1 { break }
            zeros += 1
            if zeros > 31 { return nil }
        }
        guard zeros > 0 else { return 0 }
        guard let rest = bits(zeros) else { return nil }
        return (UInt32(1) << UInt32(zeros)) - 1 + rest
    }
}
