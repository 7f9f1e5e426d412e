// Playhead: runs `playhead play`: one player, the inputs in turn, a window when there is a
// display (else headless), a status line, keys, and a report per input.
//
// Concurrency: main actor only. Engine news arrives through observers and notifications on the
// main queue. The window runs on its own thread (`WindowHost`) and reports its closing on the
// main queue.
import Foundation
import OpenAVFoundation
import OpenAVKit
import Synchronization

/// One headless playback run over several inputs.
@MainActor
final class PlaySession {
    let options: PlayOptions
    let console: Console
    let player: AVPlayer
    let sink = FrameCountingSink()
    private var finishCurrent: ((PlayReport.Status, String?) -> Void)?
    private var userQuit = false
    private var stalls = 0
    private var statusTimer: DispatchSourceTimer?
    private var keys: TerminalKeys?
    private var interrupt: DispatchSourceSignal?
    private var window: WindowHost?
    private let showsStatus: Bool

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
            makeAudio = { try SystemAudio.makeOutput() }
        }
        let environment = PlaybackEnvironment(
            makeAudioOutput: makeAudio, videoSinks: sinks, untimed: options.untimed,
            onAudioFallback: { fallbackNotice.report($0) })
        player = AVPlayer(environment: environment)
        showsStatus = TerminalKeys.isInteractive && !options.reportJSON
    }

    /// Plays every input and returns one report per input played.
    func run() async -> [PlayReport] {
        installInterruptHandler()
        if !options.headless { await openWindow() }
        if showsStatus {
            keys = TerminalKeys { [weak self] key in MainActor.assumeIsolated { self?.handle(key) } }
            keys?.start()
            startStatusLine()
        }
        var reports: [PlayReport] = []
        for input in PlayInput.list(options) where !userQuit {
            let item = input.makeItem(selection: options.selection)
            for warning in await options.selection.apply(to: item) {
                console.printError("playhead: \(input.name): \(warning)")
            }
            reports.append(await play(input.name, item: item))
        }
        statusTimer?.cancel()
        if showsStatus { console.writeOutput("\n") }
        keys?.stop()
        await window?.close()
        window = nil
        player.replaceCurrentItem(with: nil)
        return reports
    }

    /// Opens the player window, or says once (on a terminal) why playback stays headless.
    private func openWindow() async {
        guard WindowHost.displayMayExist else {
            noteHeadless("no display ($DISPLAY and $WAYLAND_DISPLAY are unset)")
            return
        }
        var windowOptions = PlayerWindow.Options()
        windowOptions.fullscreen = options.fullscreen
        windowOptions.videoGravity = options.gravity
        if options.inputs.isEmpty { windowOptions.title = AVURLAsset.builtInDemoTitle }
        let opened = await WindowHost.open(player: player, options: windowOptions) { [weak self] in
            MainActor.assumeIsolated {
                guard let self else { return }
                self.userQuit = true
                self.finishCurrent?(.stopped, nil)
            }
        }
        switch opened {
        case .success(let host): window = host
        case .failure(let error): noteHeadless(error.message)
        }
    }

    private func noteHeadless(_ reason: String) {
        guard TerminalKeys.isInteractive else { return }
        console.printError("playhead: \(reason); playing headless")
    }

    private func play(_ input: String, item: AVPlayerItem) async -> PlayReport {
        stalls = 0
        return await withCheckedContinuation { continuation in
            var tokens: [any NSObjectProtocol] = []
            var observation: NSKeyValueObservation?
            let watchdog = ProgressWatchdog(player: player)
            finishCurrent = { [unowned self] status, error in
                finishCurrent = nil
                observation?.invalidate()
                tokens.forEach { NotificationCenter.default.removeObserver($0) }
                watchdog.cancel()
                player.pause()
                let duration = item.duration
                let report = PlayReport(
                    input: input, status: status, error: error,
                    duration: duration.isNumeric ? duration.seconds : nil,
                    position: max(0, player.currentTime().seconds),
                    videoFramesPresented: sink.count,
                    videoFramesDropped: player.playbackStatistics.videoFramesDropped,
                    audioSeconds: player.playbackStatistics.audioSeconds, stalls: stalls)
                if status == .failed, let error {
                    if showsStatus { console.writeOutput("\n") }
                    console.printError("playhead: \(input): \(error)")
                }
                continuation.resume(returning: report)
            }
            observation = item.observe(\.status) { [unowned self] item, _ in
                MainActor.assumeIsolated {
                    guard item.status == .failed else { return }
                    let reason = (item.error as NSError?)?.localizedDescription ?? "cannot be played"
                    finishCurrent?(.failed, reason)
                }
            }
            let center = NotificationCenter.default
            tokens.append(center.addObserver(forName: AVPlayerItem.didPlayToEndTimeNotification, object: item, queue: .main) { [unowned self] _ in
                MainActor.assumeIsolated { finishCurrent?(.completed, nil) }
            })
            tokens.append(center.addObserver(forName: AVPlayerItem.failedToPlayToEndTimeNotification, object: item, queue: .main) { [unowned self] note in
                let error = note.userInfo?[AVPlayerItemFailedToPlayToEndTimeErrorKey] as? NSError
                let reason = error?.localizedDescription ?? "playback failed"
                MainActor.assumeIsolated { finishCurrent?(.failed, reason) }
            })
            tokens.append(center.addObserver(forName: AVPlayerItem.playbackStalledNotification, object: item, queue: .main) { [unowned self] _ in
                MainActor.assumeIsolated { stalls += 1 }
            })
            sink.reset(limit: options.frameLimit) { [weak self] in
                MainActor.assumeIsolated { self?.finishCurrent?(.completed, nil) }
            }
            watchdog.start { [weak self] in
                MainActor.assumeIsolated { self?.finishCurrent?(.failed, "playback made no progress") }
            }
            player.replaceCurrentItem(with: item)
            if let start = options.start {
                item.seek(to: CMTime(seconds: start, preferredTimescale: 1_000_000), toleranceBefore: .zero, toleranceAfter: .zero)
            }
            player.volume = options.volume
            player.isMuted = options.muted
            player.defaultRate = options.rate
            player.play()
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
            rate: player.rate == 0 ? player.defaultRate : player.rate, stalls: stalls)
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
    private let printed = Mutex(false)
    init(console: Console) { self.console = console }
    func report(_ reason: String) {
        guard printed.withLock({ done in defer { done = true }; return !done }) else { return }
        console.printError("playhead: \(reason)")
    }
}
