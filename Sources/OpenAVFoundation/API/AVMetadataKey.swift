// Playhead: names for metadata keys, key spaces and identifiers.

/// A metadata key, such as the common key "title".
public struct AVMetadataKey: RawRepresentable, Hashable, Sendable {
    /// The key's string.
    public let rawValue: String
    /// The key with this string.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// The key with this string.
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// The work's title.
    public static let commonKeyTitle = AVMetadataKey("title")
    /// The person or group who created the work.
    public static let commonKeyCreator = AVMetadataKey("creator")
    /// The subject of the work.
    public static let commonKeySubject = AVMetadataKey("subject")
    /// A description or comment.
    public static let commonKeyDescription = AVMetadataKey("description")
    /// The publisher.
    public static let commonKeyPublisher = AVMetadataKey("publisher")
    /// A contributor.
    public static let commonKeyContributor = AVMetadataKey("contributor")
    /// When the work was created.
    public static let commonKeyCreationDate = AVMetadataKey("creationDate")
    /// When the work was last modified.
    public static let commonKeyLastModifiedDate = AVMetadataKey("lastModifiedDate")
    /// The kind or genre of the work.
    public static let commonKeyType = AVMetadataKey("type")
    /// The file format.
    public static let commonKeyFormat = AVMetadataKey("format")
    /// An identifier for the work.
    public static let commonKeyIdentifier = AVMetadataKey("identifier")
    /// Where the work came from.
    public static let commonKeySource = AVMetadataKey("source")
    /// The work's language.
    public static let commonKeyLanguage = AVMetadataKey("language")
    /// A related work.
    public static let commonKeyRelation = AVMetadataKey("relation")
    /// Where the work was made.
    public static let commonKeyLocation = AVMetadataKey("location")
    /// Copyright statements.
    public static let commonKeyCopyrights = AVMetadataKey("copyrights")
    /// The album the work belongs to.
    public static let commonKeyAlbumName = AVMetadataKey("albumName")
    /// The author.
    public static let commonKeyAuthor = AVMetadataKey("author")
    /// The performing artist.
    public static let commonKeyArtist = AVMetadataKey("artist")
    /// Cover art (the value is image data).
    public static let commonKeyArtwork = AVMetadataKey("artwork")
    /// The software that made the file.
    public static let commonKeySoftware = AVMetadataKey("software")
    /// The make of the recording device.
    public static let commonKeyMake = AVMetadataKey("make")
    /// The model of the recording device.
    public static let commonKeyModel = AVMetadataKey("model")
}

/// A namespace of metadata keys.
public struct AVMetadataKeySpace: RawRepresentable, Hashable, Sendable {
    /// The key space's identifier.
    public let rawValue: String
    /// The key space with this identifier.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// The key space with this identifier.
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// Keys shared by every format ("comn").
    public static let common = AVMetadataKeySpace("comn")
    /// The container's own tag names as FFmpeg reports them, lowercased.
    ///
    /// - Note: Differs from AVFoundation: Apple keeps one key space per container format
    ///   (QuickTime, iTunes, ID3, ...); Playhead reports FFmpeg's normalised tags under this one.
    public static let playheadContainer = AVMetadataKeySpace("org.ffmpeg.metadata")
    /// ID3 frames, such as the timed ID3 tags of HLS and MPEG-TS streams ("org.id3").
    public static let id3 = AVMetadataKeySpace("org.id3")
    /// Shoutcast/Icecast stream metadata ("icy").
    public static let icy = AVMetadataKeySpace("icy")
    /// QuickTime metadata keys: reverse-DNS names such as "com.apple.quicktime.title", as
    /// MP4/QuickTime timed metadata tracks declare them ("mdta").
    public static let quickTimeMetadata = AVMetadataKeySpace("mdta")
    /// QuickTime user data: four-character codes ("udta").
    public static let quickTimeUserData = AVMetadataKeySpace("udta")
    /// ISO base media user data: four-character codes ("uiso").
    public static let isoUserData = AVMetadataKeySpace("uiso")
}

/// A key space and key together, written "keySpace/key".
public struct AVMetadataIdentifier: RawRepresentable, Hashable, Sendable {
    /// The identifier's string.
    public let rawValue: String
    /// The identifier with this string.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// The identifier with this string.
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// "common/title".
    public static let commonIdentifierTitle = AVMetadataIdentifier("common/title")
    /// "common/creator".
    public static let commonIdentifierCreator = AVMetadataIdentifier("common/creator")
    /// "common/description".
    public static let commonIdentifierDescription = AVMetadataIdentifier("common/description")
    /// "common/publisher".
    public static let commonIdentifierPublisher = AVMetadataIdentifier("common/publisher")
    /// "common/creationDate".
    public static let commonIdentifierCreationDate = AVMetadataIdentifier("common/creationDate")
    /// "common/type".
    public static let commonIdentifierType = AVMetadataIdentifier("common/type")
    /// "common/language".
    public static let commonIdentifierLanguage = AVMetadataIdentifier("common/language")
    /// "common/location".
    public static let commonIdentifierLocation = AVMetadataIdentifier("common/location")
    /// "common/copyrights".
    public static let commonIdentifierCopyrights = AVMetadataIdentifier("common/copyrights")
    /// "common/albumName".
    public static let commonIdentifierAlbumName = AVMetadataIdentifier("common/albumName")
    /// "common/author".
    public static let commonIdentifierAuthor = AVMetadataIdentifier("common/author")
    /// "common/artist".
    public static let commonIdentifierArtist = AVMetadataIdentifier("common/artist")
    /// "common/artwork".
    public static let commonIdentifierArtwork = AVMetadataIdentifier("common/artwork")
    /// "common/software".
    public static let commonIdentifierSoftware = AVMetadataIdentifier("common/software")

    /// The identifier for `key` in `keySpace`.
    public static func identifier(forKey key: String, keySpace: AVMetadataKeySpace)
        -> AVMetadataIdentifier
    {
        let space = identifierPrefixes[keySpace] ?? keySpace.rawValue
        return AVMetadataIdentifier("\(space)/\(key)")
    }

    /// The short names identifiers use for key spaces, as Apple writes them ("id3/TIT2").
    static let identifierPrefixes: [AVMetadataKeySpace: String] = [.common: "common", .id3: "id3", .icy: "icy"]

    /// The ID3 title ("TIT2").
    public static let id3MetadataTitleDescription = AVMetadataIdentifier("id3/TIT2")
    /// The ID3 lead performer ("TPE1").
    public static let id3MetadataLeadPerformer = AVMetadataIdentifier("id3/TPE1")
    /// The ID3 album ("TALB").
    public static let id3MetadataAlbumTitle = AVMetadataIdentifier("id3/TALB")
    /// A user-defined ID3 text frame ("TXXX").
    public static let id3MetadataUserText = AVMetadataIdentifier("id3/TXXX")
    /// An ID3 private frame ("PRIV").
    public static let id3MetadataPrivate = AVMetadataIdentifier("id3/PRIV")
    /// The title a Shoutcast/Icecast stream announces ("StreamTitle").
    public static let icyMetadataStreamTitle = AVMetadataIdentifier("icy/StreamTitle")
    /// The address a Shoutcast/Icecast stream announces ("StreamUrl").
    public static let icyMetadataStreamURL = AVMetadataIdentifier("icy/StreamUrl")
}
