// Playhead: seeks in containers whose seeks land on any packet near a time rather than on a
// keyframe (MPEG-TS, MPEG-PS, RealMedia and a few others): libavformat finds the time by searching the file's timestamps
// and takes every packet it meets for a keyframe, so the first keyframe read after the seek
// can come after the time asked for, and an exact seek would land on it instead of the frame
// asked for. After such a seek the first video keyframe is looked for (the packets read are
// held and returned in order); while it comes too late the seek goes further back.
internal import CFFmpeg
internal import CFFmpegShims

// Concurrency: like every `Demuxer` member, call only from the thread that owns the demuxer.

extension Demuxer {
    /// The most packets read after one seek while looking for the first video keyframe (a GOP
    /// of ten seconds at 60 fps with its audio fits).
    static let keyframeSearchPacketLimit = 2_000
    /// How often the seek goes further back (1, 2, 4, 8, 16 s before the time) before it
    /// settles for where it is.
    static let keyframeSearchRetries = 5

    /// True when the container's seeks search timestamps, landing on any packet (it has no seek
    /// of its own and no index of real keyframes).
    var seeksByTimestampSearch: Bool {
        guard streamed == nil, restart == nil, let format = container.pointer.pointee.iformat?.pointee else {
            return false
        }
        return format.read_seek == nil && format.read_seek2 == nil && format.read_timestamp != nil
    }

    /// After a seek towards `target` (AV_TIME_BASE ticks, container timeline): goes further
    /// back until the video's first keyframe read is at or before `latest`, or nothing better
    /// can be done (the start, `earliest`, no keyframe flagged within the search, a read cut
    /// short, the retries spent).
    func settleOnKeyframe(target: Int64, earliest: Int64, latest: Int64) {
        let context = container.pointer
        let index = av_find_default_stream_index(context)
        guard index >= 0, let stream = container.stream(at: Int(index)),
            stream.pointee.codecpar.pointee.codec_type == AVMEDIA_TYPE_VIDEO
        else { return }
        let start = context.pointee.start_time == CFFmpeg_AV_NOPTS_VALUE() ? 0 : context.pointee.start_time
        var back: Int64 = 1_000_000
        var tried: Int64?
        for _ in 0..<Self.keyframeSearchRetries {
            // (No keyframe before the end: the one wanted is further back too.)
            switch heldFirstKeyframe(of: Int(index)) {
            case .at(let keyframe) where keyframe <= latest: return
            case .notFound: return
            case .at, .end: break
            }
            // Never before the earliest acceptable time (tried once).
            let earlier = max(target - back, earliest)
            if earlier == tried { return }
            tried = earlier
            dropHeldPackets()
            container.interrupt.expire(after: timeout)
            // Back to the start: its very first byte (a search for the start time can land
            // past the first keyframe, whose decode time comes before it).
            if earlier <= start, av_seek_frame(context, -1, 0, AVSEEK_FLAG_BYTE) >= 0 { return }
            let moved = avformat_seek_file(context, -1, Int64.min, earlier, earlier, 0) >= 0
            if container.interrupt.kickCutRead {
                readWasCut = true
                return
            }
            guard moved else {
                // (The search may have left the input anywhere: back to where it was.)
                container.interrupt.expire(after: timeout)
                _ = avformat_seek_file(context, -1, Int64.min, target, latest, 0)
                return
            }
            back *= 2
        }
    }

    /// What reading on after a seek found.
    private enum KeyframeSearch {
        /// Stream's first keyframe, in AV_TIME_BASE ticks on the container timeline.
        case at(Int64)
        /// The end came first.
        case end
        /// None within the packet limit, or a read failed.
        case notFound
    }

    /// Reads on (holding every packet read, to be returned in order) until stream `index`
    /// gives a keyframe.
    private func heldFirstKeyframe(of index: Int) -> KeyframeSearch {
        guard let stream = container.stream(at: index) else { return .notFound }
        let none = CFFmpeg_AV_NOPTS_VALUE()
        container.interrupt.expire(after: timeout)
        while heldPackets.count < Self.keyframeSearchPacketLimit, let packet = av_packet_alloc() {
            let status = av_read_frame(container.pointer, packet)
            if container.interrupt.kickCutRead {
                // A newer seek cut the read: the input's position is not trusted (the next
                // seek recovers it).
                readWasCut = true
                var owned: UnsafeMutablePointer<AVPacket>? = packet
                av_packet_free(&owned)
                return .notFound
            }
            guard status >= 0 else {
                var owned: UnsafeMutablePointer<AVPacket>? = packet
                av_packet_free(&owned)
                return status == FFmpegError.endOfFile ? .end : .notFound
            }
            heldPackets.append(packet)
            let time = packet.pointee.pts != none ? packet.pointee.pts : packet.pointee.dts
            guard Int(packet.pointee.stream_index) == index, (packet.pointee.flags & AV_PKT_FLAG_KEY) != 0,
                time != none
            else { continue }
            return .at(av_rescale_q(time, stream.pointee.time_base, CFFmpeg_AV_TIME_BASE_Q()))
        }
        return .notFound
    }
}
