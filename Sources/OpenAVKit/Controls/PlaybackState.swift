// Playhead: what player controls show, and the two protocols that connect controls to a
// player (state flows to the controls; actions flow back).
//
// Concurrency: plain values and protocols; a conforming object is used from the one thread
// that runs its window's event loop.

/// A snapshot of everything player controls display.
public struct PlaybackState: Equatable, Sendable {
    /// How far the current item got.
    public enum Phase: Equatable, Sendable {
        /// No item, or the item is still loading.
        case loading
        /// The item is ready to play.
        case ready
        /// The item failed; the text says why.
        case failed(String)
    }

    /// The item's title (its metadata title, else its file name).
    public var title: String
    /// Loading, ready or failed.
    public var phase: Phase
    /// True when the user asked to play (the rate is not 0), even while waiting for data.
    public var isPlaying: Bool
    /// True while playback waits for data (buffering, or loading before the first frame).
    public var isWaiting: Bool
    /// True when playback stopped at the end of the item.
    public var isAtEnd: Bool
    /// The position in seconds.
    public var currentTime: Double
    /// The duration in seconds; nil when unknown (live streams, still loading).
    public var duration: Double?
    /// The time ranges, in seconds, that are loaded and play without waiting.
    public var loadedRanges: [ClosedRange<Double>]
    /// The volume, 0 to 1.
    public var volume: Float
    /// True when the sound is muted.
    public var isMuted: Bool
    /// The playback speed (the rate `play()` uses when paused).
    public var speed: Float
    /// The length of one video frame in seconds, when known (for frame stepping).
    public var frameDuration: Double?
    /// True when the window covers the screen.
    public var isFullscreen: Bool
    /// Seconds the sound plays after the picture (`AVPlayer.audioDelay`).
    public var audioDelay: Double = 0

    /// A state with every field given or defaulted.
    public init(
        title: String = "", phase: Phase = .loading, isPlaying: Bool = false,
        isWaiting: Bool = false, isAtEnd: Bool = false, currentTime: Double = 0,
        duration: Double? = nil, loadedRanges: [ClosedRange<Double>] = [], volume: Float = 1,
        isMuted: Bool = false, speed: Float = 1, frameDuration: Double? = nil,
        isFullscreen: Bool = false
    ) {
        self.title = title
        self.phase = phase
        self.isPlaying = isPlaying
        self.isWaiting = isWaiting
        self.isAtEnd = isAtEnd
        self.currentTime = currentTime
        self.duration = duration
        self.loadedRanges = loadedRanges
        self.volume = volume
        self.isMuted = isMuted
        self.speed = speed
        self.frameDuration = frameDuration
        self.isFullscreen = isFullscreen
    }
}

/// Receives the player's state (player → controls). Implemented by control overlays.
public protocol PlaybackStateObserving: AnyObject {
    /// The player's state now; called once per frame the window draws.
    func playbackStateDidChange(_ state: PlaybackState)
}

/// Performs what the controls ask for (controls → player). Implemented by the window, which
/// forwards playback requests to its player.
public protocol PlaybackControlActions: AnyObject {
    /// Starts or resumes playback at the chosen speed.
    func play()
    /// Pauses playback.
    func pause()
    /// Moves to `seconds`: exactly (`exact`), or to the nearest fast position (while scrubbing).
    func seek(to seconds: Double, exact: Bool)
    /// Sets the volume, 0 to 1.
    func setVolume(_ volume: Float)
    /// Mutes or unmutes.
    func setMuted(_ muted: Bool)
    /// Sets the playback speed (kept while paused).
    func setSpeed(_ speed: Float)
    /// Sets how many seconds the sound plays after the picture (negative: the picture after
    /// the sound).
    func setAudioDelay(_ seconds: Double)
    /// Enters or leaves fullscreen.
    func setFullscreen(_ fullscreen: Bool)
    /// Closes the player.
    func close()
    /// Asks the host app to show its playlist (the playlist button).
    func showPlaylist()
}

extension PlaybackControlActions {
    /// Does nothing: players without a playlist ignore the request.
    public func showPlaylist() {}
    /// Does nothing: players that cannot shift their sound ignore the request.
    public func setAudioDelay(_ seconds: Double) {}
}
