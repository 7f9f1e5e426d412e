// Playhead: turns what happens to a window's player into host-app events, delivered on the
// main queue, and keeps the explicit "played to the end" mark the controls read.
//
// Concurrency: `State` is behind a mutex. The window's loop thread calls `stateDidChange`,
// `isAtEnd` and the `note…` methods; the player's end notifications arrive on the main queue;
// `emit` always runs on the main queue (loop-thread events hop there with `async`, keeping
// their order).
import Dispatch
import Foundation
import OpenAVFoundation

/// A host-app event, before it becomes a `PlayerWindowDelegate` call.
enum PlayerWindowEvent: Equatable, Sendable {
    case readyToPlay
    case playedToEnd(error: NSError?)
    case bufferingChanged(Bool)
    case fullscreenChanged(Bool)
    /// The window was minimised or hidden (true) or came back (false).
    case backgroundChanged(Bool)
    case closeRequested
    case playlistRequested
    /// Files or URLs were dropped on the window.
    case dropped(PlayerWindowDrop)
    case seekFinished(CMTime, finished: Bool)
    case statusChanged(PlaybackState.Status)
}

/// Watches one player for a window and reports `PlayerWindowEvent`s.
final class PlayerWindowEvents: Sendable {
    private struct State {
        var readyItem: ObjectIdentifier?
        var isBuffering = false
        var status: PlaybackState.Status?
        /// The item that played to its end, and the position it ended at.
        var ended: (item: ObjectIdentifier, time: Double)?
    }

    private let player: AVPlayer
    private let emit: @Sendable (PlayerWindowEvent) -> Void
    /// protected by its mutex
    private let state = Locked(State())
    /// Notification tokens (opaque, only passed back to the notification center).
    private struct Tokens: @unchecked Sendable { var list: [NSObjectProtocol] = [] }
    /// protected by its mutex: removed in deinit
    private let tokens = Locked(Tokens())

    /// Watches `player`; `emit` runs on the main queue for every event.
    init(player: AVPlayer, emit: @escaping @Sendable (PlayerWindowEvent) -> Void) {
        self.player = player
        self.emit = emit
        let center = NotificationCenter.default
        let ended = center.addObserver(
            forName: AVPlayerItem.didPlayToEndTimeNotification, object: nil, queue: nil
        ) {
            [weak self] note in self?.itemEnded(note.object, error: nil)
        }
        let failed = center.addObserver(
            forName: AVPlayerItem.failedToPlayToEndTimeNotification, object: nil, queue: nil
        ) { [weak self] note in
            let error = note.userInfo?[AVPlayerItemFailedToPlayToEndTimeErrorKey] as? NSError
            self?.itemEnded(
                note.object, error: error ?? NSError(domain: AVFoundationErrorDomain, code: -11800))
        }
        let list = Tokens(list: [ended, failed])
        tokens.withLock { $0 = list }
    }

    deinit {
        for token in tokens.withLock({ $0.list }) {
            NotificationCenter.default.removeObserver(token)
        }
    }

    // MARK: - From the player (main queue)

    private func itemEnded(_ object: Any?, error: NSError?) {
        guard let item = object as? AVPlayerItem, item === player.currentItem else { return }
        let time = max(0, player.currentTime().seconds)
        state.withLock { $0.ended = (ObjectIdentifier(item), time) }
        deliver(.playedToEnd(error: error))
    }

    // MARK: - From the window's loop thread

    /// True while the current item sits where it played to its end (the replay button shows).
    /// The mark comes from the item's end notification; a seek, play or new item clears it.
    func isAtEnd(item: AVPlayerItem, currentTime: Double) -> Bool {
        guard let ended = state.withLock({ $0.ended }), ended.item == ObjectIdentifier(item) else {
            return false
        }
        return abs(currentTime - ended.time) < 0.5
    }

    /// Playback restarts or moves: the end mark no longer holds.
    func clearEnd() { state.withLock { $0.ended = nil } }

    /// The window's latest snapshot of the player: reports readiness (once per item),
    /// buffering and status changes.
    func stateDidChange(_ snapshot: PlaybackState, item: AVPlayerItem?) {
        let events: [PlayerWindowEvent] = state.withLock { state in
            var events: [PlayerWindowEvent] = []
            if let item, snapshot.phase == .ready, state.readyItem != ObjectIdentifier(item) {
                state.readyItem = ObjectIdentifier(item)
                events.append(.readyToPlay)
            }
            let buffering = snapshot.status == .buffering
            if buffering != state.isBuffering {
                state.isBuffering = buffering
                events.append(.bufferingChanged(buffering))
            }
            if snapshot.status != state.status {
                state.status = snapshot.status
                events.append(.statusChanged(snapshot.status))
            }
            return events
        }
        events.forEach(deliver)
    }

    /// Reports an event that happened on the loop thread (fullscreen, buttons) or in a seek's
    /// completion.
    func note(_ event: PlayerWindowEvent) { deliver(event) }

    /// Runs `emit` on the main queue: at once when already there (the window's loop on the
    /// main thread, or a main-queue notification), else queued in order.
    private func deliver(_ event: PlayerWindowEvent) {
        let emit = self.emit
        MainQueue.perform { emit(event) }
    }
}

/// Where a window's events go: its delegate, called with the window.
///
/// Concurrency: both references are weak and behind a mutex; `send` runs on the main queue.
final class PlayerWindowCallbacks: Sendable {
    private struct Targets: @unchecked Sendable {
        weak var window: PlayerWindow?
        weak var delegate: (any PlayerWindowDelegate)?
    }

    /// protected by its mutex
    private let targets = Locked(Targets())

    /// The window the delegate hears about.
    func setWindow(_ window: PlayerWindow) { targets.withLock { $0.window = window } }

    /// The delegate (held weakly).
    var delegate: (any PlayerWindowDelegate)? {
        get { targets.withLock { $0.delegate } }
        set { targets.withLock { $0.delegate = newValue } }
    }

    /// Calls the delegate method for `event` (nothing when the window or delegate is gone).
    func send(_ event: PlayerWindowEvent) {
        let (window, delegate) = targets.withLock { ($0.window, $0.delegate) }
        guard let window, let delegate else { return }
        switch event {
        case .readyToPlay: delegate.playerWindowIsReadyToPlay(window)
        case .playedToEnd(let error): delegate.playerWindow(window, didPlayToEndWithError: error)
        case .bufferingChanged(let buffering):
            delegate.playerWindow(window, bufferingDidChange: buffering)
        case .fullscreenChanged(let fullscreen):
            delegate.playerWindow(window, didChangeFullscreen: fullscreen)
        case .backgroundChanged(let background):
            if background {
                delegate.playerWindowDidEnterBackground(window)
            } else {
                delegate.playerWindowWillEnterForeground(window)
            }
        case .closeRequested: delegate.playerWindowDidRequestClose(window)
        case .playlistRequested: delegate.playerWindowDidRequestPlaylist(window)
        case .dropped(let drop): delegate.playerWindow(window, didReceive: drop)
        case .seekFinished(let time, let finished):
            delegate.playerWindow(window, didSeekTo: time, finished: finished)
        case .statusChanged(let status):
            delegate.playerWindow(window, playbackStatusDidChange: status)
        }
    }
}
