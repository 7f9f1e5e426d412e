// Playhead: a clock-driven audio output that keeps every rendered sample, for tests.
import OpenAVFoundation
import Synchronization

// Concurrency: the wrapped `ClockDrivenAudioOutput` renders on its own thread and appends each
// period to `recorded.samples` (protected by its lock). Tests read the recording from any thread;
// reading after `waitUntilCaughtUp()` or `stop()` sees every period rendered so far.

/// An ``AudioOutput`` that behaves exactly like ``ClockDrivenAudioOutput`` (paced by a
/// ``HostClock``, deterministic under ``ManualClock``) and records what was "heard".
///
/// Use it to check audible results: silence where a gap should be, a tone's frequency, that a
/// seek dropped stale audio, or the effect of volume and mute.
package final class RecordingAudioOutput: AudioOutput {
    private final class Recording: Sendable {
        let samples = Locked<[Float]>([])
    }

    private let recorded = Recording()
    private let output: ClockDrivenAudioOutput

    /// Creates a closed recording output.
    /// - Parameters:
    ///   - clock: the host clock pacing rendering (usually a ``ManualClock``).
    ///   - outputLatency: the latency reported to the source.
    package init(clock: any HostClock, outputLatency: Double = 0) {
        let recorded = self.recorded
        output = ClockDrivenAudioOutput(
            clock: clock, name: "recording", outputLatency: outputLatency
        ) { period in
            recorded.samples.withLock { $0.append(contentsOf: period) }
        }
    }

    /// `recording`.
    package var name: String { output.name }

    /// The latency given at creation.
    package var outputLatency: Double { output.outputLatency }

    /// Accepts the format as is.
    package func open(format: AudioOutputFormat, source: any AudioRenderSource) throws
        -> AudioOutputFormat
    {
        try output.open(format: format, source: source)
    }

    /// Starts rendering in step with the clock.
    package func start() { output.start() }

    /// Stops rendering; afterwards the recording is complete.
    package func stop() { output.stop() }

    /// Stops and releases the source (the recording is kept).
    package func close() { output.close() }

    /// The format given to `open`, or `nil` while closed.
    package var format: AudioOutputFormat? { output.format }

    /// True between `start()` and `stop()` (the engine starts its output on a queue of its own,
    /// a moment after it reports playing).
    package var isRunning: Bool { output.isRunning }

    /// Blocks until every frame due at the clock's current time has been rendered and recorded.
    @discardableResult
    package func waitUntilCaughtUp(timeout: Double = 10) -> Bool {
        output.waitUntilCaughtUp(timeout: timeout)
    }

    /// Every sample rendered so far, interleaved.
    package var samples: [Float] { recorded.samples.withLock { $0 } }

    /// Number of frames rendered so far.
    package var frameCount: Int {
        let channels = output.format?.channelCount ?? 1
        return recorded.samples.withLock { $0.count } / channels
    }

    /// Discards the recording so far.
    package func clearRecording() {
        recorded.samples.withLock { $0.removeAll(keepingCapacity: true) }
    }

    /// Frame ranges where every channel is exactly zero for at least `minimumFrames` frames.
    package func silentRanges(minimumFrames: Int = 1) -> [Range<Int>] {
        let channels = output.format?.channelCount ?? 1
        let data = samples
        var ranges: [Range<Int>] = []
        var start: Int?
        let frames = data.count / channels
        for frame in 0...frames {
            let silent =
                frame < frames
                && (0..<channels).allSatisfy { data[frame * channels + $0] == 0 }
            if silent, start == nil { start = frame }
            if !silent, let first = start {
                if frame - first >= minimumFrames { ranges.append(first..<frame) }
                start = nil
            }
        }
        return ranges
    }
}
