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

    /// Starts a session for `player` on the main queue (at once when called there), which
    /// publishes the player automatically, takes the desktop's transport commands and becomes
    /// the active one.
    func start(player: AVPlayer) {
        Self.onMain { [self] in
            guard session == nil else { return }
            let session = MPNowPlayingSession(players: [player])
            session.automaticallyPublishesNowPlayingInfo = true
            _ = PlayerRemoteCommands.register(on: session.remoteCommandCenter, player: player)
            session.becomeActiveIfPossible()
            self.session = session
        }
    }

    /// Ends the session (the desktop goes back to the process's own centers).
    func end() {
        Self.onMain { [self] in session = nil }
    }

    private static func onMain(_ body: @escaping @MainActor () -> Void) {
        if Thread.isMainThread {
            MainActor.assumeIsolated { body() }
        } else {
            DispatchQueue.main.async { MainActor.assumeIsolated { body() } }
        }
    }
}
