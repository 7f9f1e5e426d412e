// Playhead: closed captions carried inside video pictures, handed from decoded frames to
// FFmpeg's EIA-608 caption decoder.
//
// Concurrency: a caption `SubtitleDecoder` belongs to the video decode thread, which feeds it
// the frames it decoded; frames are immutable and their side data is only read.
internal import CFFmpeg
internal import CFFmpegShims
import OpenCoreMedia

extension VideoFrame {
    /// True when the picture came with closed caption data (A/53 cc_data triplets, which
    /// the video decoder takes from H.264/HEVC SEI or MPEG-2 user data).
    package var hasClosedCaptions: Bool {
        av_frame_get_side_data(pointer, AV_FRAME_DATA_A53_CC) != nil
    }

    /// The picture's caption data as a packet of cc_data triplets stamped with its time, or
    /// nil when it has none.
    func closedCaptionPacket() -> Packet? {
        guard let side = av_frame_get_side_data(pointer, AV_FRAME_DATA_A53_CC),
            let data = side.pointee.data, side.pointee.size > 0
        else { return nil }
        let bytes = Array(UnsafeBufferPointer(start: data, count: Int(side.pointee.size)))
        let time = pointer.pointee.best_effort_timestamp
        return Packet(
            bytes: bytes, streamIndex: -1, pts: time == CFFmpeg_AV_NOPTS_VALUE() ? nil : time,
            timeBase: (timeBase.num, timeBase.den))
    }
}

extension SubtitleDecoder {
    /// Decodes the caption data of `frame` (frames must come in presentation order, as a
    /// video decoder puts them out); returns the caption screens it changed to, each
    /// starting at the frame's time and lasting until the next (an empty screen clears).
    package func decodeCaptions(of frame: VideoFrame) -> [SubtitleEvent] {
        guard let packet = frame.closedCaptionPacket(), packet.pts.isNumeric else { return [] }
        return decode(packet)
    }
}
