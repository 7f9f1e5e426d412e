// Playhead: turns decoded audio into output-ready Float32 chunks, optionally at another tempo.
import OpenCoreMedia

// Concurrency: an `AudioConverter` belongs to one thread (the audio decode thread, or the
// engine thread feeding the output's ring buffer). It never runs on the real-time audio
// callback: it allocates. Frames it reads are immutable; chunks it returns are values.

/// Converts `AudioFrame`s of any format, layout and rate to interleaved Float32 at a chosen
/// rate and channel count, through an optional pitch-preserving tempo stage (libavfilter
/// atempo), and stamps each chunk with the item time it covers.
///
/// Timing: the first frame after creation or `reset()` anchors the timeline at its `pts`;
/// each chunk then starts exactly where the previous one ended (`mediaTime + mediaDuration`),
/// with `mediaDuration = frameCount / sampleRate × tempo`. A jump of more than
/// `discontinuityThreshold` in the input timestamps drains what is buffered and re-anchors.
package final class AudioConverter: @unchecked Sendable {
    /// The slowest and fastest tempo the converter accepts; requests are clamped to it. The
    /// top is Apple's own time-pitch limit (32x), five atempo stages of 2x.
    package static let tempoRange: ClosedRange<Double> = 0.25...32.0
    /// Input timestamp jumps larger than this re-anchor the timeline (seconds).
    package static let discontinuityThreshold = 0.1

    /// Output sample frames per second.
    package let sampleRate: Int
    /// Output channels.
    package let channels: Int
    /// The current tempo (1 = normal speed; 2 = twice as fast, same pitch).
    package private(set) var tempo: Double = 1

    /// owned by the converter's thread
    private let resampler: Resampler
    /// owned by the converter's thread; nil while tempo is 1 (bypass)
    private var tempoFilter: TempoFilter?
    /// owned by the converter's thread: chunks produced by a tempo change, returned next call
    private var pending: [PCMChunk] = []
    /// owned by the converter's thread: item time of the first output sample since the anchor
    private var anchor: CMTime?
    /// owned by the converter's thread: output position after `anchor`, in media samples
    private var mediaOffset: Double = 0
    /// owned by the converter's thread: where the next input frame should start
    private var expectedInput: CMTime = .invalid

    /// Creates a converter producing `channels` interleaved channels at `sampleRate` Hz.
    package init(sampleRate: Int, channels: Int) {
        precondition(sampleRate > 0 && channels > 0, "output rate and channels must be positive")
        self.sampleRate = sampleRate
        self.channels = channels
        resampler = Resampler(outputRate: sampleRate, outputChannels: channels)
    }

    /// Sets the tempo, clamped to `tempoRange`. 1.0 bypasses the filter. Samples the old
    /// stage still held are returned by the next `convert` or `drain` call, stamped at the
    /// old tempo; a change that keeps the number of atempo stages is applied in place.
    package func setTempo(_ newTempo: Double) {
        let clamped = min(
            AudioConverter.tempoRange.upperBound,
            max(AudioConverter.tempoRange.lowerBound, newTempo))
        guard clamped != tempo else { return }
        if let filter = tempoFilter, clamped != 1, filter.setTempo(clamped) {
            tempo = clamped
            return
        }
        if let filter = tempoFilter {
            pending += chunks(from: filter.drain())
            tempoFilter = nil
        }
        tempo = clamped
    }

    /// Converts one decoded frame. May return no chunk (the tempo stage is filling) or several.
    package func convert(_ frame: AudioFrame) -> [PCMChunk] {
        var output = pending
        pending = []
        if frame.pts.isNumeric {
            if anchor != nil, expectedInput.isNumeric,
                abs((frame.pts - expectedInput).seconds) > AudioConverter.discontinuityThreshold
            {
                output += drainStages()
                anchor = nil
            }
            if anchor == nil {
                anchor = frame.pts
                mediaOffset = 0
            }
            expectedInput = frame.duration.isNumeric ? frame.pts + frame.duration : .invalid
        } else {
            if anchor == nil { anchor = expectedInput.isNumeric ? expectedInput : .zero }
            if expectedInput.isNumeric, frame.duration.isNumeric {
                expectedInput = expectedInput + frame.duration
            }
        }
        guard let samples = resampler.convert(frame), !samples.isEmpty else { return output }
        output += chunks(from: applyTempo(samples))
        return output
    }

    /// Flushes the resampler and tempo stage at end of stream and returns the last chunks.
    package func drain() -> [PCMChunk] {
        let output = pending + drainStages()
        pending = []
        return output
    }

    /// Drops everything buffered (after a seek or flush); the next frame re-anchors the
    /// timeline at its own timestamp.
    package func reset() {
        resampler.reset()
        tempoFilter = nil
        pending = []
        anchor = nil
        mediaOffset = 0
        expectedInput = .invalid
    }

    // MARK: - Stages

    private func applyTempo(_ samples: [Float]) -> [Float] {
        guard tempo != 1 else { return samples }
        if tempoFilter == nil {
            tempoFilter = TempoFilter(
                tempo: tempo, sampleRate: sampleRate, channels: channels,
                layoutName: resampler.outputLayoutName)
        }
        // Without a working filter, play at normal speed rather than go silent.
        guard let filter = tempoFilter else { return samples }
        return filter.push(samples)
    }

    private func drainStages() -> [PCMChunk] {
        var output = chunks(from: applyTempo(resampler.drain()))
        if let filter = tempoFilter {
            output += chunks(from: filter.drain())
            tempoFilter = nil
        }
        resampler.reset()
        return output
    }

    private func chunks(from samples: [Float]) -> [PCMChunk] {
        let frameCount = samples.count / channels
        guard frameCount > 0 else { return [] }
        let anchor = self.anchor ?? .zero
        let startTicks = Int64(mediaOffset.rounded())
        mediaOffset += Double(frameCount) * tempo
        let endTicks = Int64(mediaOffset.rounded())
        let scale = Int32(sampleRate)
        return [
            PCMChunk(
                samples: samples, frameCount: frameCount, channels: channels,
                sampleRate: sampleRate,
                mediaTime: anchor + CMTime(value: startTicks, timescale: scale),
                mediaDuration: CMTime(value: endTicks - startTicks, timescale: scale))
        ]
    }
}
