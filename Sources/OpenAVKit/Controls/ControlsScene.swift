// Playhead: what the control overlay draws in one frame, decided by the controller.
//
// Concurrency: an immutable value.

/// What the middle of the window shows.
enum CenterContent: Equatable, Sendable {
    /// Nothing (playing).
    case none
    /// A big play button (paused).
    case play
    /// A loading spinner at the given animation step (waiting for data).
    case spinner(step: Int)
    /// The reason the item failed.
    case error(String)
    /// A replay button (stopped at the end).
    case replay
}

/// Everything the overlay draws, as plain values: equal scenes draw identical pixels, so the
/// window redraws only when the scene or the video picture changes.
struct ControlsScene: Equatable, Sendable {
    /// Whether the top and bottom bars show.
    var barsVisible: Bool
    var title: String
    var center: CenterContent
    /// True shows a pause icon on the play/pause button.
    var showsPause: Bool
    var currentTimeText: String
    var durationText: String
    /// The played part of the slider, 0 to 1.
    var playedFraction: Double
    /// Buffered parts of the slider, as fractions from 0 to 1.
    var bufferedFractions: [ClosedRange<Double>]
    var isMuted: Bool
    var volume: Float
    var speedText: String
    var isFullscreen: Bool
    /// True while the slider is held.
    var isScrubbing: Bool
    /// The volume indicator, for a moment after the volume changes.
    var volumeIndicator: VolumeIndicator? = nil
    /// The audio delay ("Audio delay +50 ms"), for a moment after it changes.
    var audioDelayText: String? = nil
    /// The subtitle delay ("Subtitle delay: +0.3 s"), for a moment after z or x changes it.
    var subtitleDelayText: String? = nil
}

/// Clock-style time labels.
enum TimeText {
    /// `seconds` as H:MM:SS (with hours, zero-padded to two digits) when `longForm`, else MM:SS.
    static func format(_ seconds: Double, longForm: Bool) -> String {
        let total = seconds.isFinite ? max(0, Int(seconds.rounded(.down))) : 0
        let hours = total / 3600, minutes = (total / 60) % 60, secs = total % 60
        if longForm { return "\(pad(hours)):\(pad(minutes)):\(pad(secs))" }
        return "\(pad(total / 60)):\(pad(secs))"
    }

    /// Labels for a position and a duration: HH:MM:SS when the duration is an hour or more.
    static func labels(current: Double, duration: Double?) -> (current: String, duration: String) {
        let longForm = (duration ?? current) >= 3600
        let durationText = duration.map { format($0, longForm: longForm) } ?? "--:--"
        return (format(current, longForm: longForm), durationText)
    }

    private static func pad(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
}
