// Playhead: the window's subtitle delay (z and x, `--sub-delay`): its steps, bounds and the
// note shown for a moment after it changes.
//
// Concurrency: pure functions; the controller that holds the delay is confined to the
// window's event-loop thread.
import Foundation

/// Rules for the subtitle delay: how it steps and how it reads on screen.
enum SubtitleDelay {
    /// The largest delay either way, in seconds (as `--sub-delay` accepts).
    static let limit = 600.0

    /// `delay` kept within ±``limit`` and rounded to whole milliseconds (so 0.1 s steps add
    /// up without drifting); not-a-number becomes 0.
    static func clamped(_ delay: Double) -> Double {
        guard delay.isFinite else { return delay.isNaN ? 0 : (delay > 0 ? limit : -limit) }
        return min(limit, max(-limit, (delay * 1000).rounded() / 1000))
    }

    /// The delay after one step of `change` seconds.
    static func adjusted(_ delay: Double, by change: Double) -> Double {
        clamped(delay + change)
    }

    /// "Subtitle delay: +0.3 s", "Subtitle delay: -1.25 s", "Subtitle delay: 0.0 s".
    static func text(_ delay: Double) -> String {
        let milliseconds = Int(clamped(delay) * 1000)
        let sign = milliseconds > 0 ? "+" : milliseconds < 0 ? "-" : ""
        let magnitude = abs(milliseconds)
        var fraction = String(magnitude % 1000)
        fraction = String(repeating: "0", count: 3 - fraction.count) + fraction
        while fraction.count > 1, fraction.hasSuffix("0") { fraction.removeLast() }
        return "Subtitle delay: \(sign)\(magnitude / 1000).\(fraction) s"
    }
}

extension PlayerControlsController {
    /// The subtitle delay note, shown for `VolumeIndicator.showDuration` seconds after z or x
    /// changed it (and not while the volume or audio delay indicator is newer).
    var subtitleDelayText: String? {
        guard let shownAt = subtitleDelayChangedAt, (clock.now - shownAt) < VolumeIndicator.showDuration,
            shownAt > (volumeChangedAt ?? -.infinity), shownAt > (audioDelayChangedAt ?? -.infinity)
        else { return nil }
        return SubtitleDelay.text(subtitleDelay)
    }
}
