// Playhead: a silent audio output that consumes audio in step with a HostClock.
import Foundation
import Synchronization

// Concurrency contract:
// - `open`/`start`/`stop`/`close` are called by the controlling context (the engine), one at a
//   time. Shared fields are protected by `condition`.
// - One render thread per `start()`; it owns its local frame counters and scratch buffer, calls
//   the source and the observer, and reports progress under `condition`. It reads only
//   `stopRequested` (atomic) without the lock.
// - `stop()` raises `stopRequested`, wakes the thread and waits for it to exit, so no render call
//   runs after `stop()` returns.

/// An ``AudioOutput`` with no device: a thread that, driven by a ``HostClock``, renders and
/// discards exactly `elapsed × sampleRate` frames, in periods of about 10 ms.
/// (Each period is rendered once it is due and the audio clock holds still until the next, so
/// the period bounds the picture's sync error: 20 ms periods measured p99 21.7 ms against
/// 10.1 ms, for half the wake-ups.)
///
/// The engine falls back to it when no audio device opens, and tests and CI use it everywhere:
/// with ``SystemHostClock`` the audio clock advances in real time, and with ``ManualClock`` it
/// advances exactly as the test advances the clock. After `clock.advance(by: 0.5)`, call
/// ``waitUntilCaughtUp(timeout:)``; when it returns, exactly 0.5 s more frames have been
/// rendered.
///
/// Frame `k` after `start()` is rendered with `hostTime = startHost + k / sampleRate`, so the
/// published audio clock is exact regardless of thread scheduling.
///
/// Thread-safe.
package final class ClockDrivenAudioOutput: AudioOutput, @unchecked Sendable {
    /// Called on the render thread with every rendered period, after the source filled it.
    package typealias RenderObserver = @Sendable (UnsafeBufferPointer<Float>) -> Void

    private enum Phase { case closed, open, running }

    /// The clock that paces rendering.
    package let clock: any HostClock
    /// A short name for diagnostics.
    package let name: String
    /// The latency this output reports to its source (0 by default: nothing is heard).
    package let outputLatency: Double
    private let observer: RenderObserver?
    private let signal = WakeupSignal()
    private let stopRequested = Atomic<Bool>(false)

    private let condition = ThreadCondition()
    private var phase = Phase.closed  // protected by condition
    private var openFormat: AudioOutputFormat?  // protected by condition
    private var source: (any AudioRenderSource)?  // protected by condition
    private var threadActive = false  // protected by condition
    private var caughtUpHost = -Double.infinity  // protected by condition
    private var framesBeforeRun = 0  // protected by condition
    private var framesInRun = 0  // protected by condition

    /// Creates a closed output.
    /// - Parameters:
    ///   - clock: the host clock to follow.
    ///   - name: a name for diagnostics.
    ///   - outputLatency: the latency to report; the audio clock is shifted by it.
    ///   - observer: optional hook receiving each rendered period (for recording doubles).
    package init(
        clock: any HostClock, name: String = "clock-driven", outputLatency: Double = 0,
        observer: RenderObserver? = nil
    ) {
        self.clock = clock
        self.name = name
        self.outputLatency = outputLatency
        self.observer = observer
    }

    /// Accepts any format as is and remembers `source`.
    /// - Precondition: not running.
    package func open(format: AudioOutputFormat, source: any AudioRenderSource) throws
        -> AudioOutputFormat
    {
        try condition.withLock {
            guard phase != .running else { throw AudioOutputError("\(name) is running") }
            phase = .open
            openFormat = format
            self.source = source
        }
        source.setOutputLatency(outputLatency)
        return format
    }

    /// Starts the render thread; frame 0 is due at the clock's current time.
    package func start() {
        let startHost = clock.now
        let run: (source: any AudioRenderSource, format: AudioOutputFormat)? = condition.withLock {
            guard phase == .open, let source, let openFormat else { return nil }
            phase = .running
            threadActive = true
            caughtUpHost = -.infinity
            framesBeforeRun += framesInRun
            framesInRun = 0
            stopRequested.store(false, ordering: .relaxed)
            _ = signal.consumeWake()  // a wake left over from the previous run
            return (source, openFormat)
        }
        guard let run else { return }
        NamedThread.start("clock") { [self] in
            self.renderLoop(source: run.source, format: run.format, startHost: startHost)
        }
    }

    /// Stops the render thread and waits for it to exit.
    package func stop() {
        let running = condition.withLock { phase == .running }
        guard running else { return }
        stopRequested.store(true, ordering: .releasing)
        signal.wake()
        condition.withLock {
            while threadActive { condition.wait() }
            phase = .open
        }
    }

    /// Stops and forgets the source.
    package func close() {
        stop()
        condition.withLock {
            phase = .closed
            source = nil
            openFormat = nil
        }
    }

    /// True between `start()` and `stop()`: frames are due from the clock time `start()` saw.
    package var isRunning: Bool { condition.withLock { phase == .running } }

    /// The format given to `open`, or `nil` while closed.
    package var format: AudioOutputFormat? { condition.withLock { openFormat } }

    /// Frames rendered since creation (across start/stop cycles).
    package var renderedFrameCount: Int {
        condition.withLock { framesBeforeRun + framesInRun }
    }

    /// Blocks (in real time) until the render thread has rendered every frame due at the clock's
    /// current time, or the output is not running.
    ///
    /// Wakes the render thread first, so frames due inside a period that has not ended yet are
    /// rendered too: afterwards exactly `(now - startHost) × sampleRate` frames (rounded down)
    /// have been rendered.
    /// - Parameter timeout: real seconds before giving up.
    /// - Returns: `false` on timeout.
    @discardableResult
    package func waitUntilCaughtUp(timeout: Double = 10) -> Bool {
        let target = clock.now
        let deadline = ThreadCondition.monotonicNow() + timeout
        signal.wake()
        return condition.withLock {
            while phase == .running && threadActive && caughtUpHost < target {
                if ThreadCondition.monotonicNow() >= deadline { return false }
                condition.wait(untilMonotonic: deadline)
            }
            return true
        }
    }

    // MARK: - Render thread

    private func renderLoop(
        source: any AudioRenderSource, format: AudioOutputFormat, startHost: Double
    ) {
        let rate = Double(format.sampleRate)
        let periodFrames = max(1, format.sampleRate / 100)
        let scratch = UnsafeMutableBufferPointer<Float>.allocate(
            capacity: periodFrames * format.channelCount)
        scratch.initialize(repeating: 0)
        defer { scratch.deallocate() }
        var rendered = 0
        while !stopRequested.load(ordering: .acquiring) {
            let now = clock.now
            // The epsilon absorbs binary rounding of (now - start) × rate at exact boundaries.
            let due = Int(((now - startHost) * rate + 1e-6).rounded(.down))
            while rendered < due && !stopRequested.load(ordering: .relaxed) {
                let count = min(periodFrames, due - rendered)
                let period = UnsafeMutableBufferPointer(
                    rebasing: scratch[0..<(count * format.channelCount)])
                source.render(into: period, hostTime: startHost + Double(rendered) / rate)
                observer?(UnsafeBufferPointer(period))
                rendered += count
            }
            condition.withLock {
                framesInRun = rendered
                caughtUpHost = now
                condition.broadcast()
            }
            clock.wait(until: startHost + Double(rendered + periodFrames) / rate, on: signal)
        }
        condition.withLock {
            threadActive = false
            condition.broadcast()
        }
    }
}
