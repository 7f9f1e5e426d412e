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

/// The album's artist, when it is not the item's (a `String`; MPRIS `xesam:albumArtist`).
public let MPMediaItemPropertyAlbumArtist = "albumArtist"
/// The genre (a `String`; MPRIS `xesam:genre`, a one-element list).
public let MPMediaItemPropertyGenre = "genre"
/// The composer (a `String`; MPRIS `xesam:composer`, a one-element list).
public let MPMediaItemPropertyComposer = "composer"
/// The item's track number on its album (a number; MPRIS `xesam:trackNumber`).
public let MPMediaItemPropertyAlbumTrackNumber = "albumTrackNumber"
/// How many tracks the album has (a number; MPRIS has no such field).
public let MPMediaItemPropertyAlbumTrackCount = "albumTrackCount"
/// The disc the item is on (a number; MPRIS `xesam:discNumber`).
public let MPMediaItemPropertyDiscNumber = "discNumber"
/// How many discs the album has (a number; MPRIS has no such field).
public let MPMediaItemPropertyDiscCount = "discCount"
/// A comment on the item (a `String`; MPRIS `xesam:comment`, a one-element list).
public let MPMediaItemPropertyComments = "comments"
/// The item's lyrics (a `String`; MPRIS `xesam:asText`).
public let MPMediaItemPropertyLyrics = "lyrics"
/// When the item was released (a `Date`; MPRIS `xesam:contentCreated`, ISO 8601).
public let MPMediaItemPropertyReleaseDate = "releaseDate"
/// The kind of media item (an `MPMediaType` on Apple platforms; accepted, not shown on Linux).
public let MPMediaItemPropertyMediaType = "mediaType"
/// Whether the item is a live stream with no end (a `Bool`): the desktop is given no length,
/// so it shows no progress bar.
public let MPNowPlayingInfoPropertyIsLiveStream = "MPNowPlayingInfoPropertyIsLiveStream"
/// Whether the item is audio or video (an `MPNowPlayingInfoMediaType` or its raw value;
/// accepted, not shown: MPRIS has no such field).
public let MPNowPlayingInfoPropertyMediaType = "MPNowPlayingInfoPropertyMediaType"
/// The chapter playing, from 0 (a number; accepted, not shown).
public let MPNowPlayingInfoPropertyChapterNumber = "MPNowPlayingInfoPropertyChapterNumber"
/// How many chapters the item has (a number; accepted, not shown).
public let MPNowPlayingInfoPropertyChapterCount = "MPNowPlayingInfoPropertyChapterCount"
/// How far through the item playback is, 0 to 1 (a number; accepted, not shown: the
/// desktop's progress comes from the elapsed time and length).
public let MPNowPlayingInfoPropertyPlaybackProgress = "MPNowPlayingInfoPropertyPlaybackProgress"
/// The app's own identifier of the item (a `String`; accepted, not shown).
public let MPNowPlayingInfoPropertyExternalContentIdentifier = "MPNowPlayingInfoPropertyExternalContentIdentifier"
/// The app's identifier of the collection the item belongs to (a `String`; accepted, not shown).
public let MPNowPlayingInfoCollectionIdentifier = "MPNowPlayingInfoCollectionIdentifier"
/// The date and time in a live stream playing now (a `Date`; accepted, not shown).
public let MPNowPlayingInfoPropertyCurrentPlaybackDate = "MPNowPlayingInfoPropertyCurrentPlaybackDate"

/// Whether the item playing is audio or video (`MPNowPlayingInfoPropertyMediaType`).
public enum MPNowPlayingInfoMediaType: UInt, Sendable {
    /// Neither said.
    case none = 0
    /// Sound only.
    case audio = 1
    /// Video.
    case video = 2
}

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
