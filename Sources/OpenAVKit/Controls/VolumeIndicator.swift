// Playhead: the volume indicator that shows for a moment after the volume or mute changes
// (↑/↓, the wheel, m), as the reference players' volume HUD does.
//
// Concurrency: plain values; the controller that owns the timing is confined to the window's
// event-loop thread.

/// What the volume indicator shows.
struct VolumeIndicator: Equatable, Sendable {
    /// Seconds the indicator stays after the last change.
    static let showDuration = 1.5

    /// The volume, 0 to 1.
    var level: Float
    var isMuted: Bool

    /// "Muted", or the volume as a percentage ("70%").
    var text: String { isMuted ? "Muted" : "\(Int((level * 100).rounded()))%" }
}

extension PlayerControlsController {
    /// The indicator to draw now: shown for `VolumeIndicator.showDuration` seconds after a
    /// volume or mute command, with the state the player reports.
    var volumeIndicator: VolumeIndicator? {
        guard let shownAt = volumeChangedAt, (clock.now - shownAt) < VolumeIndicator.showDuration,
            shownAt > (audioDelayChangedAt ?? -.infinity), shownAt > (subtitleDelayChangedAt ?? -.infinity)
        else { return nil }
        return VolumeIndicator(level: state.volume, isMuted: state.isMuted)
    }
}

extension PlayerControlsController {
    /// "Audio delay +50 ms", shown for `VolumeIndicator.showDuration` seconds after `-` or `=`
    /// changed it (and not while the volume or subtitle delay indicator is newer).
    var audioDelayText: String? {
        guard let shownAt = audioDelayChangedAt, (clock.now - shownAt) < VolumeIndicator.showDuration,
            shownAt >= (volumeChangedAt ?? -.infinity), shownAt >= (subtitleDelayChangedAt ?? -.infinity)
        else { return nil }
        let milliseconds = Int((state.audioDelay * 1000).rounded())
        return "Audio delay \(milliseconds > 0 ? "+" : "")\(milliseconds) ms"
    }
}
