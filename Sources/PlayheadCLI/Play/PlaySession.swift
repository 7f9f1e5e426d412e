// Playhead: runs `playhead play`: one queue player, the inputs in turn (the next one prerolled
// so they follow without a gap, looping with --loop), a window when there is a display (else
// headless), a status line, keys, and a report per item played.
//
// Concurrency: main actor only. Engine news arrives through observers and notifications on the
// main queue. The window runs on its own thread (`WindowHost`) and reports its closing on the
// main queue.
import Foundation
import OpenAVFoundation
import OpenAVKit

/// One headless playback run over several inputs.
@MainActor
final class PlaySession {
    let options: PlayOptions
    let console: Console
    let player: AVQueuePlayer
    let sink = FrameCountingSink()
    /// The watches of the current and the next item, by item.
    var watches: [ObjectIdentifier: ItemWatch] = [:]
    /// The watch of the item on screen (whose frames the sink counts).
    private var shownWatch: ItemWatch?
    /// Every watch in queue order (the order reports come in).
    var ordered: [ItemWatch] = []
    /// Where the queue is in `ordered` (the item playing or about to).
    var position = 0
    /// What one pass of the queue plays: the inputs (playlist files replaced by their
    /// entries when the run starts), changed by drops on the window.
    lazy var passInputs = PlayInput.list(options)
    /// The latest drop on the window being queued (PlaySession+Drops.swift).
    var lastDrop: Task<Void, Never>?
    /// True once the queue finished: a drop arriving later is not played.
    private(set) var isEnding = false
    private var currentItemObservation: NSKeyValueObservation?
    var finishCurrent: ((PlayReport.Status, String?) -> Void)?
    private var userQuit = false
    private var stalls = 0
    private var statusTimer: DispatchSourceTimer?
    private var keys: TerminalKeys?
    private var interrupt: DispatchSourceSignal?
    private(set) var window: WindowHost?
    /// Where inputs were left, for --resume (PlaySession+Resume.swift).
    lazy var resume = ResumeKeeper(console: console)
    /// Items seeked to a remembered position, not yet announced: their input and position.
    var resumedItems: [ObjectIdentifier: (String, Double)] = [:]
    private var nowPlaying: NowPlayingBridge?
    /// Explains the sound server's pauses for a call.
    private var interruptionNotice: InterruptionNotice?
    let showsStatus: Bool
    /// Times the sound server went away during the run (counted on the output's thread).
    let serverLosses = Locked(0)
    /// `serverLosses` as of the last item report.
    var reportedServerLosses = 0

    init(options: PlayOptions, console: Console) {
        self.options = options
        self.console = console
        let sinks = VideoSinks()
        sinks.add(sink)
        let fallbackNotice = FallbackNotice(console: console)
        let makeAudio: (@Sendable () throws -> any AudioOutput)?
        if options.noAudio {
            makeAudio = nil
        } else if options.untimed {
            makeAudio = { UntimedAudioOutput() }
        } else {
            let console = console
            let sink = options.audioDevice
            let losses = serverLosses
            makeAudio = {
                // The sound server going away and coming back: one line each.
                try SystemAudio.makeOutput(sinkName: sink) { news in
                    if news == .wentAway { losses.withLock { $0 += 1 } }
                    console.printError("playhead: \(news)")
                }
            }
        }
        let environment = PlaybackEnvironment(
            makeAudioOutput: makeAudio, videoSinks: sinks, untimed: options.untimed,
            onAudioFallback: { fallbackNotice.report($0) })
        player = AVQueuePlayer(environment: environment, items: [])
        showsStatus = TerminalKeys.isInteractive && !options.reportJSON
    }

