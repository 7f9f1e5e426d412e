// Playhead: one choice within a media selection group: an audio language, a subtitle track.
// Concurrency: immutable objects.
import FFmpegBridge
import Foundation

/// Where an option's media comes from: a stream of the asset, or a subtitle file beside it.
enum MediaOptionSource: Hashable, Sendable {
    /// The container stream with this index.
    case stream(Int)
    /// A subtitle file (found next to the media or given explicitly).
    case sidecar(URL)
    /// The closed captions (CC1) carried in the pictures of the video stream with this index.
    case closedCaptions(videoStream: Int)

    /// The stream index, for embedded options.
    var streamIndex: Int? {
        if case .stream(let index) = self { return index }
        return nil
    }
}

/// One option of an ``AVMediaSelectionGroup``: an audio track in one language, a subtitle
/// track, closed captions, or a subtitle file found beside the media.
///
/// Select it for playback with `AVPlayerItem.select(_:in:)`.
///
/// - Important: Immutable; thread-safe. Two options are equal when they name the same media.
open class AVMediaSelectionOption: NSObject, @unchecked Sendable {
    /// The media type: `.audio` for audible options, `.subtitle` for legible ones,
    /// `.closedCaption` for EIA-608 captions (a caption track, or captions in the video).
    public let mediaType: AVMediaType
    /// Whether the option can be played (its codec has a decoder here).
    public let isPlayable: Bool
    /// The option's language as a BCP 47 tag ("en", "fr"), when known.
    public let extendedLanguageTag: String?
    /// Metadata with common keys: the title and language, when the container gives them.
    public let commonMetadata: [AVMetadataItem]
    /// The metadata formats of `commonMetadata`'s source.
    public var availableMetadataFormats: [String] {
        commonMetadata.isEmpty ? [] : ["playhead.container"]
    }
    /// Four-character codes of the media's format; empty (FFmpeg names codecs instead).
    public var mediaSubTypes: [NSNumber] { [] }
    /// FFmpeg's codec name ("aac", "subrip", "hdmv_pgs_subtitle"). A Playhead addition.
    public let codecName: String
    /// True for bitmap subtitles (PGS, DVB, DVD). A Playhead addition.
    public let isBitmapSubtitle: Bool

    /// True when the container (or the HLS playlist, `DEFAULT=YES`) flags this track as the
    /// one to play by default. Apple's API does not select flagged subtitles by itself; the CLI
    /// shows them, as desktop players do.
    package let isFlaggedDefault: Bool

    let source: MediaOptionSource
    let characteristics: Set<AVMediaCharacteristic>
    let title: String?
    /// The name the source gives the option for people to read (an HLS rendition's NAME),
    /// shown as it is in every locale, as Apple shows it; nil: the name is made up.
    let sourceName: String?

    init(
        mediaType: AVMediaType, source: MediaOptionSource, languageCode: String?, title: String?,
        codecName: String, isPlayable: Bool, characteristics: Set<AVMediaCharacteristic>,
        isFlaggedDefault: Bool = false, sourceName: String? = nil
    ) {
        self.mediaType = mediaType
        self.sourceName = sourceName
        self.isFlaggedDefault = isFlaggedDefault
        self.source = source
        self.extendedLanguageTag = languageCode.flatMap(LanguageTags.bcp47)
        self.title = title
        self.codecName = codecName
        self.isPlayable = isPlayable
        self.characteristics = characteristics
        self.isBitmapSubtitle = SubtitleCodecs.isBitmap(codecName)
        var metadata: [AVMetadataItem] = []
        if let title {
            metadata.append(
                AVMetadataItem(
                    key: "title", keySpace: .playheadContainer, commonKey: .commonKeyTitle,
                    value: NSString(string: title), dataType: "com.apple.metadata.datatype.UTF-8"))
        }
        if let languageCode {
            metadata.append(
                AVMetadataItem(
                    key: "language", keySpace: .playheadContainer, commonKey: .commonKeyLanguage,
                    value: NSString(string: languageCode),
                    dataType: "com.apple.metadata.datatype.UTF-8"))
        }
        commonMetadata = metadata
        super.init()
    }

