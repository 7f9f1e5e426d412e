// Playhead: the playback engine for one item: opens it, runs its threads, follows commands.
//
// Concurrency contract:
// - Commands (`start`, `setRate`, `setGain`, `seek`, `stop`) come from the main queue; they
//   change `control` (a lock) and wake threads, never block on I/O.
// - `interrupt` (thread-safe atomics) is what FFmpeg polls during the open and every read:
//   `stop()` aborts it for good; `seek` kicks it once to free a read stuck on a stalled
//   connection.
// - Threads, each owning its FFmpeg objects: the open work (a global queue, or a thread of its
//   own for network media, then gone), the demux thread (owns the Demuxer and the packet
//   cache), the video decode thread (owns the VideoDecoder), the audio thread (owns the
//   AudioDecoder and AudioConverter, and is the ring buffer's producer), and the presentation
//   thread (reads frames, drives the clock and the video sinks).
// - `buffering` (a lock) holds the buffer tracker, updated by the demux and presentation
//   threads.
// - The audio device is started, stopped and closed on `outputQueue` (serial), never on the
//   caller's thread: those calls can block. Its callback reads only the ring buffer
//   (lock-free). After a natural end a short-lived "linger" thread owns the output for one
//   device latency, then closes it.
// - Stale data after a seek is dropped by generation: every queue item carries the generation
//   it was made under; `control.generation` is the current one.
// - Events go up through `events`, which the player hops to the main queue.
import FFmpegBridge
import Foundation
import Synchronization

/// Plays one item: the engine behind an `AVPlayer`'s current item.
final class ItemPlayback: Sendable {
    /// Item settings the engine needs, captured when playback starts.
    struct Settings: Sendable {
        let forwardEndTime: CMTime
        let preferredForwardBuffer: Double
        let keepsPitch: Bool
        let automaticallyLoadedKeys: [String]
        /// The media selection when playback starts.
        let selection: EngineSelection
        let preferredPeakBitRate: Double

        init(item: AVPlayerItem, criteria: SelectionCriteriaSnapshot) {
            preferredPeakBitRate = item.preferredPeakBitRate
            forwardEndTime = item.forwardPlaybackEndTime
            preferredForwardBuffer = item.preferredForwardBufferDuration
            keepsPitch = item.audioTimePitchAlgorithm != .varispeed
            automaticallyLoadedKeys = item.automaticallyLoadedAssetKeys
            selection = item.engineSelection(criteria: criteria)
        }
    }

    let asset: AVAsset
    let settings: Settings
    let environment: PlaybackEnvironment
    let events: @Sendable (ItemPlayback, PlaybackEvent) -> Void
    /// protected by its mutex: commands and shared progress
    let control = Locked(PlaybackControl())
    /// Wakes the demux thread (seek, stop).
    let demuxWake = WakeupSignal()
    /// Wakes the presentation thread (rate change, seek, new frames, stop).
    let presenterWake = WakeupSignal()
    /// Wakes the audio thread (seek, stop, ring space).
    let audioWake = WakeupSignal()
    /// Wakes the video decode thread (seek after end of stream, stop).
    let videoWake = WakeupSignal()
    /// Parts created when the media opens; nil until then.
    let pipeline = Locked<Pipeline?>(nil)
    /// protected by its mutex, taken on `outputQueue` only (held while starting or stopping
    /// the output)
    let outputPhase = Locked(AudioOutputPhase.idle)
    /// Serial: every start, stop and close of the audio output runs here, in command order.
    let outputQueue = DispatchQueue(label: "playhead.output", qos: .userInitiated)
    /// protected by its mutex: the switch FFmpeg polls while the demuxer opens and reads; the
    /// engine's own, or the one of an open it took over from the asset (`adoptInterrupt`).
    private let interruptSlot = Locked(InterruptDeadline())
    /// Polled by FFmpeg while the demuxer opens and reads; `stop()` aborts it (any thread).
    var interrupt: InterruptDeadline { interruptSlot.withLock { $0 } }
    /// protected by its mutex: the item time at which the player's time observers next need
    /// the time (`setNextTick`); +∞ while no observer does
    private let nextTick = Locked(CMTime.positiveInfinity)
    /// protected by its mutex: wake-ups of the engine's threads (`sleep(until:on:)`)
    private let wakeUpCount = Locked(0)
    /// protected by its mutex: the buffer flags and ranges (demux and presentation threads)
    let buffering = Locked<BufferTracker?>(nil)

