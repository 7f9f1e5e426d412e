// Playhead: the MPRIS properties as D-Bus values, computed from a snapshot.
//
// Concurrency: pure functions of their arguments; called on the MPRIS server's bus thread.
import Foundation

/// The names MPRIS and D-Bus give things.
enum MPRISNames {
    static let objectPath = "/org/mpris/MediaPlayer2"
    static let root = "org.mpris.MediaPlayer2"
    static let player = "org.mpris.MediaPlayer2.Player"
    static let properties = "org.freedesktop.DBus.Properties"
    static let introspectable = "org.freedesktop.DBus.Introspectable"
    static let peer = "org.freedesktop.DBus.Peer"
}

/// How the player appears on the bus: its bus name, the name the desktop shows, its
/// `.desktop` file. Linux only (Apple's system knows the app from its bundle); set it before
/// the app first publishes now-playing information or adds a command target.
public struct MPRISIdentity: Sendable, Equatable {
    /// The last part of the bus name `org.mpris.MediaPlayer2.<busName>`, what
    /// `playerctl -p` matches (letters, digits and underscores).
    public var busName: String
    /// The name the desktop shows for the player (MPRIS Identity).
    public var displayName: String
    /// The `.desktop` file's name without its extension (MPRIS DesktopEntry).
    public var desktopEntry: String
    /// URI schemes the app can open (MPRIS SupportedUriSchemes).
    public var uriSchemes: [String]
    /// MIME types the app can play (MPRIS SupportedMimeTypes).
    public var mimeTypes: [String]

    /// An identity from its parts.
    public init(
        busName: String, displayName: String, desktopEntry: String, uriSchemes: [String] = ["file"],
        mimeTypes: [String] = []
    ) {
        self.busName = busName
        self.displayName = displayName
        self.desktopEntry = desktopEntry
        self.uriSchemes = uriSchemes
        self.mimeTypes = mimeTypes
    }

    /// Playhead's own: `org.mpris.MediaPlayer2.playhead`, shown as "Playhead".
    public static let playhead = MPRISIdentity(
        busName: "playhead", displayName: "Playhead", desktopEntry: "playhead",
        uriSchemes: ["file", "http", "https"],
        mimeTypes: [
            "video/mp4", "video/webm", "video/x-matroska", "video/quicktime", "video/mp2t", "audio/mpeg",
            "audio/mp4", "audio/ogg", "audio/flac", "audio/x-wav", "application/vnd.apple.mpegurl",
            "application/dash+xml",
        ])

    private static let storage = NSLock()
    nonisolated(unsafe) private static var value = MPRISIdentity.playhead

    /// The identity the server uses when it starts (default: `.playhead`).
    public static var current: MPRISIdentity {
        get { storage.withLock { value } }
        set { storage.withLock { value = newValue } }
    }
}

/// Property values of the two MPRIS interfaces.
enum MPRISProperties {
    /// Every property of `interface`, or nil for an interface the object does not have.
    static func all(_ interface: String, _ snapshot: NowPlayingSnapshot, _ identity: MPRISIdentity, now: TimeInterval)
        -> [(String, DBusValue)]?
    {
        switch interface {
        case MPRISNames.root: return root(identity)
        case MPRISNames.player: return player(snapshot, now: now)
        default: return nil
        }
    }

    static func root(_ identity: MPRISIdentity) -> [(String, DBusValue)] {
        [
            ("CanQuit", .boolean(false)), ("CanRaise", .boolean(false)), ("HasTrackList", .boolean(false)),
            ("Identity", .string(identity.displayName)), ("DesktopEntry", .string(identity.desktopEntry)),
            ("SupportedUriSchemes", .stringArray(identity.uriSchemes)),
            ("SupportedMimeTypes", .stringArray(identity.mimeTypes)),
        ]
    }

