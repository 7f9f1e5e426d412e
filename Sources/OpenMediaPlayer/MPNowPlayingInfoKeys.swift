// Playhead: the keys of `MPNowPlayingInfoCenter.nowPlayingInfo` and the playback states, with
// Apple's names and string values. Constants only: no state.

/// The title of the item playing (a `String`; MPRIS `xesam:title`).
public let MPMediaItemPropertyTitle = "title"
/// The performing artist (a `String`; MPRIS `xesam:artist`, a one-element list).
public let MPMediaItemPropertyArtist = "artist"
/// The album (a `String`; MPRIS `xesam:album`).
public let MPMediaItemPropertyAlbumTitle = "albumTitle"
/// The item's length in seconds (a number; MPRIS `mpris:length` in microseconds).
public let MPMediaItemPropertyPlaybackDuration = "playbackDuration"
/// Cover art (an `MPMediaItemArtwork`; MPRIS `mpris:artUrl`, a `file://` URL).
public let MPMediaItemPropertyArtwork = "artwork"
/// The position in seconds at the moment the dictionary is set (a number); the desktop runs
/// the position on from there at the playback rate.
public let MPNowPlayingInfoPropertyElapsedPlaybackTime = "MPNowPlayingInfoPropertyElapsedPlaybackTime"
/// The current rate (a number; 0 while paused).
public let MPNowPlayingInfoPropertyPlaybackRate = "MPNowPlayingInfoPropertyPlaybackRate"
/// The rate playback runs at when playing (a number; 1 unless the user changed speed).
public let MPNowPlayingInfoPropertyDefaultPlaybackRate = "MPNowPlayingInfoPropertyDefaultPlaybackRate"
/// The item's index in the app's queue (a number); a change is a new track for the desktop.
public let MPNowPlayingInfoPropertyPlaybackQueueIndex = "MPNowPlayingInfoPropertyPlaybackQueueIndex"
/// The number of items in the app's queue (a number).
public let MPNowPlayingInfoPropertyPlaybackQueueCount = "MPNowPlayingInfoPropertyPlaybackQueueCount"
/// The URL of the playing asset (a `URL`), shown as MPRIS `xesam:url`.
public let MPNowPlayingInfoPropertyAssetURL = "MPNowPlayingInfoPropertyAssetURL"

/// Whether the app is playing, for the desktop (MPRIS PlaybackStatus).
public enum MPNowPlayingPlaybackState: UInt, Sendable {
    /// Not said: the desktop derives it from the playback rate in `nowPlayingInfo`.
    case unknown = 0
    /// Playing (MPRIS "Playing").
    case playing = 1
    /// Paused (MPRIS "Paused").
    case paused = 2
    /// Stopped (MPRIS "Stopped").
    case stopped = 3
    /// Interrupted by something else using the device (MPRIS "Paused").
    case interrupted = 4
}
