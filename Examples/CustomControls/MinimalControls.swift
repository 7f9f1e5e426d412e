// Playhead example: a control overlay of the app's own, replacing the player window's built-in
// one. It reads the player only through `PlaybackState` and acts only through
// `PlaybackControlActions`.
//
// Concurrency: used only on the thread that runs the window's loop (the main thread here).
import Foundation
import OpenAVKit

/// A thin progress line along the bottom, the time above it, a word for the status in the
/// middle while not playing; a click anywhere plays or pauses (or replays at the end), the
/// wheel seeks instead of changing the volume, and every other key keeps its usual binding.
final class MinimalControls: PlayerControlsOverlay {
    private var actions: (any PlaybackControlActions)?
    private var state = PlaybackState()

    // MARK: - PlayerControlsOverlay

    func attach(to actions: any PlaybackControlActions) { self.actions = actions }

    func playbackStateDidChange(_ state: PlaybackState) { self.state = state }

    func handle(_ event: PlayerInputEvent) -> Bool {
        switch event {
        case .pointerPressed:
            togglePlayback()
            return true
        case .wheel(let notches):
            // Wheel up goes forward 5 s a notch, down goes back.
            actions?.seek(to: max(0, state.currentTime + Double(notches) * 5), exact: true)
            return true
        case .key(.letter("p")):
            actions?.showPlaylist()
            return true
        default:
            return false  // space, arrows, f, q, … do what they always do
        }
    }

    func draw(on canvas: OverlayCanvas) {
        let width = canvas.size.width
        let height = canvas.size.height
        let line = CGRect(x: 0, y: height - 6, width: width, height: 6)
        canvas.fill(line, OverlayColor(red: 255, green: 255, blue: 255, alpha: 60))
        if let duration = state.duration, duration > 0 {
            for range in state.loadedRanges {
                let x = width * range.lowerBound / duration
                let loaded = width * (range.upperBound - range.lowerBound) / duration
                canvas.fill(
                    CGRect(x: x, y: line.minY, width: loaded, height: 6),
                    OverlayColor(red: 255, green: 255, blue: 255, alpha: 110))
            }
            let played = width * min(1, state.currentTime / duration)
            canvas.fill(
                CGRect(x: 0, y: line.minY, width: played, height: 6),
                OverlayColor(red: 30, green: 200, blue: 120))
        }
        canvas.text(
            Self.clock(state.currentTime), size: 14, .white,
            in: CGRect(x: 10, y: height - 30, width: 120, height: 20))
        let word: String?
        switch state.status {
        case .loading: word = "Loading…"
        case .paused: word = "Paused"
        case .buffering: word = "Buffering…"
        case .ended: word = "Click to replay"
        case .failed: word = "Cannot play this"
        case .playing: word = nil
        }
        if let word {
            let box = CGRect(x: width / 2 - 140, y: height / 2 - 24, width: 280, height: 48)
            canvas.fill(box, OverlayColor(red: 0, green: 0, blue: 0, alpha: 150))
            canvas.text(word, size: 22, .white, in: box, centered: true)
        }
    }

    // MARK: - Helpers

    private func togglePlayback() {
        switch state.status {
        case .ended:
            actions?.seek(to: 0, exact: true)
            actions?.play()
        case .playing, .buffering:
            actions?.pause()
        case .paused, .loading, .failed:
            actions?.play()
        }
    }

    /// "1:05" for 65 seconds.
    static func clock(_ seconds: Double) -> String {
        let total = Int(max(0, seconds))
        let secs = total % 60
        return "\(total / 60):\(secs < 10 ? "0" : "")\(secs)"
    }
}