    init(
        asset: AVAsset, settings: Settings, environment: PlaybackEnvironment,
        events: @escaping @Sendable (ItemPlayback, PlaybackEvent) -> Void
    ) {
        self.asset = asset
        self.settings = settings
        self.environment = environment
        self.events = events
        control.withLock { $0.selection = settings.selection }
    }

    // MARK: - Commands (main queue)

    /// Opens the media in the background and starts the threads.
    func start() {
        // A network open can block for as long as the time-out: it gets a thread of its own
        // rather than one of Dispatch's few shared workers.
        if asset.sourceURL.isFileURL {
            DispatchQueue.global(qos: .userInitiated).async { self.open() }
        } else {
            NamedThread.start("open") { self.open() }
        }
    }

    /// Sets how fast time runs: 0 pauses.
    func setRate(_ rate: Double) {
        let now = environment.hostClock.now
        let pipeline = self.pipeline.withLock { $0 }
        let changed = control.withLock { control -> Bool in
            guard control.rate != rate else { return false }
            let current = control.time(atHost: now, audio: pipeline?.ring)
            control.rate = rate
            if current.isNumeric { control.clock.set(media: current, host: now, generation: control.generation) }
            control.clock.setRate(rate, host: now)
            control.audioClockTrustedAfter = now
            return true
        }
        guard changed else { return }
        updateAudioOutput()
        presenterWake.wake()
        videoWake.wake()
        audioWake.wake()
        pipeline?.switchboard.cues.changed.wake()  // cue and metadata waits follow the rate
    }

    /// Starts or stops the audio output to match the rate (and stops it for good once stopped),
    /// on `outputQueue`: a device's start, stop and close can block (SDL's device lock, joining
    /// its thread, a hung sound server), and the caller is usually the main queue.
    func updateAudioOutput() {
        outputQueue.async { self.applyAudioOutputPhase() }
    }

    /// Brings the output to the phase the rate and stop ask for (`outputQueue` only).
    private func applyAudioOutputPhase() {
        guard let output = pipeline.withLock({ $0 })?.audioOutput else { return }
        let (rate, stopped, ended) = control.withLock { ($0.rate, $0.stopped, $0.endReported) }
        outputPhase.withLock { phase in
            guard phase != .closed else { return }
            if stopped {
                if ended, phase == .running, output.outputLatency > 0 {
                    // Stopped after playing to its end (a queue moving on): the device still
                    // holds the item's last audio, so it plays that out while the next item's
                    // output starts, instead of dropping it.
                    lingerThenClose(output, for: min(output.outputLatency, 0.5))
                } else {
                    output.stop()
                    output.close()
                }
                phase = .closed
                return
            }
            let wanted: AudioOutputPhase = rate > 0 ? .running : .idle
            guard wanted != phase else { return }
            if wanted == .running { output.start() } else { output.stop() }
            phase = wanted
        }
    }

    /// Lets `output` run for `seconds` of host time, then stops and closes it, on a thread of
    /// its own (the output holds its render source, so the ring outlives this engine).
    private func lingerThenClose(_ output: any AudioOutput, for seconds: Double) {
        let clock = environment.hostClock
        let deadline = clock.now + seconds
        NamedThread.start("linger") {
            let signal = WakeupSignal()
            while clock.now < deadline { _ = clock.wait(until: deadline, on: signal) }
            output.stop()
            output.close()
        }
    }

