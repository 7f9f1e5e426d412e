// Playhead: the single owner of one decoded block of audio samples (an AVFrame reference).
internal import CFFmpeg
internal import CFFmpegShims
import OpenCoreMedia

// Concurrency: an `AudioFrame` is immutable after creation: the decode thread creates it and
// it may then be read from any thread (usually the thread running an `AudioConverter`).

/// One decoded block of audio in the decoder's own sample format and layout. Owns an
/// `AVFrame` reference and frees it in `deinit`.
package final class AudioFrame: @unchecked Sendable {
    /// owned by this frame; never mutated after init; freed in deinit
    let pointer: UnsafeMutablePointer<AVFrame>

    /// When the first sample plays: the best-effort timestamp in the stream's time base;
    /// `.invalid` when unknown.
    package let pts: CMTime
    /// How long the block lasts: `sampleCount / sampleRate`.
    package let duration: CMTime
    /// Samples per channel.
    package let sampleCount: Int
    /// Samples per second.
    package let sampleRate: Int
    /// The number of channels.
    package let channelCount: Int
    /// FFmpeg's name for the sample format, e.g. "fltp" or "s16".
    package let sampleFormatName: String

    /// Takes over the reference in `source` (av_frame_move_ref), leaving `source` blank.
    init?(movingFrom source: UnsafeMutablePointer<AVFrame>, timeBase: AVRational) {
        guard let frame = av_frame_alloc() else { return nil }
        av_frame_move_ref(frame, source)
        pointer = frame
        let value = frame.pointee
        pts = CMTime(ffmpegTicks: value.best_effort_timestamp, timeBase: timeBase)
        sampleCount = Int(value.nb_samples)
        sampleRate = Int(value.sample_rate)
        channelCount = Int(value.ch_layout.nb_channels)
        duration =
            sampleRate > 0
            ? CMTime(value: Int64(sampleCount), timescale: Int32(sampleRate)) : .invalid
        sampleFormatName =
            av_get_sample_fmt_name(AVSampleFormat(value.format)).map {
                String(cString: $0)
            } ?? "none"
    }

    deinit {
        var frame: UnsafeMutablePointer<AVFrame>? = pointer
        av_frame_free(&frame)
    }
}
