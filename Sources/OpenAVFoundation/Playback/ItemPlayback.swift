// Playhead: the playback engine for one item: opens it, runs its threads, follows commands.
//
// Concurrency contract:
// - One owner decides: `coordinator` holds the engine's state (seek and generation, landing,
//   end of stream per stream, clock anchor, rate, selection, buffer tracker, statistics) and
//   changes it only by handling events (EngineState+Handle.swift), one at a time. Commands
//   (`start`, `setRate`, `setGain`, `seek`, `stop`, selection) come from the main queue and are
//   posted as events; they never block on I/O. Workers post what they did and read copies of
//   the state; none keeps state another thread writes.
// - `interrupt` (thread-safe atomics) is what FFmpeg polls during the open and every read:
//   `stop()` aborts it for good; a seek kicks it once to free a read stuck on a stalled
//   connection (a `.kickStalledRead` action).
// - Workers, each owning its FFmpeg objects: the open work (a global queue, or a thread of its
//   own for network media, then gone), the demux thread (owns the Demuxer, the packet cache
//   and the stream router), the video decode thread (owns the VideoDecoder), the audio thread
//   (owns the AudioDecoder and AudioConverter, and is the ring buffer's producer), the
//   presentation thread (takes frames, calls the video sinks) and the subtitle thread.
// - The audio device is started, stopped and closed on `outputQueue` (serial), never on the
//   caller's thread: those calls can block. Its callback reads only the ring buffer
//   (lock-free). After a seek `outputQueue` also drops the output's queued audio and, while it
//   holds the output stopped (`outputPhase`), the ring's stale audio (as the ring's consumer
//   for that moment). After a natural end a short-lived "linger" thread owns the output for
//   one device latency, then closes it (counted in `LingeringAudio`); a player's shared
//   device (SharedAudioDevice) plays the end out itself instead.
// - Stale data after a seek is dropped by generation: every queue item carries the generation
//   it was made under; the state's `generation` is the current one.
// - News goes up through `outbox`: queued in the order it was decided, delivered to `events`
//   on the main queue, a burst in one hop (ItemPlayback+News.swift).
import FFmpegBridge
import Foundation
import Synchronization

/// Plays one item: the engine behind an `AVPlayer`'s current item.
final class ItemPlayback: Sendable {
    /// Item settings the engine needs, captured when playback starts.
    struct Settings: Sendable {
        let forwardEndTime: CMTime
        let reverseEndTime: CMTime
        let preferredForwardBuffer: Double
        let keepsPitch: Bool
        let automaticallyLoadedKeys: [String]
        /// The media selection when playback starts.
        let selection: EngineSelection
        /// The item's variant caps and start rule as they are now (read when the stream opens
        /// and when its loader starts: an app may set them after the player took the item);
        /// the values at creation once the item is gone.
        let currentVariantCaps: @Sendable () -> VariantAdaptation.Caps
        /// The audio device asked for (`AVPlayer.audioOutputDeviceUniqueID`); nil: the default.
        let audioDevice: String?
        /// A queue's next item: the engine of the item it follows (ItemPlayback+Preroll.swift).
        var predecessor: WeakReference<ItemPlayback>?

