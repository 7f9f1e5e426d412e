// Playhead: a recording audio output that keeps the host time of every rendered period, so
// tests can put several outputs (one per queue item) on one timeline.
//
// Concurrency: the wrapped `ClockDrivenAudioOutput` renders on its own thread; the recording
// source appends each period (host time and samples) under a lock. Tests read `periods` from
// any thread; reading after the output stopped, or after `waitUntilCaughtUp()`, sees all of it.
// (Recording allocates on the render thread: acceptable in a test double only.)
import Foundation
import Synchronization

@testable import OpenAVFoundation

/// One rendered period: its first frame's host time and its interleaved samples.
struct RenderedPeriod: Sendable {
    let hostTime: Double
    let samples: [Float]
}

/// Audible stretches of one output on the host-time axis.
struct AudibleTimeline: Sendable {
    /// Host time of the first non-silent frame (nil when nothing was heard).
    var first: Double?
    /// Host time just after the last non-silent frame.
    var end: Double?
    /// Seconds of sound between `first` and `end`, not counting silent runs of `minimumGap`.
    var audibleSeconds = 0.0
    /// The longest silent run between `first` and `end`, in seconds.
    var longestInnerSilence = 0.0
    /// Mean number of sign changes per second (twice the tone's frequency).
    var zeroCrossingsPerSecond = 0.0
}

/// An ``AudioOutput`` like ``ClockDrivenAudioOutput`` (paced by the clock) that records every
/// period together with the host time it was rendered for.
final class TimelineAudioOutput: AudioOutput, @unchecked Sendable {
    private let recorded: Locked<[RenderedPeriod]>
    private let openedFormat = Locked<AudioOutputFormat?>(nil)
    /// Host times of each `start()` and the `stop()` that ended it (nil while running).
    private let runs = Locked<[(start: Double, stop: Double?)]>([])
    private let clock: any HostClock
    private let output: ClockDrivenAudioOutput

    /// - Parameter outputLatency: models a device buffer: a frame rendered at host time `h` is
    ///   heard at `h + outputLatency`, and only if the output still runs then (a device drops
    ///   what it buffered when it stops, as SDL does when the device is paused or closed).
    init(clock: any HostClock, outputLatency: Double = 0) {
        recorded = Locked([])
        self.clock = clock
        output = ClockDrivenAudioOutput(
            clock: clock, name: "timeline", outputLatency: outputLatency)
    }

    var name: String { output.name }
    var outputLatency: Double { output.outputLatency }
    var format: AudioOutputFormat? { output.format }

    func open(format: AudioOutputFormat, source: any AudioRenderSource) throws -> AudioOutputFormat
    {
        let accepted = try output.open(
            format: format, source: Forwarder(owner: self, inner: source))
        openedFormat.withLock { $0 = accepted }
        return accepted
    }
    func start() {
        runs.withLock { $0.append((clock.now, nil)) }
        output.start()
    }
    func stop() {
        output.stop()
        let now = clock.now
        runs.withLock { runs in
            if let last = runs.indices.last, runs[last].stop == nil { runs[last].stop = now }
        }
    }
    func close() {
        stop()
        output.close()
    }

    /// True when a frame rendered at `host` was heard: its run was still going `latency` later.
    private static func isHeard(
        renderedAt host: Double, latency: Double, runs: [(start: Double, stop: Double?)]
    ) -> Bool {
        guard latency > 0 else { return true }
        let run = runs.last { $0.start <= host + 1e-9 }
        guard let stop = run?.stop else { return true }
        return host + latency < stop
    }

    /// Every period rendered so far, in order.
    var periods: [RenderedPeriod] { recorded.withLock { $0 } }

    fileprivate func append(_ period: RenderedPeriod) { recorded.withLock { $0.append(period) } }

    /// Forwards rendering to the engine's source and hands each period to the owner.
    private final class Forwarder: AudioRenderSource, @unchecked Sendable {
        let owner: TimelineAudioOutput
        let inner: any AudioRenderSource
        init(owner: TimelineAudioOutput, inner: any AudioRenderSource) {
            self.owner = owner
            self.inner = inner
        }
        func render(into buffer: UnsafeMutableBufferPointer<Float>, hostTime: Double) {
            inner.render(into: buffer, hostTime: hostTime)
            owner.append(RenderedPeriod(hostTime: hostTime, samples: Array(buffer)))
        }
        func setOutputLatency(_ seconds: Double) { inner.setOutputLatency(seconds) }
    }

    /// The audible stretch of this output, in heard host time (rendering time plus the
    /// latency; frames a stop dropped are left out): silent runs shorter than `minimumGap` seconds (a
    /// sine's exact zero crossings) count as sound.
    /// `window`: only frames heard within it count.
    func timeline(minimumGap: Double = 0.001, window: Range<Double>? = nil) -> AudibleTimeline {
        // The format given at open (kept after close, when `format` is nil again).
        guard let format = openedFormat.withLock({ $0 }) else { return AudibleTimeline() }
        let channels = format.channelCount
        let rate = Double(format.sampleRate)
        var result = AudibleTimeline()
        var silentSince: Double?
        var silentFrames = 0
        var audibleFrames = 0
        var crossings = 0
        var lastSign: Bool?
        let latency = outputLatency
        let runs = self.runs.withLock { $0 }
        for period in periods {
            let frames = period.samples.count / channels
            for frame in 0..<frames {
                let rendered = period.hostTime + Double(frame) / rate
                guard Self.isHeard(renderedAt: rendered, latency: latency, runs: runs) else {
                    continue
                }
                let time = rendered + latency
                if let window, !window.contains(time) { continue }
                let value = period.samples[frame * channels]
                let silent = (0..<channels).allSatisfy {
                    period.samples[frame * channels + $0] == 0
                }
                if silent {
                    if silentSince == nil { silentSince = time }
                    silentFrames += 1
                    continue
                }
                if result.first == nil { result.first = time }
                if let since = silentSince, result.end != nil {
                    let run = time - since
                    result.longestInnerSilence = max(result.longestInnerSilence, run)
                    if run < minimumGap { audibleFrames += silentFrames }
                }
                silentSince = nil
                silentFrames = 0
                audibleFrames += 1
                result.end = time + 1 / rate
                let sign = value > 0
                if let lastSign, lastSign != sign { crossings += 1 }
                lastSign = sign
            }
        }
        result.audibleSeconds = Double(audibleFrames) / rate
        if let first = result.first, let end = result.end, end > first {
            result.zeroCrossingsPerSecond = Double(crossings) / (end - first)
        }
        return result
    }
}
