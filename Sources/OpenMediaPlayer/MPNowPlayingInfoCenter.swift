// Playhead: what the app is playing, for the desktop's media controls (Apple's MediaPlayer API).
//
// Concurrency: `nowPlayingInfo` and `playbackState` (and their parsed form) are guarded by the
// center's lock, so an app may set them from any thread (usually the main queue). Each change
// is parsed once; when this is the published center (the default one, or the active session's)
// the MPRIS service reads it into a snapshot under its own lock (`MPRISService`, which takes
// this lock inside its own, never the other way round); nothing here waits on the bus.
import Foundation

/// Tells the desktop what is playing: the title, artist, album, length and cover art the
/// desktop's media controls show, and the position, rate and state they run their progress
/// from. On Linux it is published over MPRIS on the session bus (the `Metadata`,
/// `PlaybackStatus`, `Rate` and `Position` properties of `org.mpris.MediaPlayer2.Player`).
open class MPNowPlayingInfoCenter: @unchecked Sendable {
    private static let instance = MPNowPlayingInfoCenter()

    /// The process's now-playing center: the one the desktop shows unless an
    /// ``MPNowPlayingSession`` is active (then its ``MPNowPlayingSession/nowPlayingInfoCenter``).
    open class func `default`() -> MPNowPlayingInfoCenter { instance }

    private let lock = NSLock()
    private var info: [String: Any]?
    private var parsed: NowPlayingInfo?
    private var state = MPNowPlayingPlaybackState.unknown

    init() {}

    /// The item playing, keyed by `MPMediaItemProperty...` and `MPNowPlayingInfoProperty...`
    /// constants; nil when nothing is playing. Set the whole dictionary again whenever the
    /// position jumps, the rate changes or the item changes: the desktop extrapolates the
    /// position from `MPNowPlayingInfoPropertyElapsedPlaybackTime` and
    /// `MPNowPlayingInfoPropertyPlaybackRate` as of the moment it was set. A jump of the
    /// elapsed time away from that extrapolation is announced as MPRIS `Seeked`.
    open var nowPlayingInfo: [String: Any]? {
        get { lock.withLock { info } }
        set {
            let reading = newValue.map(NowPlayingInfo.init(dictionary:))
            lock.withLock {
                info = newValue
                parsed = reading
            }
            MPRISService.shared.nowPlayingInfoChanged(in: self)
        }
    }

    /// Whether the app is playing, paused or stopped (MPRIS PlaybackStatus). When `.unknown`
    /// the desktop derives it from the playback rate in `nowPlayingInfo`.
    open var playbackState: MPNowPlayingPlaybackState {
        get { lock.withLock { state } }
        set {
            lock.withLock { state = newValue }
            MPRISService.shared.playbackStateChanged(in: self)
        }
    }

    /// What the desktop is shown from this center: the parsed info and the state, read
    /// together. Any thread.
    var published: (info: NowPlayingInfo?, state: MPNowPlayingPlaybackState) { lock.withLock { (parsed, state) } }
}

/// `nowPlayingInfo` read into typed values once, when it is set.
struct NowPlayingInfo: Sendable, Equatable {
    var title: String?
    var artist: String?
    var album: String?
    /// Seconds.
    var duration: Double?
    var artwork: MPMediaItemArtwork?
    /// Seconds, as of `setAt`.
    var elapsed: Double = 0
    var rate: Double?
    var defaultRate: Double?
    var queueIndex: Int?
    var assetURL: String?
    /// The album's artist, genre, composer, track and disc numbers, comment, lyrics and
    /// release date.
    var albumArtist: String?
    var genre: String?
    var composer: String?
    var trackNumber: Int?
    var discNumber: Int?
    var comments: String?
    var lyrics: String?
    var releaseDate: Date?
    /// Plays, the rating from 0 to 1, when last played, beats per minute.
    var playCount: Int?
    var rating: Double?
    var lastPlayed: Date?
    var beatsPerMinute: Int?
    /// A live stream: no length is given to the desktop.
    var isLiveStream = false
    /// `ProcessInfo.systemUptime` when the dictionary was set.
    var setAt: TimeInterval = ProcessInfo.processInfo.systemUptime

    init() {}