        init(item: AVPlayerItem, criteria: SelectionCriteriaSnapshot, audioDevice: String? = nil) {
            self.audioDevice = audioDevice
            let caps = item.variantCaps
            currentVariantCaps = { [weak item] in item?.variantCaps ?? caps }
            forwardEndTime = item.forwardPlaybackEndTime
            reverseEndTime = item.reversePlaybackEndTime
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
    /// The one owner of the engine's state.
    let coordinator: EngineCoordinator
    /// Wakes the demux thread (seek, stop).
    let demuxWake = WakeupSignal()
    /// Wakes the presentation thread (rate change, seek, new frames, stop).
    let presenterWake = WakeupSignal()
    /// Wakes the audio thread (seek, stop, ring space).
    let audioWake = WakeupSignal()
    /// Wakes the video decode thread (seek after end of stream, stop).
    let videoWake = WakeupSignal()
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
    /// protected by its mutex: Playhead's HLS loader when it streams the item (thread-safe
    /// itself), for the access log and the app's variant caps
    let streamLoader = Locked<HLSStreamLoader?>(nil)
    /// protected by its mutex: news on its way to the main queue (ItemPlayback+News.swift)
    let outbox = Locked(NewsOutbox())
    /// Wake-ups of the engine's threads (`sleep(until:on:)`), counted atomically.
    private let wakeUpCount = Atomic<Int>(0)
    /// Set once `.opened` has been reported. The subtitle thread holds timed metadata back
    /// until then, so the item's tracks are published before a group names its track.
    let openedReported = Atomic<Bool>(false)
    /// True once the media failed to open (set before the failure is reported).
    let failedToOpen = Atomic<Bool>(false)

    init(
        asset: AVAsset, settings: Settings, environment: PlaybackEnvironment,
        events: @escaping @Sendable (ItemPlayback, PlaybackEvent) -> Void
    ) {
        self.asset = asset
        self.settings = settings
        self.environment = environment
        self.events = events
        var initial = EngineState()
        initial.selection = settings.selection
        initial.isNetwork = !asset.sourceURL.isFileURL
        initial.isUntimed = environment.untimed
        coordinator = EngineCoordinator(initial)
    }

    /// Hands `event` to the coordinator, carries out what it decides and returns the answer
    /// meant for the poster, if any.
    @discardableResult
    func post(_ event: EngineEvent) -> EngineReply? {
        let left = coordinator.post(event) { perform($0, pipeline: $1) }
        var reply: EngineReply?
        for action in left {
            switch action {
            case .reply(let answer): reply = answer
            case .clearVideo: environment.videoSinks.clearAll()
            default: break
            }
        }
        return reply
    }

    /// The parts made when the media opened; nil until then.
    var pipeline: Pipeline? { coordinator.read { $0.pipeline } }

    /// Carries out `action` inside the coordinator's section: nothing here blocks or posts.
    private func perform(_ action: EngineAction, pipeline: Pipeline?) {
        switch action {
        case .wake(let threads):
            if threads.contains(.demux) { demuxWake.wake() }
            if threads.contains(.video) { videoWake.wake() }
            if threads.contains(.audio) { audioWake.wake() }
            if threads.contains(.presenter) { presenterWake.wake() }
            if threads.contains(.subtitles) { pipeline?.switchboard.cues.changed.wake() }
        case .flushQueues(let generation):
            pipeline?.flush(generation: generation)
            if pipeline?.ring != nil { outputQueue.async { self.discardStaleAudio() } }
        case .kickStalledRead: interrupt.kick()
        case .abort:
            interrupt.abort()
            pipeline?.abort()
        case .applyAudioOutput: updateAudioOutput()
        case .setVolume(let gain): pipeline?.ring?.volume = gain
        case .applyAudioDelay(let delay): pipeline?.ring?.audioDelay = delay
        case .gateAudio(let start): pipeline?.ring?.startGate = start
        case .loadLegible(let source, let version):
            if let pipeline = pipeline { loadLegible(source, version: version, into: pipeline) }
        case .endPacketQueues:
            pipeline?.videoPackets.markEndOfStream()
            pipeline?.audioPackets.markEndOfStream()
        case .endFrameQueue: pipeline?.videoFrames.markEndOfStream()
        case .report(let event):
            // Queued from inside the section, so news keeps the order it was decided in.
            send(event)
        case .reply, .clearVideo: break
        }
    }


    // MARK: - Commands (main queue)

    /// Opens the media in the background and starts the threads.
    func start() {
        // The open work below takes what loading the asset's keys opened: keep it until then.
        asset.inspection.noteInterest(seconds: AssetInspection.engineOnItsWaySeconds)
        // A network open can block for as long as the time-out: it gets a thread of its own
        // rather than one of Dispatch's few shared workers.
        if asset.sourceURL.isFileURL {
            DispatchQueue.global(qos: .userInitiated).async { self.open() }
        } else {
            NamedThread.start("open") { self.open() }
        }
    }

    /// Sets how fast time runs: 0 pauses (`waiting`: stands while the player waits for data).
    func setRate(_ rate: Double, waiting: Bool = false) {
        post(.setRate(rate, host: environment.hostClock.now, waiting: waiting))
    }

    /// Starts or stops the audio output to match the rate (and stops it for good once stopped),
    /// on `outputQueue`: a device's start, stop and close can block (SDL's device lock, joining
    /// its thread, a hung sound server), and the caller is usually the main queue.
    func updateAudioOutput() {
        // Counted until done: a program about to exit waits for a close still queued here,
        // which may be what starts the device playing out the item's last audio.
        LingeringAudio.begin()
        outputQueue.async {
            self.applyAudioOutputPhase()
            LingeringAudio.end()
        }
    }

    /// Brings the output to the phase the rate and stop ask for (`outputQueue` only).
    private func applyAudioOutputPhase() {
        let (output, playsSound, stopped, ended) = coordinator.read {
            ($0.pipeline?.audioOutput, $0.playsSound, $0.stopped, $0.endReported)
        }
        guard let output else { return }
        outputPhase.withLock { phase in
            guard phase != .closed else { return }
            if stopped {
                if output.playsOutWhenClosed {
                    // A shared device plays an ended item's last audio out itself, and goes on
                    // to the next item's without a gap.
                    output.close()
                } else if ended, phase == .running, output.outputLatency > 0 {
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
            let wanted: AudioOutputPhase = playsSound ? .running : .idle
            guard wanted != phase else { return }
            if wanted == .running { output.start() } else { output.stop() }
            phase = wanted
        }
    }

    /// After a seek, audio of the old position may still wait in two places: in the output's
    /// own buffer (a sound server queues about 100 ms), which the output drops; and, while the
    /// output is stopped (paused) and nothing renders, in the ring, which would stay full
    /// until play, so the new position's audio could start only on the audio thread's next
    /// refill after play. With the output held stopped (`outputPhase`), this thread is the
    /// ring's consumer for a moment: it drops the stale audio and wakes the audio thread to
    /// fill the ring now (`outputQueue` only).
    private func discardStaleAudio() {
        guard let pipeline, let ring = pipeline.ring else { return }
        let dropped = outputPhase.withLock { phase -> Bool in
            // Closed, a lingering device may still be playing out: leave it alone.
            guard phase != .closed else { return false }
            pipeline.audioOutput?.discardBuffered()
            // Running, the render callback skips the stale audio itself; so it does when a
            // shared device renders this held item's ring before its engine started it.
            guard phase == .idle, pipeline.audioOutput?.isRenderingWhileStopped != true else { return false }
            ring.discardStale()
            return true
        }
        if dropped { audioWake.wake() }
    }

    /// Lets `output` run for `seconds` of host time, then stops and closes it, on a thread of
    /// its own (the output holds its render source, so the ring outlives this engine).
    private func lingerThenClose(_ output: any AudioOutput, for seconds: Double) {
        let clock = environment.hostClock
        // What the output took last is heard up to its latency after it was taken: a little
        // more covers the time since.
        let deadline = clock.now + seconds + 0.02
        LingeringAudio.begin()
        NamedThread.start("linger") {
            let signal = WakeupSignal()
            while clock.now < deadline { _ = clock.wait(until: deadline, on: signal) }
            output.stopAfterPlayingOut(timeout: 0.5)
            output.close()
            LingeringAudio.end()
        }
    }

    /// Makes time start to run at host time `start` (the environment's host clock) where it
    /// will stand then, its sound gated to begin exactly then; the next rate applies from
    /// there. Main queue.
    func scheduleStart(atHost start: Double) {
        post(.scheduleStart(at: start, now: environment.hostClock.now))
    }

    /// Sets the rate play will run at while paused or waiting (main queue), so the audio
    /// decoded ahead already has that tempo when time starts.
    func setUpcomingRate(_ rate: Double) {
        post(.setUpcomingRate(rate))
    }

    /// Sets the audio gain (volume × mute).
    func setGain(_ gain: Float) {
        post(.setGain(gain))
    }

    /// Sets the user's audio delay in seconds (positive: sound after picture).
    func setAudioDelay(_ delay: Double) {
        post(.setAudioDelay(delay))
    }

    /// Starts `request`; completion is reported with `.seekFinished`.
    func seek(_ request: SeekRequest) {
        post(.seek(request))
    }

    /// Stops every thread and releases the media (teardown finishes in the background).
    ///
    /// - Parameter clearsVideo: false keeps the last picture on the video sinks (a queue
    ///   moving on to a prerolled item shows that item's first frame next). A held (prerolled)
    ///   engine never showed anything and never clears.
    func stop(clearsVideo: Bool = true) {
        post(.stop(clearsVideo: clearsVideo))
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
        post(.observersNeedTime(at: time))
    }

    /// Sleeps an engine thread until `deadline` on the host clock or until `signal` is woken,
    /// counting the wake-up (`wakeUps`).
    func sleep(until deadline: Double, on signal: WakeupSignal) {
        _ = environment.hostClock.wait(until: deadline, on: signal)
        wakeUpCount.add(1, ordering: .relaxed)
    }

    /// How many times the engine's threads woke from a sleep so far (a quiet engine stays put
    /// while paused).
    var wakeUps: Int { wakeUpCount.load(ordering: .relaxed) }

    // MARK: - Queries (any thread)

    /// The item time now: the seek target while seeking, the clock otherwise.
    func currentTime() -> CMTime { itemTime(atHost: environment.hostClock.now) }

    /// True when `generation` is the current one and its seek (if any) has landed.
    func isSettled(generation: Int) -> Bool {
        coordinator.read { $0.isSettled(generation: generation) }
    }

    /// True when a time report of `generation` is still current (`EngineState.acceptsTimeReport`).
    func acceptsTimeReport(of generation: Int) -> Bool {
        coordinator.read { $0.acceptsTimeReport(of: generation) }
    }

    /// Counters of what playback did so far.
    var statistics: PlaybackStatistics {
        coordinator.read { state in
            var statistics = state.statistics
            statistics.audioUnderruns = state.pipeline?.ring?.underrunCount ?? 0
            statistics.audioDeviceUnderruns = state.pipeline?.audioOutput?.deviceUnderruns ?? 0
            return statistics
        }
    }

    /// True once `stop()` was called.
    var isStopped: Bool { coordinator.read { $0.stopped } }

    /// Sends `event` up to the player (news the coordinator does not decide: the open's
    /// result, subtitles, timed metadata).
    func report(_ event: PlaybackEvent) {
        if case .failed(_, duringPlayback: false) = event { failedToOpen.store(true, ordering: .releasing) }
        guard !isStopped else { return }
        send(event)
    }

    /// Reports `.opened`, then lets the subtitle thread deliver timed metadata (queued after it).
    func reportOpened(_ media: OpenedMedia, pipeline: Pipeline) {
        report(.opened(media))
        openedReported.store(true, ordering: .releasing)
        pipeline.switchboard.cues.changed.wake()
    }
}
