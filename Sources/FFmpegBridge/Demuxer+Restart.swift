// Playhead: seeking in inputs FFmpeg cannot seek itself. The built-in demo's lavfi graph
// cannot seek: the demuxer drops packets up to the target, and for a target behind what it
// has read it opens the graph again from the start first. Every packet of the graph (raw
// video, PCM) decodes on its own, so dropping them is an exact seek that costs only
// synthesis (a few hundred pictures a second). A streamed input (Playhead's HLS loader)
// starts its bytes again at the segment holding the target, read by a fresh container
// (Demuxer+Sections.swift).
//
// Concurrency: like the rest of `Demuxer`, demux-thread only.
internal import CFFmpeg
internal import CFFmpegShims
import Foundation
import OpenCoreMedia

/// How a synthesised input seeks.
struct RestartState {
    /// What to open again to go back.
    let location: MediaLocation
    /// The end of the latest packet read, in AV_TIME_BASE units.
    var readEnd: Int64 = 0
    /// Packets ending at or before this time (AV_TIME_BASE units) are dropped.
    var skipBefore: Int64?
}

extension Demuxer {
    /// Seeks a synthesised input to `target`: forward by dropping packets, backward by
    /// reopening the graph and dropping up to the target. False when reopening failed (the
    /// input then keeps playing from where it was).
    func restartSeek(to target: CMTime) -> Bool {
        guard var state = restart,
            let ticks = target.ffmpegTicks(in: CFFmpeg_AV_TIME_BASE_Q())
        else { return false }
        let goal = max(0, ticks)
        if goal < state.readEnd {
            do throws(MediaFailure) {
                let reopened = try FormatContext(
                    location: state.location, timeout: timeout, interrupt: interrupt)
                guard reopened.streamCount == container.streamCount else { return false }
                for index in 0..<reopened.streamCount {
                    reopened.stream(at: index)?.pointee.discard =
                        container.stream(at: index)?.pointee.discard ?? AVDISCARD_DEFAULT
                }
                container = reopened
                state.readEnd = 0
            } catch {
                return false
            }
        }
        state.skipBefore = goal > 0 ? goal : nil
        restart = state
        return true
    }

    /// True when the packet in `packet` ends before the pending seek target (drop it); also
    /// notes how far the input has been read.
    func skipsBeforeSeekTarget(_ packet: UnsafeMutablePointer<AVPacket>, timeBase: AVRational)
        -> Bool
    {
        guard var state = restart, packet.pointee.pts != CFFmpeg_AV_NOPTS_VALUE() else {
            return false
        }
        let end = av_rescale_q(
            packet.pointee.pts + max(packet.pointee.duration, 1), timeBase, CFFmpeg_AV_TIME_BASE_Q()
        )
        state.readEnd = max(state.readEnd, end)
        let skip = state.skipBefore.map { end <= $0 } ?? false
        restart = state
        return skip
    }
}

extension Demuxer {
    /// Seeks a streamed input: its loader starts again at the segment holding `target` (every
    /// segment starts with a keyframe), or with the keyframe a `keyframe` step names alone (a step of backward play or fast forward) when
    /// the loader can, and a fresh container reads from there with the same streams. False when
    /// the loader cannot or the new container does not match.
    func streamedSeek(to target: CMTime, keyframe step: KeyframeStep? = nil) -> Bool {
        guard let location = streamed, let input = location.streaming, target.isNumeric,
            let section = step.map({ input.restart(at: max(0, target.seconds), keyframe: $0) })
                ?? input.restart(at: max(0, target.seconds))
        else { return false }
        sections?.audioEnds = [:]
        return openSection(section)
    }
}
