// Playhead: one line when the sound server pauses `playhead play` for a call and one when it
// lets it play again, so a pause nobody asked for at the terminal is explained.
//
// Concurrency: main actor; the observer delivers on the main queue.
import Foundation
import OpenAVFoundation

/// Prints the sound server's interruptions of a player's rate.
@MainActor
final class InterruptionNotice {
    private var token: (any NSObjectProtocol)?

    /// Starts listening to `player`'s rate changes, printing to `console` (on a line of its
    /// own when `endsStatusLine`: a status line is being drawn).
    init(player: AVPlayer, console: Console, endsStatusLine: Bool) {
        token = NotificationCenter.default.addObserver(
            forName: AVPlayer.rateDidChangeNotification, object: player, queue: .main
        ) { [weak player] note in
            guard let reason = note.userInfo?[AVPlayer.rateDidChangeReasonKey] as? AVPlayer.RateDidChangeReason,
                reason == .audioSessionInterrupted
            else { return }
            let paused = MainActor.assumeIsolated { player?.rate == 0 }
            if endsStatusLine { console.writeOutput("\n") }
            console.printError(
                paused
                    ? "playhead: paused: the sound server gave the speakers to another stream (a call)"
                    : "playhead: the sound server let playback go on")
        }
    }

    /// Stops listening.
    func stop() {
        if let token { NotificationCenter.default.removeObserver(token) }
        token = nil
    }
}
