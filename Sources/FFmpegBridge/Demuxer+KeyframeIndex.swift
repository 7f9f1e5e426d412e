// Playhead: reading a container's keyframe index (where the next seek would land).
internal import CFFmpeg
internal import CFFmpegShims
import OpenCoreMedia

// Concurrency: like every `Demuxer` member, call only from the thread that owns the demuxer.

extension Demuxer {
    /// The indexed time of the last keyframe at or before `time` in stream `index`, from the
    /// container's index (MP4, Matroska and others keep one), on the item timeline.
    ///
    /// The index holds the container's sample times: decode times in MP4 (a B-frame delay
    /// before the presentation time), presentation times in Matroska. Use it for decisions
    /// that stay correct either way, never as a frame's presentation time.
    ///
    /// Lets a frame grabber tell whether a target lies in the GOP it is already decoding.
    /// Nil when the container has no index for the stream (MPEG-TS before reading) or no
    /// keyframe precedes `time`.
    package func indexedKeyframe(atOrBefore time: CMTime, stream index: Int) -> CMTime? {
        indexedKeyframe(near: time, stream: index, backward: true)
    }

    /// The indexed time of the first keyframe at or after `time` in stream `index`, from the
    /// container's index, on the item timeline; nil when unknown. See
    /// `indexedKeyframe(atOrBefore:stream:)` about which time the index holds.
    package func indexedKeyframe(atOrAfter time: CMTime, stream index: Int) -> CMTime? {
        indexedKeyframe(near: time, stream: index, backward: false)
    }

    /// True when the container's index lists entries for stream `index`.
    package func hasKeyframeIndex(stream index: Int) -> Bool {
        guard let stream = container.stream(at: index) else { return false }
        return avformat_index_get_entries_count(stream) > 0
    }

    private func indexedKeyframe(near time: CMTime, stream index: Int, backward: Bool) -> CMTime? {
        guard let stream = container.stream(at: index), time.isNumeric else { return nil }
        let timeBase = stream.pointee.time_base
        let shift = timelineStart.ffmpegTicks(in: timeBase) ?? 0
        guard let ticks = time.ffmpegTicks(in: timeBase) else { return nil }
        let flags = backward ? AVSEEK_FLAG_BACKWARD : 0
        guard let entry = avformat_index_get_entry_from_timestamp(stream, ticks + shift, flags) else {
            return nil
        }
        return CMTime(ffmpegTicks: entry.pointee.timestamp - shift, timeBase: timeBase)
    }
}
