// Playhead: joins the now-playing and command centers to the MPRIS server: keeps the latest
// state, starts the server on first use, and delivers the commands that come off the bus.
//
// Concurrency: `lock` guards every stored property. Changes may come from any thread (the
// centers' setters); each builds a fresh `NowPlayingSnapshot` under the lock and hands it to
// the server, which never calls back into this lock from its bus thread except through
// `deliver`, which only dispatches onto the main queue. Command handlers run on the main queue.
import Foundation

/// The process's link between the MediaPlayer API and the desktop.
final class MPRISService: @unchecked Sendable {
    static let shared = MPRISService()

    /// The line printed (once) when the desktop cannot be reached.
    static let noBusWarning = "playhead: warning: no session bus; media keys and desktop media controls are off"

    private let lock = NSLock()
    private var snapshot = NowPlayingSnapshot()
    private var server: MPRISServer?
    private var started = false
    private var warned = false
    /// Where warnings go (standard error; tests capture them).
    private var warningSink: @Sendable (String) -> Void = { line in
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    /// Starts serving on the session bus named by `DBUS_SESSION_BUS_ADDRESS`, once, the first
    /// time the app publishes something; without that variable, warns once instead.
    private func startIfNeeded() {
        let address = lock.withLock { () -> String?? in
            guard !started else { return nil }
            started = true
            return .some(ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"])
        }
        guard let address else { return }
        guard let address, !address.isEmpty else {
            warnOnce(Self.noBusWarning)
            return
        }
        start(address: address)
    }

    /// Serves on the bus at `address` (stopping a server already running): what the first
    /// publication does with the environment's address, and what tests call with their own.
    func start(address: String, warnings: (@Sendable (String) -> Void)? = nil) {
        let newServer = MPRISServer(address: address, identity: MPRISIdentity.current) { [weak self] line in
            self?.warnOnce(line)
        } deliver: { request, reply in
            DispatchQueue.main.async { reply(MPRISService.deliver(request)) }
        }
        let (old, current) = lock.withLock { () -> (MPRISServer?, NowPlayingSnapshot) in
            defer {
                server = newServer
                started = true
                if let warnings {
                    warningSink = warnings
                    warned = false
                }
            }
            return (server, snapshot)
        }
        old?.stop()
        newServer.publish(current)
        newServer.start()
    }

    /// Stops the server (tests; a process that ends just lets it go).
    func stop() {
        let old = lock.withLock { () -> MPRISServer? in
            defer { server = nil; started = false }
            return server
        }
        old?.stop()
    }

    /// Says that no bus could be used (or how it went away), once per process.
    private func warnOnce(_ line: String) {
        let sink = lock.withLock { () -> (@Sendable (String) -> Void)? in
            defer { warned = true }
            return warned ? nil : warningSink
        }
        sink?(line)
    }

    func nowPlayingInfoChanged(_ info: NowPlayingInfo?) {
        update { snapshot in
            if let info, snapshot.info.map({ !$0.isSameItem(as: info) }) ?? true { snapshot.trackNumber += 1 }
            snapshot.info = info
        }
    }

    func playbackStateChanged(_ state: MPNowPlayingPlaybackState) {
        update { $0.state = state }
    }

    func commandsChanged() {
        // Read under the service's lock, so two changes made at once publish in order (the
        // commands' own locks are never held while they call out).
        update { $0.commands = MPRemoteCommandCenter.shared().availability }
    }

    private func update(_ change: (inout NowPlayingSnapshot) -> Void) {
        startIfNeeded()
        let (target, current) = lock.withLock { () -> (MPRISServer?, NowPlayingSnapshot) in
            change(&snapshot)
            return (server, snapshot)
        }
        target?.publish(current)
    }

    /// Runs a request from the bus on the main queue through the command center.
    static func deliver(_ request: RemoteRequest) -> MPRemoteCommandHandlerStatus {
        let center = MPRemoteCommandCenter.shared()
        switch request {
        case .play: return center.playCommand.deliver(MPRemoteCommandEvent(command: center.playCommand))
        case .pause: return center.pauseCommand.deliver(MPRemoteCommandEvent(command: center.pauseCommand))
        case .togglePlayPause:
            return center.togglePlayPauseCommand.deliver(MPRemoteCommandEvent(command: center.togglePlayPauseCommand))
        case .stop: return center.stopCommand.deliver(MPRemoteCommandEvent(command: center.stopCommand))
        case .next: return center.nextTrackCommand.deliver(MPRemoteCommandEvent(command: center.nextTrackCommand))
        case .previous:
            return center.previousTrackCommand.deliver(MPRemoteCommandEvent(command: center.previousTrackCommand))
        case .changePosition(let seconds):
            let command = center.changePlaybackPositionCommand
            return command.deliver(MPChangePlaybackPositionCommandEvent(command: command, positionTime: seconds))
        case .skipForward(let seconds):
            let command = center.skipForwardCommand
            return command.deliver(MPSkipIntervalCommandEvent(command: command, interval: seconds))
        case .skipBackward(let seconds):
            let command = center.skipBackwardCommand
            return command.deliver(MPSkipIntervalCommandEvent(command: command, interval: seconds))
        case .changeRate(let rate):
            let command = center.changePlaybackRateCommand
            return command.deliver(MPChangePlaybackRateCommandEvent(command: command, playbackRate: Float(rate)))
        case .changeRepeat(let type):
            // Done: the desktop shows the mode asked for, unless the handler set one itself.
            let command = center.changeRepeatModeCommand
            let before = command.currentRepeatType
            let status = command.deliver(MPChangeRepeatModeCommandEvent(command: command, repeatType: type))
            if status == .success, command.currentRepeatType == before, before != type { command.currentRepeatType = type }
            return status
        case .changeShuffle(let type):
            let command = center.changeShuffleModeCommand
            let before = command.currentShuffleType
            let status = command.deliver(MPChangeShuffleModeCommandEvent(command: command, shuffleType: type))
            // (Turned on while shuffling by collection: the app's own kind stays.)
            if status == .success, command.currentShuffleType == before, (before == .off) != (type == .off) {
                command.currentShuffleType = type
            }
            return status
        }
    }
}

/// A command the desktop sent, decided on the bus thread and carried out on the main queue.
enum RemoteRequest: Sendable, Equatable {
    case play, pause, togglePlayPause, stop, next, previous
    /// Jump to this many seconds.
    case changePosition(Double)
    /// Skip by this many seconds (positive).
    case skipForward(Double), skipBackward(Double)
    case changeRate(Double)
    /// Set the repeat or shuffle mode.
    case changeRepeat(MPRepeatType), changeShuffle(MPShuffleType)
}
