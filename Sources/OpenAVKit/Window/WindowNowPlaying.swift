// Playhead: a player window's own now-playing session (`PlayerWindow.updatesNowPlayingInfoCenter`),
// as AVPlayerViewController keeps one: the desktop shows what the window plays and its media
// keys, media controls and playerctl play, pause, seek and change the speed of it.
//
// Concurrency: the session lives on the main actor; the window (on its own thread) starts and
// ends it through the main queue. `NowPlayingSlot` is only touched on the main queue.
import Foundation
import OpenAVFoundation
import OpenMediaPlayer

/// Holds a window's session from its start to its end, on the main queue.
final class NowPlayingSlot: @unchecked Sendable {
    /// The session; main queue only.
    private var session: MPNowPlayingSession?
    /// The session that was active when this one took over (another window's, or the app's
    /// own); main queue only.
    private weak var previous: MPNowPlayingSession?

    /// Starts a session for `player` on the main queue (at once when called there), which
    /// publishes the player automatically, takes the desktop's transport commands and becomes
    /// the active one. Without a session bus nothing is started (and nothing is printed: the
    /// app did not ask for the desktop).
    func start(player: AVPlayer) {
        guard let bus = ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"],
            !bus.isEmpty
        else { return }
        Self.onMain { [self] in
            guard session == nil else { return }
            let session = MPNowPlayingSession(players: [player])
            session.automaticallyPublishesNowPlayingInfo = true
            _ = PlayerRemoteCommands.register(on: session.remoteCommandCenter, player: player) {
                [weak session] in
                session?.republish()
            }
            previous = MPNowPlayingSession.active
            session.becomeActiveIfPossible()
            self.session = session
        }
    }

    /// Ends the session; the session that was active before it (another window still open, or
    /// the app's own) is active again, else the desktop goes back to the process's centers.
    func end() {
        Self.onMain { [self] in
            if let session, session.isActive, let previous { previous.becomeActiveIfPossible() }
            session = nil
        }
    }

    private static func onMain(_ body: @escaping @MainActor () -> Void) {
        if MainQueue.isCurrent {
            MainActor.assumeIsolated { body() }
        } else {
            MainQueue.async { MainActor.assumeIsolated { body() } }
        }
    }
}