    /// Sets the audio gain (volume × mute).
    func setGain(_ gain: Float) {
        control.withLock { $0.gain = gain }
        pipeline.withLock { $0 }?.ring?.volume = gain
    }

    /// Starts `request`; completion is reported with `.seekFinished`.
    func seek(_ request: SeekRequest) {
        let pipeline = self.pipeline.withLock { $0 }
        control.withLock { control in
            let generation = control.beginSeek(request)
            // Flushed under the lock: no thread can see the new generation (and put data of
            // it, which would move a queue there first) before every queue moved to it.
            pipeline?.flush(generation: generation)
        }
        interruptReadForSeek(to: request.target)
        demuxWake.wake()
        videoWake.wake()
        audioWake.wake()
        presenterWake.wake()
        pipeline?.switchboard.cues.changed.wake()  // cues and timed metadata follow the jump
    }

    /// Stops every thread and releases the media (teardown finishes in the background).
    ///
    /// - Parameter clearsVideo: false keeps the last picture on the video sinks (a queue
    ///   moving on to a prerolled item shows that item's first frame next). A held (prerolled)
    ///   engine never showed anything and never clears.
    func stop(clearsVideo: Bool = true) {
        // Stopped first, then the pipeline: `open()` stores the pipeline before checking
        // `isStopped`, so one of the two sides always sees the other.
        let held = control.withLock { control -> Bool in
            control.stopped = true
            return control.isHeld
        }
        interrupt.abort()
        let pipeline = self.pipeline.withLock { $0 }
        pipeline?.abort()
        demuxWake.wake()
        videoWake.wake()
        audioWake.wake()
        presenterWake.wake()
        updateAudioOutput()
        guard clearsVideo, !held else { return }
        environment.videoSinks.clearAll()
    }

    /// Makes `adopted` the switch `stop()` aborts and seeks kick (open work, when it takes
    /// over the asset's open before checking `isStopped`; aborted at once if stopped already).
    func adoptInterrupt(_ adopted: InterruptDeadline) {
        interruptSlot.withLock { $0 = adopted }
        if isStopped { adopted.abort() }
    }

    /// Sends time up during playback only once it reaches `time` (the player's observers need
    /// nothing before): no main-queue hop per frame when nobody listens. Main queue.
    func setNextTick(at time: CMTime) {
        nextTick.withLock { $0 = time }
    }

    /// True when the time observers want to hear of `time` (presentation thread).
    func observersAwait(_ time: CMTime) -> Bool {
        nextTick.withLock { time >= $0 }
    }

    /// The item time the time observers want to hear of next (+∞: none).
    var nextTickTime: CMTime { nextTick.withLock { $0 } }

    /// Sleeps an engine thread until `deadline` on the host clock or until `signal` is woken,
    /// counting the wake-up (`wakeUps`).
    func sleep(until deadline: Double, on signal: WakeupSignal) {
        _ = environment.hostClock.wait(until: deadline, on: signal)
        wakeUpCount.withLock { $0 += 1 }
    }

    /// How many times the engine's threads woke from a sleep so far (a quiet engine stays put
    /// while paused).
    var wakeUps: Int { wakeUpCount.withLock { $0 } }

    // MARK: - Queries (any thread)

    /// The item time now: the seek target while seeking, the clock otherwise.
    func currentTime() -> CMTime { itemTime(atHost: environment.hostClock.now) }

    /// True when `generation` is the current one and its seek (if any) has landed.
    func isSettled(generation: Int) -> Bool {
        control.withLock { $0.isSettled(generation: generation) }
    }

    /// Counters of what playback did so far.
    var statistics: PlaybackStatistics { control.withLock { $0.statistics } }

    /// True once `stop()` was called.
    var isStopped: Bool { control.withLock { $0.stopped } }

    /// Sends `event` up to the player.
    func report(_ event: PlaybackEvent) {
        guard !isStopped else { return }
        events(self, event)
    }
}
