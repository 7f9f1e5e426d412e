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
/// How many times the item was played (a number; MPRIS `xesam:useCount`).
public let MPMediaItemPropertyPlayCount = "playCount"
/// The user's rating of the item, 0 to 5 stars (a number; MPRIS `xesam:userRating`, 0 to 1).
public let MPMediaItemPropertyRating = "rating"
/// When the item was last played (a `Date`; MPRIS `xesam:lastUsed`, ISO 8601).
public let MPMediaItemPropertyLastPlayedDate = "lastPlayedDate"
/// The item's tempo in beats per minute (a number; MPRIS `xesam:audioBPM`).
public let MPMediaItemPropertyBeatsPerMinute = "beatsPerMinute"
/// The item's persistent identifier in a library (a number; accepted, not shown).
public let MPMediaItemPropertyPersistentID = "persistentID"
/// Whether the item is marked explicit (a `Bool`; accepted, not shown).
public let MPMediaItemPropertyIsExplicit = "isExplicit"
/// The podcast the episode belongs to (a `String`; accepted, not shown).
public let MPMediaItemPropertyPodcastTitle = "podcastTitle"
/// Where playback of the item was left, in seconds (a number; accepted, not shown).
public let MPMediaItemPropertyBookmarkTime = "bookmarkTime"
/// The user's grouping of the item (a `String`; accepted, not shown).
public let MPMediaItemPropertyUserGrouping = "userGrouping"
/// How many times the item was skipped (a number; accepted, not shown).
public let MPMediaItemPropertySkipCount = "skipCount"
/// When the item was added to the library (a `Date`; accepted, not shown).
public let MPMediaItemPropertyDateAdded = "dateAdded"
/// The service the item comes from (a `String`; accepted, not shown).
public let MPNowPlayingInfoPropertyServiceIdentifier = "MPNowPlayingInfoPropertyServiceIdentifier"
/// The kind of media item (an ``MPMediaType`` or its raw value; accepted, not shown on Linux).
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

/// Kinds of media item (`MPMediaItemPropertyMediaType`): music, podcasts and the rest, and the
/// sets of every sound and every video kind.
public struct MPMediaType: OptionSet, Hashable, Sendable {
    /// The kinds, one bit each.
    public let rawValue: UInt
    /// The kinds whose bits are set in `rawValue`.
    public init(rawValue: UInt) { self.rawValue = rawValue }

    /// A song.
    public static let music = MPMediaType(rawValue: 1 << 0)
    /// A sound podcast episode.
    public static let podcast = MPMediaType(rawValue: 1 << 1)
    /// A spoken book.
    public static let audioBook = MPMediaType(rawValue: 1 << 2)
    /// A sound lecture.
    public static let audioITunesU = MPMediaType(rawValue: 1 << 3)
    /// Every sound kind.
    public static let anyAudio = MPMediaType(rawValue: 0x00ff)
    /// A film.
    public static let movie = MPMediaType(rawValue: 1 << 8)
    /// An episode of a series.
    public static let tvShow = MPMediaType(rawValue: 1 << 9)
    /// A video podcast episode.
    public static let videoPodcast = MPMediaType(rawValue: 1 << 10)
    /// A music video.
    public static let musicVideo = MPMediaType(rawValue: 1 << 11)
    /// A video lecture.
    public static let videoITunesU = MPMediaType(rawValue: 1 << 12)
    /// A video of one's own.
    public static let homeVideo = MPMediaType(rawValue: 1 << 13)
    /// Every video kind.
    public static let anyVideo = MPMediaType(rawValue: 0xff00)
    /// Every kind.
    public static let any = MPMediaType(rawValue: .max)
}