    init(dictionary: [String: Any]) {
        title = dictionary[MPMediaItemPropertyTitle] as? String
        artist = dictionary[MPMediaItemPropertyArtist] as? String
        album = dictionary[MPMediaItemPropertyAlbumTitle] as? String
        duration = Self.number(dictionary[MPMediaItemPropertyPlaybackDuration])
        artwork = dictionary[MPMediaItemPropertyArtwork] as? MPMediaItemArtwork
        elapsed = Self.number(dictionary[MPNowPlayingInfoPropertyElapsedPlaybackTime]) ?? 0
        rate = Self.number(dictionary[MPNowPlayingInfoPropertyPlaybackRate])
        defaultRate = Self.number(dictionary[MPNowPlayingInfoPropertyDefaultPlaybackRate])
        queueIndex = Self.integer(dictionary[MPNowPlayingInfoPropertyPlaybackQueueIndex])
        albumArtist = dictionary[MPMediaItemPropertyAlbumArtist] as? String
        genre = dictionary[MPMediaItemPropertyGenre] as? String
        composer = dictionary[MPMediaItemPropertyComposer] as? String
        trackNumber = Self.integer(dictionary[MPMediaItemPropertyAlbumTrackNumber])
        discNumber = Self.integer(dictionary[MPMediaItemPropertyDiscNumber])
        comments = dictionary[MPMediaItemPropertyComments] as? String
        lyrics = dictionary[MPMediaItemPropertyLyrics] as? String
        releaseDate = dictionary[MPMediaItemPropertyReleaseDate] as? Date
        playCount = Self.integer(dictionary[MPMediaItemPropertyPlayCount])
        rating = Self.number(dictionary[MPMediaItemPropertyRating]).map { min(max($0 / 5, 0), 1) }
        lastPlayed = dictionary[MPMediaItemPropertyLastPlayedDate] as? Date
        beatsPerMinute = Self.integer(dictionary[MPMediaItemPropertyBeatsPerMinute])
        switch dictionary[MPNowPlayingInfoPropertyIsLiveStream] {
        case let flag as Bool: isLiveStream = flag
        case let number as NSNumber: isLiveStream = number.boolValue
        default: isLiveStream = false
        }
        switch dictionary[MPNowPlayingInfoPropertyAssetURL] {
        case let url as URL: assetURL = url.absoluteString
        case let text as String: assetURL = text
        default: assetURL = nil
        }
    }

    /// Whether `other` describes the same item (a different one is a new MPRIS track id). An
    /// item with an asset URL or a queue index is known by those; otherwise by its title,
    /// artist and album (its duration may only become known later).
    func isSameItem(as other: NowPlayingInfo) -> Bool {
        if assetURL != nil || queueIndex != nil || other.assetURL != nil || other.queueIndex != nil {
            return assetURL == other.assetURL && queueIndex == other.queueIndex
        }
        return title == other.title && artist == other.artist && album == other.album
    }

    static func == (lhs: NowPlayingInfo, rhs: NowPlayingInfo) -> Bool {
        lhs.isSameItem(as: rhs) && lhs.title == rhs.title && lhs.artist == rhs.artist && lhs.album == rhs.album
            && lhs.duration == rhs.duration && lhs.artwork === rhs.artwork && lhs.elapsed == rhs.elapsed && lhs.rate == rhs.rate
            && lhs.defaultRate == rhs.defaultRate && lhs.setAt == rhs.setAt && lhs.albumArtist == rhs.albumArtist
            && lhs.genre == rhs.genre && lhs.composer == rhs.composer && lhs.trackNumber == rhs.trackNumber
            && lhs.discNumber == rhs.discNumber && lhs.comments == rhs.comments && lhs.lyrics == rhs.lyrics
            && lhs.releaseDate == rhs.releaseDate && lhs.isLiveStream == rhs.isLiveStream
            && lhs.playCount == rhs.playCount && lhs.rating == rhs.rating && lhs.lastPlayed == rhs.lastPlayed
            && lhs.beatsPerMinute == rhs.beatsPerMinute
    }

    /// A whole number from any numeric type an app may store, nil when it does not fit an
    /// `Int` (an app's 1e300 is no crash).
    private static func integer(_ value: Any?) -> Int? {
        number(value).flatMap { Int(exactly: $0.rounded(.towardZero)) }
    }

    /// A finite number from any numeric type an app may store (Double, Float, Int, NSNumber).
    private static func number(_ value: Any?) -> Double? {
        let result: Double?
        switch value {
        case let double as Double: result = double
        case let float as Float: result = Double(float)
        case let int as Int: result = Double(int)
        case let number as NSNumber: result = number.doubleValue
        default: result = nil
        }
        return result.flatMap { $0.isFinite ? $0 : nil }
    }
}
