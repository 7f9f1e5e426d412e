// Playhead: what a player does while its video cannot be seen, as Apple's AVPlayer has it:
// the background playback policy, and whether the display is kept awake while video plays.
// The player only stores the settings; the window showing it (OpenAVKit's PlayerWindow) acts
// on them when it is minimised or hidden and as playback starts and stops.
//
// Concurrency: the settings live in the player's state lock; any thread.
import Foundation

/// What happens to a player's video playback when the app's window goes to the background
/// (on Linux: the player window is minimised or hidden).
public enum AVPlayerAudiovisualBackgroundPlaybackPolicy: Int, Sendable {
    /// The platform decides: Playhead pauses an item with video and lets audio-only play on.
    case automatic = 1
    /// Playback pauses in the background and resumes when the window comes back.
    case pauses = 2
    /// Playback goes on in the background.
    case continuesIfPossible = 3
}

extension AVPlayer {
    /// What playback does while the window showing this player is minimised or hidden
    /// (`.automatic` by default, as on Apple platforms).
    nonisolated public var audiovisualBackgroundPlaybackPolicy: AVPlayerAudiovisualBackgroundPlaybackPolicy {
        get { state.withLock { $0.backgroundPolicy } }
        set { state.withLock { $0.backgroundPolicy = newValue } }
    }

    /// Whether the screensaver and display sleep are held off while video plays (true by
    /// default); released while paused, at the end and when the window closes.
    nonisolated public var preventsDisplaySleepDuringVideoPlayback: Bool {
        get { state.withLock { $0.preventsDisplaySleep } }
        set { state.withLock { $0.preventsDisplaySleep = newValue } }
    }

    /// True when, under the background policy, playback with `hasVideo` pauses while its window
    /// is in the background.
    package func pausesInBackground(hasVideo: Bool) -> Bool {
        switch audiovisualBackgroundPlaybackPolicy {
        case .pauses: true
        case .continuesIfPossible: false
        case .automatic: hasVideo
        }
    }
}