    /// Plays every input and returns one report per input played.
    func run() async -> [PlayReport] {
        let expansion = await PlayInput.expanding(passInputs)
        passInputs = expansion.inputs
        expansion.warnings.forEach(console.printError)
        installInterruptHandler()
        interruptionNotice = InterruptionNotice(player: player, console: console, endsStatusLine: showsStatus)
        if !options.headless { await openWindow() }
        startMediaControls()
        if showsStatus {
            keys = TerminalKeys { [weak self] key in MainActor.assumeIsolated { self?.handle(key) } }
            keys?.start()
            startStatusLine()
        }
        let reports = await playQueue()
        if recordsPositions { resume.save() }
        statusTimer?.cancel()
        if showsStatus { console.writeOutput("\n") }
        keys?.stop()
        nowPlaying?.stop()
        nowPlaying = nil
        interruptionNotice?.stop()
        await window?.close()
        window = nil
        currentItemObservation?.invalidate()
        player.removeAllItems()
        // The last item's last audio is still on its way to the speakers: let it be heard
        // before the process exits.
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                // The window's last UnInhibit reaches the bus before the process exits.
                DisplaySleepBridge.flush()
                _ = LingeringAudio.waitUntilQuiet(timeout: 1)
                continuation.resume()
            }
        }
        return reports
    }

    /// Opens the player window, or says once (on a terminal) why playback stays headless.
    private func openWindow() async {
        guard WindowHost.displayMayExist else {
            noteHeadless("no display ($DISPLAY and $WAYLAND_DISPLAY are unset)")
            return
        }
        // The screensaver is held off while video plays (not while paused), through the
        // desktop's screensaver service when there is a session bus; --allow-screensaver: never.
        player.preventsDisplaySleepDuringVideoPlayback = !options.allowsScreensaver
        DisplaySleepBridge.install()
        var windowOptions = PlayerWindow.Options()
        windowOptions.fullscreen = options.fullscreen
        windowOptions.videoGravity = options.gravity
        if options.inputs.isEmpty { windowOptions.title = AVURLAsset.builtInDemoTitle }
        let opened = await WindowHost.open(
            player: player, options: windowOptions, subtitleStyle: options.subtitleStyle,
            onDrop: { [weak self] drop in MainActor.assumeIsolated { self?.play(drop) } }
        ) { [weak self] in
            MainActor.assumeIsolated {
                guard let self else { return }
                self.userQuit = true
                self.finishCurrent?(.stopped, nil)
            }
        }
        switch opened {
        case .success(let host):
            window = host
            // Without a session bus, SDL's behaviour: held off while the window is open.
            if !options.allowsScreensaver, TerminalKeys.isInteractive,
                (ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] ?? "").isEmpty
            {
                console.printError("playhead: warning: no session bus; the screensaver is held off while the window is open")
            }
        case .failure(let error): noteHeadless(error.message)
        }
    }

    /// Offers the queue to the desktop's media controls and media keys (MPRIS on the session
    /// bus) unless --no-mpris. Without a session bus address a terminal user is told once;
    /// a bus that cannot be reached is reported once by OpenMediaPlayer itself.
    private func startMediaControls() {
        guard options.mediaControls else { return }
        guard !(ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] ?? "").isEmpty else {
            if TerminalKeys.isInteractive {
                console.printError("playhead: warning: no session bus; media keys and desktop media controls are off")
            }
            return
        }
        let bridge = NowPlayingBridge(player: player) { [weak self] in
            guard let self else { return }
            userQuit = true
            finishCurrent?(.stopped, nil)
        }
        bridge.start()
        nowPlaying = bridge
    }

    private func noteHeadless(_ reason: String) {
        guard TerminalKeys.isInteractive else { return }
        console.printError("playhead: \(reason); playing headless")
    }

    /// Plays the inputs as a queue (again and again with --loop): every input of a pass is
    /// queued at once (the window's playlist lists them; the next one prerolls), and the next
    /// pass is queued when the last item of a pass starts. Returns one report per item.
    private func playQueue() async -> [PlayReport] {
        player.volume = options.volume
        player.audioDelay = options.audioDelay
        // Desktop players show the subtitle track the file flags as default; --no-sub does not.
        player.showsFlaggedDefaultSubtitles = options.selection.showsFlaggedDefaultSubtitles
        // A desktop player plays on while minimised (mpv and VLC do) unless asked to pause.
        player.audiovisualBackgroundPlaybackPolicy = options.pausesWhenMinimized ? .pauses : .continuesIfPossible
        player.isMuted = options.muted
        player.defaultRate = options.rate
        currentItemObservation = player.observe(\.currentItem) { [weak self] player, _ in
            MainActor.assumeIsolated { self?.currentItemChanged(to: player.currentItem) }
        }
        var reports: [PlayReport] = []
        var looping = options.loop
        position = 0
        var startsPaused = options.startsPaused
        await queuePass()
        while position < ordered.count {
            let current = ordered[position]
            if looping, position == ordered.count - 1 { await queuePass() }
            finishCurrent = { [weak current] status, error in current?.finish(status, error) }
            let watchdog = ProgressWatchdog(player: player)
            watchdog.start { [weak self] in
                MainActor.assumeIsolated { self?.finishCurrent?(.failed, "playback made no progress") }
            }
            if startsPaused {
                startsPaused = false  // the user plays it; later items play on
            } else {
                player.play()
            }
            let report = await current.result()
            watchdog.cancel()
            finishCurrent = nil
            reports.append(report)
            // A failing input would fail on every pass: stop looping.
            if report.status == .failed { looping = false }
            position += 1
            // A drop being queued may add what plays next.
            if position >= ordered.count, !userQuit { await lastDrop?.value }
            guard position < ordered.count, !userQuit else { break }
            // Completed items advance by themselves; failed or cut-short ones are skipped.
            if player.currentItem === current.item { player.advanceToNextItem() }
            watches[ObjectIdentifier(current.item)] = nil
        }
        isEnding = true
        for watch in ordered[min(position, ordered.count)...] { watch.stopObserving() }
        player.pause()
        return reports
    }

    /// Queues one pass over the inputs (the built-in demo when there are none), with the
    /// audio and subtitle choices applied to each item.
    private func queuePass() async {
        for input in passInputs { await enqueue(input) }
    }

    /// Adds `input` at the end of the queue, with the audio and subtitle choices applied;
    /// returns its watch.
    @discardableResult
    func enqueue(_ input: PlayInput) async -> ItemWatch {
        let next = watch(input)
        for warning in await options.selection.apply(to: next.item) {
            console.printError("playhead: \(input.name): \(warning)")
        }
        player.insert(next.item, after: nil)
        ordered.append(next)
        return next
    }

    /// A watch for a new item playing `input`, seeked to --start when given.
    private func watch(_ input: PlayInput) -> ItemWatch {
        let item = input.makeItem(selection: options.selection)
        if let start = options.start {
            item.seek(to: CMTime(seconds: start, preferredTimescale: 1_000_000), toleranceBefore: .zero, toleranceAfter: .zero)
        }
        applyResumePosition(input, to: item)
        let name = input.name
        let warn: (String) -> Void = { [unowned self] text in console.printError("playhead: \(name): \(text)") }
        let watch = ItemWatch(input: input.name, item: item, warn: warn) { [unowned self] watch, status, error in
            report(for: watch, status: status, error: error)
        }
        watch.playInput = input
        watches[ObjectIdentifier(item)] = watch
        return watch
    }

    /// The sink counts the frames of the item on screen: when it changes, the count so far
    /// belongs to the item that left, and counting (and --frames) starts over for the new one.
    private func currentItemChanged(to item: AVPlayerItem?) {
        if let shownWatch, shownWatch.framesPresented == nil { shownWatch.framesPresented = sink.count }
        shownWatch = item.flatMap { watches[ObjectIdentifier($0)] }
        if let item { announceResume(of: item) }
        // Items the queue moved past without finishing (a jump from the window's playlist)
        // end here: completed when they were at their end, else stopped.
        if let shownWatch, let index = ordered.firstIndex(where: { $0 === shownWatch }) {
            for skipped in ordered[..<index] where !skipped.isFinished {
                let end = skipped.item.duration
                let atEnd = end.isNumeric && skipped.item.currentTime().seconds >= end.seconds - 0.1
                if skipped.framesPresented == nil { skipped.framesPresented = 0 }
                skipped.finish(atEnd ? .completed : .stopped, nil)
            }
        }
        let watch = shownWatch
        sink.reset(limit: options.frameLimit) {
            MainActor.assumeIsolated { watch?.finish(.completed, nil) }
        }
    }

    // MARK: - Interaction

    private func handle(_ key: PlayerKey) {
        switch key {
        case .togglePause:
            if player.rate == 0 { player.play() } else { player.pause() }
        case .seekBackward, .seekForward:
            let offset = key == .seekForward ? 5.0 : -5.0
            let target = max(0, player.currentTime().seconds + offset)
            player.seek(to: CMTime(seconds: target, preferredTimescale: 1000), toleranceBefore: .zero, toleranceAfter: .zero)
        case .slower, .faster:
            // As the window's [ and ]: the speed play resumes at too, while paused.
            let speed = SpeedLadder.next(from: player.defaultRate, faster: key == .faster)
            player.defaultRate = speed
            if player.rate != 0 { player.rate = speed }
        case .quit:
            userQuit = true
            finishCurrent?(.stopped, nil)
        case .other:
            break
        }
    }

    private func installInterruptHandler() {
        signal(SIGINT, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .main)
        source.setEventHandler { [weak self] in
            MainActor.assumeIsolated {
                self?.userQuit = true
                self?.finishCurrent?(.stopped, nil)
            }
        }
        source.resume()
        interrupt = source
    }

    private func startStatusLine() {
        let timer = DispatchSource.makeTimerSource(queue: .main)
        timer.schedule(deadline: .now(), repeating: .milliseconds(100))
        timer.setEventHandler { [weak self] in MainActor.assumeIsolated { self?.drawStatus() } }
        timer.resume()
        statusTimer = timer
    }

    private func drawStatus() {
        guard let item = player.currentItem else { return }
        let position = player.currentTime().seconds
        let loaded = item.loadedTimeRanges.map(\.timeRangeValue)
            .first { $0.start.seconds <= position + 0.1 && $0.end.seconds >= position }
        let snapshot = StatusSnapshot(
            state: stateName(item), position: position,
            duration: item.duration.isNumeric ? item.duration.seconds : nil,
            bufferedAhead: loaded.map { $0.end.seconds - position } ?? 0,
            rate: player.rate == 0 ? player.defaultRate : player.rate, stalls: stalls,
            dropouts: item.playbackStatistics.audioUnderruns, variantBitrate: item.streamingSummary?.bandwidth)
        console.writeOutput("\r" + StatusLine.render(snapshot, width: 100) + "\u{1B}[K")
    }

    private func stateName(_ item: AVPlayerItem) -> String {
        switch (item.status, player.timeControlStatus) {
        case (.failed, _): return "failed"
        case (.unknown, _): return "loading"
        case (_, .playing): return "playing"
        case (_, .paused): return "paused"
        case (_, .waitingToPlayAtSpecifiedRate):
            return player.reasonForWaitingToPlay == .toMinimizeStalls ? "stalled" : "buffering"
        }
    }
}

/// Prints the "no audio device" notice once per run.
final class FallbackNotice: Sendable {
    private let console: Console
    private let printed = Locked(false)
    init(console: Console) { self.console = console }
    func report(_ reason: String) {
        guard printed.withLock({ done in defer { done = true }; return !done }) else { return }
        console.printError("playhead: \(reason)")
    }
}