    /// The Player interface's properties; Position only when `now` is given (it is never
    /// part of PropertiesChanged).
    static func player(_ snapshot: NowPlayingSnapshot, now: TimeInterval?) -> [(String, DBusValue)] {
        let commands = snapshot.commands
        var properties: [(String, DBusValue)] = [
            ("PlaybackStatus", .string(snapshot.playbackStatus)),
            ("Rate", .double(snapshot.rate)),
            ("Metadata", .dictionary(metadata(snapshot))),
            ("Volume", .double(1)),
            ("MinimumRate", .double(snapshot.rateRange.lowerBound)),
            ("MaximumRate", .double(snapshot.rateRange.upperBound)),
            ("CanGoNext", .boolean(commands.next)),
            ("CanGoPrevious", .boolean(commands.previous)),
            ("CanPlay", .boolean(commands.play || commands.togglePlayPause)),
            ("CanPause", .boolean(commands.pause || commands.togglePlayPause)),
            ("CanSeek", .boolean(commands.changePosition || commands.skipForward || commands.skipBackward)),
            ("CanControl", .boolean(true)),
        ]
        // Offered only while the app handles them (both are optional in MPRIS).
        if commands.changeRepeat { properties.append(("LoopStatus", .string(loopStatus(commands.repeatType)))) }
        if commands.changeShuffle { properties.append(("Shuffle", .boolean(commands.shuffleType != .off))) }
        if let now {
            properties.insert(("Position", .int64(NowPlayingSnapshot.microseconds(snapshot.position(at: now)))), at: 4)
        }
        return properties
    }

    /// MPRIS LoopStatus for a repeat mode.
    static func loopStatus(_ type: MPRepeatType) -> String {
        switch type {
        case .off: return "None"
        case .one: return "Track"
        case .all: return "Playlist"
        }
    }

    /// The repeat mode an MPRIS LoopStatus names; nil for any other text.
    static func repeatType(loopStatus: String) -> MPRepeatType? {
        [MPRepeatType.off, .one, .all].first { Self.loopStatus($0) == loopStatus }
    }

    /// MPRIS Metadata: the track id, length (none for a live stream), title, artist, album,
    /// cover art, URL, and the album artist, genre, composer, track and disc numbers, comment,
    /// lyrics, release date, play count, rating, last play and tempo when given.
    static func metadata(_ snapshot: NowPlayingSnapshot) -> [(String, DBusValue)] {
        var entries: [(String, DBusValue)] = [("mpris:trackid", .objectPath(snapshot.trackID))]
        guard let info = snapshot.info else { return entries }
        if let duration = info.duration, duration > 0, !info.isLiveStream {
            entries.append(("mpris:length", .int64(NowPlayingSnapshot.microseconds(duration))))
        }
        if let title = info.title { entries.append(("xesam:title", .string(title))) }
        if let artist = info.artist { entries.append(("xesam:artist", .stringArray([artist]))) }
        if let album = info.album { entries.append(("xesam:album", .string(album))) }
        if let art = info.artwork?.fileURL { entries.append(("mpris:artUrl", .string(art.absoluteString))) }
        if let url = info.assetURL { entries.append(("xesam:url", .string(url))) }
        if let albumArtist = info.albumArtist { entries.append(("xesam:albumArtist", .stringArray([albumArtist]))) }
        if let genre = info.genre { entries.append(("xesam:genre", .stringArray([genre]))) }
        if let composer = info.composer { entries.append(("xesam:composer", .stringArray([composer]))) }
        if let track = info.trackNumber.flatMap(Int32.init(exactly:)) { entries.append(("xesam:trackNumber", .int32(track))) }
        if let disc = info.discNumber.flatMap(Int32.init(exactly:)) { entries.append(("xesam:discNumber", .int32(disc))) }
        if let comments = info.comments { entries.append(("xesam:comment", .stringArray([comments]))) }
        if let lyrics = info.lyrics { entries.append(("xesam:asText", .string(lyrics))) }
        if let date = info.releaseDate {
            entries.append(("xesam:contentCreated", .string(date.formatted(.iso8601))))
        }
        if let plays = info.playCount.flatMap(Int32.init(exactly:)) { entries.append(("xesam:useCount", .int32(plays))) }
        if let rating = info.rating { entries.append(("xesam:userRating", .double(rating))) }
        if let date = info.lastPlayed { entries.append(("xesam:lastUsed", .string(date.formatted(.iso8601)))) }
        if let bpm = info.beatsPerMinute.flatMap(Int32.init(exactly:)) { entries.append(("xesam:audioBPM", .int32(bpm))) }
        return entries
    }
}