    /// The option's locale, from its language tag.
    public var locale: Locale? { extendedLanguageTag.map(Locale.init(identifier:)) }

    /// A name to show people, in the current locale: the language ("English"), marked
    /// "Forced" or "SDH" when the track is, or the title when there is no language. Closed
    /// captions are "English CC" with a language, else "CC1" (their channel). Closed captions
    /// an HLS playlist names (`EXT-X-MEDIA` NAME) are shown by that name as it is.
    public var displayName: String { displayName(with: Locale.current) }

    /// The display name in `locale`'s language (a name the source gives is not translated).
    public func displayName(with locale: Locale) -> String {
        if let sourceName, !sourceName.isEmpty { return sourceName }
        var name: String
        if let tag = extendedLanguageTag {
            name = locale.localizedString(forIdentifier: tag) ?? tag
            if let title, !title.isEmpty, title.lowercased() != name.lowercased() {
                name += " (\(title))"
            }
        } else if let title, !title.isEmpty {
            name = title
        } else if mediaType == .closedCaption {
            return "CC1"
        } else {
            switch source {
            case .stream(let index): name = "Track \(index + 1)"
            case .sidecar(let url): name = url.lastPathComponent
            case .closedCaptions: name = "CC1"
            }
        }
        if mediaType == .closedCaption {
            return name == "CC1" ? name : name + " CC"
        }
        if characteristics.contains(.containsOnlyForcedSubtitles) { name += " Forced" }
        if characteristics.contains(.describesMusicAndSoundForAccessibility) { name += " SDH" }
        return name
    }

    /// True when the option has `mediaCharacteristic` (`.audible`, `.legible`, forced, SDH).
    public func hasMediaCharacteristic(_ mediaCharacteristic: AVMediaCharacteristic) -> Bool {
        characteristics.contains(mediaCharacteristic)
    }

    /// Options of other groups that go with this one; Playhead associates none.
    public func associatedMediaSelectionOption(in mediaSelectionGroup: AVMediaSelectionGroup)
        -> AVMediaSelectionOption?
    {
        nil
    }

    /// The subtitle file this option reads (beside the media or given explicitly) or the
    /// WebVTT media playlist of an HLS subtitle rendition; nil for tracks inside the media.
    /// A Playhead addition.
    public var fileURL: URL? {
        if case .sidecar(let url) = source { return url }
        return nil
    }

    /// The index of the container stream the option reads: its track, or for closed
    /// captions carried in the pictures, the video stream; nil for subtitle files. A Playhead
    /// addition.
    public var streamIndex: Int? {
        switch source {
        case .stream(let index): return index
        case .closedCaptions(let video): return video
        case .sidecar: return nil
        }
    }

    /// True for closed captions carried inside the pictures of a video track (H.264/HEVC SEI,
    /// MPEG-2 user data) rather than in a track of their own. A Playhead addition.
    public var isCarriedInVideo: Bool {
        if case .closedCaptions = source { return true }
        return false
    }

    /// A value identifying the option, for ``AVMediaSelectionGroup/mediaSelectionOption(withPropertyList:)``.
    public func propertyList() -> Any {
        switch source {
        case .stream(let index): return "stream:\(index)"
        case .sidecar(let url): return "sidecar:\(url.absoluteString)"
        case .closedCaptions(let video): return "captions:\(video)"
        }
    }

    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? AVMediaSelectionOption else { return false }
        return other.source == source && other.mediaType == mediaType
    }

    open override var hash: Int { source.hashValue }

    open override var description: String {
        "AVMediaSelectionOption(\(mediaType.rawValue), \(displayName), \(propertyList()))"
    }
}

/// Which subtitle codecs are pictures rather than text.
enum SubtitleCodecs {
    static let bitmapCodecs: Set<String> = [
        "hdmv_pgs_subtitle", "dvb_subtitle", "dvd_subtitle", "xsub", "dvb_teletext",
    ]
    static func isBitmap(_ codec: String) -> Bool { bitmapCodecs.contains(codec) }
}
