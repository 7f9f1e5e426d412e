// Playhead: the single owner of one compressed AVPacket read from a container.
internal import CFFmpeg
internal import CFFmpegShims
import OpenCoreMedia

// Concurrency: a `Packet` is immutable after creation. The demux thread creates it, hands it
// to exactly one decode thread through a queue, and whichever thread drops the last
// reference frees it. Decoders only read the AVPacket (avcodec_send_packet takes a const
// pointer), so sharing it across threads needs no lock.

/// One compressed packet of one stream, with its timestamps as `CMTime` in the stream's
/// time base. Owns its `AVPacket` and frees it in `deinit`.
package final class Packet: @unchecked Sendable {
    /// owned by this packet; never mutated after init; freed in deinit
    let pointer: UnsafeMutablePointer<AVPacket>
    /// The stream's time base, kept so timestamps can be rescaled without the demuxer.
    let timeBase: AVRational

    /// The index of the stream in the container this packet belongs to.
    package let streamIndex: Int
    /// The presentation timestamp; `.invalid` when the container gives none.
    package let pts: CMTime
    /// The decoding timestamp; `.invalid` when the container gives none.
    package let dts: CMTime
    /// How long the packet lasts; `.invalid` when unknown (0 in the container).
    package let duration: CMTime
    /// True when the packet starts a keyframe (decoding can start here).
    package let isKeyframe: Bool
    /// True when the container flagged the packet as corrupt.
    package let isCorrupt: Bool
    /// The size of the compressed payload in bytes.
    package let byteCount: Int

    /// Takes over the reference in `source` (av_packet_move_ref), leaving `source` blank.
    init?(movingFrom source: UnsafeMutablePointer<AVPacket>, timeBase: AVRational) {
        guard let packet = av_packet_alloc() else { return nil }
        av_packet_move_ref(packet, source)
        self.pointer = packet
        self.timeBase = timeBase
        let value = packet.pointee
        streamIndex = Int(value.stream_index)
        pts = CMTime(ffmpegTicks: value.pts, timeBase: timeBase)
        dts = CMTime(ffmpegTicks: value.dts, timeBase: timeBase)
        duration =
            value.duration > 0 ? CMTime(ffmpegTicks: value.duration, timeBase: timeBase) : .invalid
        isKeyframe = (value.flags & AV_PKT_FLAG_KEY) != 0
        isCorrupt = (value.flags & AV_PKT_FLAG_CORRUPT) != 0
        byteCount = Int(value.size)
    }

    /// A packet holding a copy of `bytes`, for feeding decoders data that did not come from a
    /// demuxer (tests, robustness checks). Timestamps are in `timeBase` ticks.
    ///
    /// - Parameters:
    ///   - bytes: the compressed payload.
    ///   - streamIndex: the stream the packet claims to belong to.
    ///   - pts: the presentation timestamp in ticks of `timeBase`, or nil for none.
    ///   - timeBase: seconds per tick, as numerator and denominator.
    ///   - isKeyframe: whether to flag the packet as a keyframe.
    ///   - duration: how long the packet lasts in ticks of `timeBase`, or nil when unknown.
    package convenience init?(
        bytes: [UInt8], streamIndex: Int, pts: Int64? = nil,
        timeBase: (numerator: Int32, denominator: Int32) = (1, 90_000), isKeyframe: Bool = false,
        duration: Int64? = nil
    ) {
        guard let scratch = av_packet_alloc() else { return nil }
        var scratchOptional: UnsafeMutablePointer<AVPacket>? = scratch
        defer { av_packet_free(&scratchOptional) }
        guard av_new_packet(scratch, Int32(bytes.count)) >= 0 else { return nil }
        bytes.withUnsafeBufferPointer { source in
            if let base = source.baseAddress, let data = scratch.pointee.data {
                data.update(from: base, count: source.count)
            }
        }
        scratch.pointee.stream_index = Int32(streamIndex)
        scratch.pointee.pts = pts ?? CFFmpeg_AV_NOPTS_VALUE()
        scratch.pointee.dts = pts ?? CFFmpeg_AV_NOPTS_VALUE()
        if isKeyframe { scratch.pointee.flags |= AV_PKT_FLAG_KEY }
        if let duration { scratch.pointee.duration = duration }
        self.init(
            movingFrom: scratch,
            timeBase: AVRational(num: timeBase.numerator, den: timeBase.denominator))
    }

    deinit {
        var packet: UnsafeMutablePointer<AVPacket>? = pointer
        av_packet_free(&packet)
    }

    /// The payload bytes, copied out (for tests and diagnostics).
    package var bytes: [UInt8] {
        guard let data = pointer.pointee.data, byteCount > 0 else { return [] }
        return Array(UnsafeBufferPointer(start: data, count: byteCount))
    }
}
