// Playhead: joins the published now-playing and command centers (the process's own, or the
// active now-playing session's) to the MPRIS server: keeps the latest state, starts the server
// on first use, and delivers the commands that come off the bus.
//
// Concurrency: `lock` guards every stored property. Changes may come from any thread (the
// centers' setters); each builds a fresh `NowPlayingSnapshot` under the lock, reading the
// published center under it (a center's lock is taken inside this one, never the other way),
// and hands it to the server, which never calls back into this lock from its bus thread except
// through `deliver`, which only dispatches onto the main queue. Command handlers run on the
// main queue.
import Foundation
import OpenAVFoundation

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
    /// The centers the desktop sees and commands: the process's, or an active session's.
    private var infoCenter = MPNowPlayingInfoCenter.default()
    private var commandCenter = MPRemoteCommandCenter.shared()
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
            // (Through MainQueue: a player window draining the main queue itself wakes for it.)
            MainQueue.async { reply(MPRISService.deliver(request)) }
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

    /// `center`'s info changed: published when it is the center the desktop sees.
    func nowPlayingInfoChanged(in center: MPNowPlayingInfoCenter) {
        update { snapshot, published in
            guard published.info === center else { return }
            Self.take(center.published.info, into: &snapshot)
        }
    }

    /// `center`'s playback state changed: published when it is the center the desktop sees.
    func playbackStateChanged(in center: MPNowPlayingInfoCenter) {
        update { snapshot, published in
            guard published.info === center else { return }
            snapshot.state = center.published.state
        }
    }

    /// A command of `center` changed: published when it is the center the desktop commands.
    func commandsChanged(in center: MPRemoteCommandCenter) {
        // Read under the service's lock, so two changes made at once publish in order (the
        // commands' own locks are never held while they call out).
        update { snapshot, published in
            guard published.commands === center else { return }
            snapshot.commands = center.availability
        }
    }

    /// Makes `info` and `commands` the centers the desktop sees and commands (an
    /// ``MPNowPlayingSession`` that became active; the process's own when it ends), and
    /// publishes what they hold.
    func publish(info: MPNowPlayingInfoCenter, commands: MPRemoteCommandCenter) {
        update { snapshot, published in Self.show(info, commands, in: &snapshot, &published) }
    }

    /// Goes back to the process's own centers when `info` is the center the desktop sees (its
    /// session went away), in one step under the lock.
    func stopPublishing(info: MPNowPlayingInfoCenter) {
        update { snapshot, published in
            guard published.info === info else { return }
            Self.show(.default(), .shared(), in: &snapshot, &published)
        }
    }

    /// The centers the desktop sees and commands now.
    var publishedCenters: (info: MPNowPlayingInfoCenter, commands: MPRemoteCommandCenter) {
        lock.withLock { (infoCenter, commandCenter) }
    }

    /// The state the desktop reads now (tests).
    var currentSnapshot: NowPlayingSnapshot { lock.withLock { snapshot } }

    /// Makes `info` and `commands` the published centers and reads what they hold.
    private static func show(
        _ info: MPNowPlayingInfoCenter, _ commands: MPRemoteCommandCenter, in snapshot: inout NowPlayingSnapshot,
        _ published: inout (info: MPNowPlayingInfoCenter, commands: MPRemoteCommandCenter)
    ) {
        published = (info, commands)
        let (parsed, state) = info.published
        take(parsed, into: &snapshot)
        snapshot.state = state
        snapshot.commands = commands.availability
    }

    private static func take(_ info: NowPlayingInfo?, into snapshot: inout NowPlayingSnapshot) {
        if let info, snapshot.info.map({ !$0.isSameItem(as: info) }) ?? true { snapshot.trackNumber += 1 }
        snapshot.info = info
    }

    private func update(
        _ change: (inout NowPlayingSnapshot, inout (info: MPNowPlayingInfoCenter, commands: MPRemoteCommandCenter)) -> Void
    ) {
        startIfNeeded()
        lock.withLock {
            var published = (info: infoCenter, commands: commandCenter)
            change(&snapshot, &published)
            (infoCenter, commandCenter) = published
            // Handed over under the lock, so two changes reach the server in their order (its
            // `publish` only stores the snapshot under its own leaf lock and wakes its thread).
            server?.publish(snapshot)
        }
    }

    /// Runs a request from the bus on the main queue through the published command center.
    static func deliver(_ request: RemoteRequest) -> MPRemoteCommandHandlerStatus {
        let center = shared.publishedCenters.commands
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
