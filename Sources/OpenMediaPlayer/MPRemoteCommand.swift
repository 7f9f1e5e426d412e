// Playhead: one remote command (play, pause, seek, ...) and the handlers an app registers for it.
//
// Concurrency: a command's targets and `isEnabled` are guarded by the command's own lock, so an
// app may add or remove targets from any thread; handlers are only ever called on the main
// queue (`MPRemoteCommandCenter` delivers them there). Every change tells the command center,
// which hands the desktop a fresh snapshot of what can be controlled. `onChange` is set once by
// the command center's initializer, before the command is shared, and only read afterwards.
import Foundation

/// A command the desktop can send (a media key, GNOME's or KDE's media controls, KDE Connect,
/// `playerctl`). The desktop offers it only while it is enabled and has at least one target.
open class MPRemoteCommand: @unchecked Sendable {
    private struct Target {
        let token: TargetToken
        let handler: (MPRemoteCommandEvent) -> MPRemoteCommandHandlerStatus
    }

    /// The opaque value `addTarget(handler:)` returns, for `removeTarget(_:)`.
    final class TargetToken: NSObject, @unchecked Sendable {}

    private let lock = NSLock()
    private var targets: [Target] = []
    private var enabled = true
    /// Called (outside the lock) after targets or `isEnabled` changed.
    var onChange: (@Sendable () -> Void)?

    init() {}

    /// Whether the command is offered to the desktop (true by default). A disabled command
    /// that arrives anyway is refused with a D-Bus error and no handler runs.
    open var isEnabled: Bool {
        get { lock.withLock { enabled } }
        set {
            lock.withLock { enabled = newValue }
            onChange?()
        }
    }

    /// Registers `handler`, called on the main queue each time the command arrives. Returns
    /// an opaque object that `removeTarget(_:)` takes to unregister it.
    @discardableResult
    open func addTarget(handler: @escaping (MPRemoteCommandEvent) -> MPRemoteCommandHandlerStatus) -> Any {
        let token = TargetToken()
        lock.withLock { targets.append(Target(token: token, handler: handler)) }
        onChange?()
        return token
    }

    /// Unregisters a handler: pass the object `addTarget(handler:)` returned; passing nil
    /// removes every handler of this command.
    open func removeTarget(_ target: Any?) {
        lock.withLock {
            if let token = target as? TargetToken {
                targets.removeAll { $0.token === token }
            } else if target == nil {
                targets.removeAll()
            }
        }
        onChange?()
    }

    /// Whether the desktop may send this command now: enabled, with at least one target.
    var isAvailable: Bool { lock.withLock { enabled && !targets.isEmpty } }

    /// Runs the handlers for `event` (on the main queue) and returns the last one's status:
    /// `.commandFailed` when the command is disabled or has no target.
    func deliver(_ event: MPRemoteCommandEvent) -> MPRemoteCommandHandlerStatus {
        let (handlers, on) = lock.withLock { (targets.map(\.handler), enabled) }
        guard on, !handlers.isEmpty else { return .commandFailed }
        var status = MPRemoteCommandHandlerStatus.success
        for handler in handlers { status = handler(event) }
        return status
    }
}

/// A command that moves the playhead by an interval: skip forward or backward.
open class MPSkipIntervalCommand: MPRemoteCommand, @unchecked Sendable {
    private let intervalsLock = NSLock()
    private var intervals: [NSNumber] = []

    /// The skip intervals the app offers, in seconds. MPRIS has no such list: a desktop's
    /// Seek always names its own offset, which arrives as the event's `interval`.
    open var preferredIntervals: [NSNumber] {
        get { intervalsLock.withLock { intervals } }
        set {
            intervalsLock.withLock { intervals = newValue }
            onChange?()
        }
    }
}

/// The command that changes the playback rate.
open class MPChangePlaybackRateCommand: MPRemoteCommand, @unchecked Sendable {
    private let ratesLock = NSLock()
    private var rates: [NSNumber] = []

    /// The rates the app supports. The desktop sees their minimum and maximum as
    /// MinimumRate and MaximumRate; a rate outside them is refused.
    open var supportedPlaybackRates: [NSNumber] {
        get { ratesLock.withLock { rates } }
        set {
            ratesLock.withLock { rates = newValue }
            onChange?()
        }
    }
}

/// The command that jumps to a position in the current item (the desktop's seek bar).
open class MPChangePlaybackPositionCommand: MPRemoteCommand, @unchecked Sendable {}
