// Playhead: moving a demuxer's read position: to a keyframe near a time, through a streamed
// input's loader, or to the first keyframe after a time (a step of fast forward).
internal import CFFmpeg
internal import CFFmpegShims
import OpenCoreMedia

// Concurrency: like every `Demuxer` member, call only from the thread that owns the demuxer.

extension Demuxer {
    /// True when the input can seek (a local file or a server that honours ranges).
    package var isSeekable: Bool {
        // A streamed input starts again at any segment (a live one within its window).
        if streamed != nil { return true }
        let context = container.pointer.pointee
        if (context.ctx_flags & AVFMTCTX_UNSEEKABLE) != 0 { return false }
        guard let io = context.pb else { return context.iformat?.pointee.read_seek != nil }
        return (io.pointee.seekable & AVIO_SEEKABLE_NORMAL) != 0
    }

    /// Moves the read position so the next packets start at a keyframe near `target`.
    ///
    /// Times are on the item timeline (the timeline of the packets this demuxer returns, which
    /// starts at zero).
    /// Tries `avformat_seek_file(min: earliest, ts: target, max: latest)` across all streams;
    /// if the container cannot honour that window, falls back to the keyframe at or before
    /// `target`; a seek to the start falls back to a byte seek to 0. The caller flushes its
    /// decoders afterwards.
    ///
    /// - Parameters:
    ///   - target: where the caller wants to be.
    ///   - earliest: the earliest acceptable keyframe (`.negativeInfinity` for any).
    ///   - latest: the latest acceptable keyframe (`.positiveInfinity` for any).
    /// - Returns: true when the read position moved.
    package func seek(to target: CMTime, earliest: CMTime, latest: CMTime) -> Bool {
        seek(to: target, earliest: earliest, latest: latest, keyframe: nil)
    }

    /// As `seek(to:earliest:latest:)`; with a `keyframe` step, only the keyframe it names from
    /// `target` is wanted (a step of backward play or fast forward), and a streamed input that
    /// can fetch it alone ends after it.
    package func seek(to target: CMTime, earliest: CMTime, latest: CMTime, keyframe step: KeyframeStep?) -> Bool {
        seek(to: target, earliest: earliest, latest: latest, keyframe: step, checksKeyframe: true)
    }

    /// Moves the read position to just before `point` to read on from there after a cut read
    /// (the caller drops what it read before): as `seek(to:earliest:latest:)` with `point` the
    /// latest, but where the container's seeks land on any packet no keyframe is looked for
    /// (the decoder goes on with what it holds).
    package func seekToResume(at point: CMTime) -> Bool {
        seek(to: point, earliest: .negativeInfinity, latest: point, keyframe: nil, checksKeyframe: false)
    }

    private func seek(
        to target: CMTime, earliest: CMTime, latest: CMTime, keyframe step: KeyframeStep?, checksKeyframe: Bool
    ) -> Bool {
        dropHeldPackets()
        recoverFromCutRead()
        if restart != nil { return restartSeek(to: target) }
        if streamed != nil {
            let moved = streamedSeek(to: target, keyframe: step)
            // A step of trick play reads no sound.
            if step != nil { parkCompanions() } else { seekCompanions(to: target) }
            return moved
        }
        // A fast forward step: the first keyframe after `target` (none after: the one before).
        if step == .after { return seekToKeyframe(after: target) }
        let timeBase = CFFmpeg_AV_TIME_BASE_Q()
        guard var ts = target.ffmpegTicks(in: timeBase).map({ $0 + timelineOffset }) else {
            return false
        }
        let context = container.pointer
        let start =
            context.pointee.start_time == CFFmpeg_AV_NOPTS_VALUE() ? 0 : context.pointee.start_time
        // A seek to the start means the very first packet, even one stamped before zero
        // (audio priming, Opus pre-skip).
        if ts <= max(start, 0) { ts = min(ts, start) }
        let minimum =
            earliest.isNegativeInfinity || !earliest.isNumeric
            ? Int64.min : min((earliest.ffmpegTicks(in: timeBase) ?? Int64.min) &+ timelineOffset, ts)
        let maximum =
            latest.isPositiveInfinity || !latest.isNumeric
            ? Int64.max : max((latest.ffmpegTicks(in: timeBase) ?? (Int64.max - timelineOffset)) + timelineOffset, ts)
        container.interrupt.expire(after: timeout)
        FFmpegLog.clearLastMessage()
        let moved =
            avformat_seek_file(context, -1, minimum, ts, maximum, 0) >= 0
            || {
                container.interrupt.expire(after: timeout)
                return av_seek_frame(context, -1, ts, AVSEEK_FLAG_BACKWARD) >= 0
            }()
        if moved {
            // A keyframe at or before the latest acceptable time, where the container's
            // seeks land on any packet.
            if checksKeyframe, maximum != Int64.max, seeksByTimestampSearch {
                settleOnKeyframe(target: ts, earliest: minimum, latest: maximum)
            }
            return true
        }
        guard ts <= start, isSeekable else { return false }
        container.interrupt.expire(after: timeout)
        return av_seek_frame(context, -1, 0, AVSEEK_FLAG_BYTE) >= 0
    }

    /// Seeks to the first keyframe of the default (video) stream strictly after `target` (item
    /// time), counted in the stream's own ticks so no rounding can bring back the one at
    /// `target`: the entry its index lists, else the demuxer's own forward search (an index
    /// still incomplete: Matroska's cues at the end are read on the first seek, a fragmented
    /// MP4's entries as its fragments are); with none after, to the last at or before it again
    /// (the caller then shows nothing new). False when a later keyframe is listed but the
    /// seek to it failed.
    private func seekToKeyframe(after target: CMTime) -> Bool {
        let context = container.pointer
        let index = av_find_default_stream_index(context)
        guard index >= 0, let stream = container.stream(at: Int(index)),
            let ticks = target.ffmpegTicks(in: stream.pointee.time_base)
        else { return false }
        let wanted = ticks &+ (timelineStart.ffmpegTicks(in: stream.pointee.time_base) ?? 0) &+ 1
        container.interrupt.expire(after: timeout)
        FFmpegLog.clearLastMessage()
        // (Without AVSEEK_FLAG_ANY the search skips entries that are not keyframes.)
        if let entry = avformat_index_get_entry_from_timestamp(stream, wanted, 0) {
            let time = entry.pointee.timestamp
            return avformat_seek_file(context, index, time, time, time, 0) >= 0
        }
        if avformat_seek_file(context, index, wanted, wanted, Int64.max, 0) >= 0 { return true }
        container.interrupt.expire(after: timeout)
        _ = av_seek_frame(context, index, wanted, AVSEEK_FLAG_BACKWARD)
        return true
    }
}
