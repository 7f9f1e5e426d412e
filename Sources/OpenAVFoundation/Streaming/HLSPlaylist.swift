// Playhead: HLS playlists (RFC 8216) as values: a multivariant playlist's variants and a media
// playlist's segments on one timeline, parsed from text.
//
// Concurrency: value types and a pure parser; used by the HLS loader's threads.
import FFmpegBridge
import Foundation

/// One `EXT-X-STREAM-INF` entry of a multivariant playlist.
struct HLSVariant: Equatable, Sendable {
    /// The variant's media playlist.
    var url: URL
    /// `BANDWIDTH`: the peak bit rate, bits per second.
    let bandwidth: Int
    /// `AVERAGE-BANDWIDTH`, when given.
    let averageBandwidth: Int?
    /// `RESOLUTION` as width and height, when given.
    let width: Int?
    let height: Int?
    /// `CODECS`, when given.
    let codecs: String?
    /// `AUDIO` and `SUBTITLES` rendition groups, when given.
    var audioGroup: String?
    var subtitleGroup: String?
    /// `FRAME-RATE`, frames per second, when given.
    var frameRate: Double? = nil
    /// `VIDEO-RANGE` ("SDR", "PQ", "HLG"), when given.
    var videoRange: String? = nil
    /// `REQ-VIDEO-LAYOUT`'s layouts, most preferred first; empty when not given.
    var videoLayouts: [StreamVideoLayout] = []
    /// The channels of the audio renditions it plays with, where stated (set by whoever
    /// streams it: the renditions are the multivariant playlist's).
    var audioRenditions: [StreamAudioRendition] = []
    /// Redundant copies of its media playlist, in the order listed: variants the multivariant
    /// playlist lists again with the same attributes and another URI (backup streams on
    /// other servers), taken over when this one fails; with content steering, its copies on
    /// the other pathways too (HLSPathways.swift).
    var backups: [URL] = []
    /// `PATHWAY-ID`: the content steering pathway it belongs to ("." when not given), and that
    /// of each backup.
    var pathway = HLSSteeringTag.defaultPathway
    var backupPathways: [String] = []
    /// `STABLE-VARIANT-ID` (an audio rendition's `STABLE-RENDITION-ID`), which a steering
    /// server's pathway clone may name, when given.
    var stableID: String?

    /// A media playlist played on its own, as the one variant of a stream that states no rate
    /// (`bandwidth` 0: the access log's indicated bit rate reads -1, unknown).
    static func unlisted(_ url: URL) -> HLSVariant {
        HLSVariant(
            url: url, bandwidth: 0, averageBandwidth: nil, width: nil, height: nil, codecs: nil, audioGroup: nil,
            subtitleGroup: nil)
    }
}

/// One `EXT-X-MEDIA:TYPE=AUDIO` entry: a sound track the variants of its group can play with.
struct HLSAudioRendition: Equatable, Sendable {
    /// `GROUP-ID`: the variants naming it in their `AUDIO` attribute play with this group.
    let group: String
    /// `NAME`: what a menu shows.
    let name: String
    /// `LANGUAGE` (a BCP 47 tag), when given.
    let language: String?
    /// `URI`: the rendition's media playlist; nil when the variants' own bytes carry it.
    let url: URL?
    /// `DEFAULT=YES`.
    let isDefault: Bool
    /// `AUTOSELECT=YES`.
    let autoselect: Bool
    /// `CHANNELS` ("2", "6", "16/JOC", "2/-/BINAURAL"), when given.
    var channels: String? = nil
    /// With content steering: the same rendition on the other pathways (HLSPathways.swift),
    /// and its `STABLE-RENDITION-ID`, when given.
    var backups: [URL] = []
    var backupPathways: [String] = []
    var stableID: String?

    /// The channels `CHANNELS` states: its first parameter is the count, its third (after a
    /// spatial one, "-" for none) the special uses; nil without a count.
    var channelLayout: StreamAudioRendition? {
        let parameters = (channels ?? "").split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard let count = parameters.first.flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) }), count > 0 else {
            return nil
        }
        let uses = parameters.count > 2 ? Set(parameters[2].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }) : []
        return StreamAudioRendition(
            name: name, channelCount: count, isBinaural: uses.contains("BINAURAL"), isImmersive: uses.contains("IMMERSIVE"),
            isDownmix: uses.contains("DOWNMIX"))
    }
}

/// A multivariant ("master") playlist.
struct HLSMultivariantPlaylist: Equatable, Sendable {
    /// The variants, in playlist order.
    var variants: [HLSVariant]
    /// The `TYPE`s of the alternate renditions it lists (`EXT-X-MEDIA`): AUDIO, VIDEO,
    /// SUBTITLES, CLOSED-CAPTIONS.
    let renditionTypes: Set<String>
    /// The audio renditions, in playlist order.
    var audioRenditions: [HLSAudioRendition] = []
    /// `EXT-X-START`, when given (a media playlist's own takes precedence).
    var startPoint: HLSStartPoint?
    /// The variables it defines (`EXT-X-DEFINE`): what its media playlists may import.
    var definitions: [String: String] = [:]
    /// `EXT-X-CONTENT-STEERING`, when given.
    var steering: HLSSteeringTag?
    /// The I-frame playlists (`EXT-X-I-FRAME-STREAM-INF`), in playlist order.
    var iFrameVariants: [HLSIFrameVariant] = []
    /// The DRM system an `EXT-X-SESSION-KEY` names (`HLSKey.drmSystem(of:)`), when one does.
    var drmSystem: String?

    /// The audio renditions Playhead's loader streams beside the variants, with the variants it
    /// adapts over. When every variant names one group, that group and every variant. When the
    /// variants are listed once per group (one group per audio codec, as Apple's authoring
    /// rules ask: each variant's playlist appears with AAC and again with AC-3, say), the first
    /// group the variants name whose variants carry every variant playlist, with those
    /// variants. Each rendition of the group has a playlist of its own, or is sound the
    /// variants carry in their own bytes (no URI; several such are their several audio
    /// streams). Empty renditions when the playlist has none; nil when it has some the loader
    /// cannot stream that way (tiered groups, where low and high variants name different
    /// groups; variants naming no group beside variants naming one), or video renditions.
    var streamedAudio: (renditions: [HLSAudioRendition], variants: [HLSVariant])? {
        guard !renditionTypes.contains("VIDEO") else { return nil }
        guard !audioRenditions.isEmpty else { return ([], variants) }
        let playlists = Set(variants.map(\.url))
        var tried = Set<String>()
        for case let group? in variants.map(\.audioGroup) where tried.insert(group).inserted {
            let members = audioRenditions.filter { $0.group == group }
            let grouped = variants.filter { $0.audioGroup == group }
            guard !members.isEmpty, Set(grouped.map(\.url)) == playlists
            else { continue }
            return (members, grouped)
        }
        return nil
    }

    /// The audio renditions of ``streamedAudio``: what the loader streams beside the variants.
    var separateAudio: [HLSAudioRendition]? { streamedAudio?.renditions }

    /// True when the playlist lists alternate renditions.
    var hasRenditions: Bool { !renditionTypes.isEmpty }

    /// True when some rendition carries sound or pictures of its own, which the variants'
    /// bytes alone do not give (subtitle playlists and captions are read apart from them).
    var hasMediaRenditions: Bool { !renditionTypes.isSubset(of: ["SUBTITLES", "CLOSED-CAPTIONS"]) }
}

/// How a segment is encrypted (`EXT-X-KEY:METHOD=AES-128`).
struct HLSKey: Hashable, Sendable {
    /// Where the 16-byte key is.
    let url: URL
    /// The initialisation vector; nil: the segment's media sequence number, big-endian.
    let iv: Data?

    /// The IV for the segment with media sequence number `sequence`.
    func iv(forSequence sequence: Int) -> Data {
        if let iv { return iv }
        var bytes = [UInt8](repeating: 0, count: 16)
        var value = UInt64(max(0, sequence))
        for index in stride(from: 15, through: 8, by: -1) {
            bytes[index] = UInt8(value & 0xff)
            value >>= 8
        }
        return Data(bytes)
    }

    /// The DRM system a key tag's `attributes` name: its `KEYFORMAT` when that is not
    /// "identity" (a key a player fetches and uses as is), or the method for SAMPLE-AES-CTR
    /// (which only DRM systems use); nil for no encryption or a plain key. FairPlay
    /// ("com.apple.streamingkeydelivery"), Widevine and PlayReady keys come from their
    /// systems' license servers, which Playhead does not speak to.
    static func drmSystem(of attributes: [String: String]) -> String? {
        guard let method = attributes["METHOD"], method != "NONE" else { return nil }
        if let format = attributes["KEYFORMAT"], format != "identity" { return format }
        return method == "SAMPLE-AES-CTR" ? method : nil
    }

    /// `0x`-prefixed hex as 16 bytes; nil when it is not that.
    static func ivBytes(_ text: String) -> Data? {
        guard text.lowercased().hasPrefix("0x") else { return nil }
        let digits = Array(text.dropFirst(2))
        guard digits.count == 32 else { return nil }
        var bytes: [UInt8] = []
        for index in stride(from: 0, to: 32, by: 2) {
            guard let byte = UInt8(String(digits[index...index + 1]), radix: 16) else { return nil }
            bytes.append(byte)
        }
        return Data(bytes)
    }
}

/// An `EXT-X-MAP` initialisation section (a fragmented MP4 `ftyp`+`moov`), which the media
/// segments after it need before their first byte.
struct HLSMap: Hashable, Sendable {
    var url: URL
    /// `BYTERANGE` as the bytes to read, when the section is a range of its resource.
    let byteRange: Range<Int>?
    /// The AES-128 key of the `EXT-X-KEY` before the `EXT-X-MAP`, which encrypts the section
    /// too (RFC 8216 §4.3.2.4); nil when it is clear.
    var key: HLSKey? = nil

    /// The IV the section is encrypted with: the key's `IV`, which the RFC requires for an
    /// encrypted section; without one, zero (a section has no media sequence number).
    var iv: Data? { key.map { $0.iv ?? Data(count: 16) } }
}

/// One media segment of a media playlist.
struct HLSSegment: Equatable, Sendable {
    var url: URL
    /// The media sequence number.
    let sequence: Int
    /// Where the segment starts on the playlist's timeline (the sum of the EXTINFs before it), seconds.
    let start: Double
    /// `EXTINF`, seconds.
    let duration: Double
    /// `EXT-X-BYTERANGE` as the bytes to read, when the segment is a range of its resource.
    let byteRange: Range<Int>?
    /// True when `EXT-X-DISCONTINUITY` comes before it.
    let discontinuity: Bool
    /// The discontinuity sequence number it belongs to (`EXT-X-DISCONTINUITY-SEQUENCE` plus the
    /// discontinuities before it in the playlist): segments with the same number share one
    /// run of continuous timestamps.
    var discontinuitySequence = 0
    /// The initialisation section it needs (the last `EXT-X-MAP` before it), when there is one.
    var map: HLSMap? = nil
    /// Its AES-128 key, when it is encrypted with one.
    var key: HLSKey? = nil
    /// The wall-clock date of its first sample: its own `EXT-X-PROGRAM-DATE-TIME`, or the last
    /// one before it carried on by the durations between (nil before any).
    var programDate: Date? = nil
    /// True when `EXT-X-GAP` marks it: its URI holds no media and is never requested.
    var isGap = false
    /// For a DASH segment: its presentation time in the container's timestamps, seconds (an
    /// HLS playlist does not say).
    var mediaStart: Double? = nil
    /// For a segment of a DASH Period another follows: where its Period ends on the timeline;
    /// what it holds from there on is decoded but not shown.
    var sectionEnd: Double? = nil
}

/// A media playlist.
struct HLSMediaPlaylist: Equatable, Sendable {
    /// `EXT-X-TARGETDURATION`, seconds.
    let targetDuration: Double
    /// The segments in order.
    var segments: [HLSSegment]
    /// True when `EXT-X-ENDLIST` closes it (no more segments will come).
    let isEnded: Bool
    /// True when a segment is encrypted (`EXT-X-KEY` with a method other than NONE).
    let isEncrypted: Bool
    /// True when a segment is encrypted other than with AES-128 (SAMPLE-AES, an unknown method
    /// or a key without a URI), which Playhead's loader cannot decrypt.
    var hasUnsupportedKey = false
    /// The first `EXT-X-MAP` initialisation section (fragmented MP4), when one is named.
    var initialisation: URL?
    /// `EXT-X-MEDIA-SEQUENCE`: the sequence number of the first segment.
    var mediaSequence = 0
    /// `EXT-X-I-FRAMES-ONLY`: each segment is one keyframe (a byte range of a media segment),
    /// lasting until the next.
    var isIFramesOnly = false
    /// The DRM system whose key a segment needs (`HLSKey.drmSystem(of:)`), when one does.
    var drmSystem: String?
    /// `EXT-X-START`, when given.
    var startPoint: HLSStartPoint?
    /// The `EXT-X-DATERANGE` tags, in order.
    var dateRanges: [HLSDateRange] = []
    /// How far behind a live window's end playback should stay, seconds, when the server says:
    /// `EXT-X-SERVER-CONTROL` HOLD-BACK (a DASH manifest's `suggestedPresentationDelay`).
    var holdBack: Double?
    /// Where later reloads read the playlist, when the server moved it: a live DASH manifest's
    /// `Location` (HLS has no such thing).
    var relocation: URL?

    /// The sum of the segments' durations.
    var duration: Double { segments.last.map { $0.start + $0.duration } ?? 0 }

    /// The extension every segment's name has when the playlist is packed audio (raw AAC,
    /// MP3, AC-3 or E-AC-3 frames, no initialisation section): "aac", "mp3", "ac3" or "ec3".
    var packedAudioExtension: String? {
        guard initialisation == nil, let first = segments.first?.url.pathExtension.lowercased(),
            Self.packedAudioExtensions.contains(first),
            segments.allSatisfy({ $0.map == nil && $0.url.pathExtension.lowercased() == first })
        else { return nil }
        return first
    }

    /// Segment name extensions of packed audio.
    static let packedAudioExtensions: Set<String> = ["aac", "mp3", "ac3", "ec3"]

    /// The index of the segment holding `seconds` (the last one for times past the end).
    func segmentIndex(at seconds: Double) -> Int? {
        guard !segments.isEmpty else { return nil }
        return segments.lastIndex { $0.start <= seconds + 1e-6 } ?? 0
    }
}

/// A parsed playlist of either kind.
enum HLSPlaylist: Equatable, Sendable {
    case multivariant(HLSMultivariantPlaylist)
    case media(HLSMediaPlaylist)

    /// Why a text is not a playlist Playhead can read.
    enum ParseError: Error, Equatable {
        case notAPlaylist
        case badURI(String)
        /// Its variables (`EXT-X-DEFINE`) cannot be resolved.
        case variables(HLSVariables.Failure)
    }

    /// Parses `text`, resolving URIs against `base` (the URL it was read from, whose query a
    /// `QUERYPARAM` variable reads) after replacing its variable references; `imports` are
    /// the variables of the multivariant playlist that listed a media playlist.
    static func parse(_ text: String, base: URL, imports: [String: String] = [:]) throws(ParseError) -> HLSPlaylist {
        let resolved: HLSVariables
        do throws(HLSVariables.Failure) { resolved = try HLSVariables(text, url: base, imports: imports) } catch {
            throw .variables(error)
        }
        return try parse(resolved, base: base)
    }

    /// Parses a playlist whose variables are already resolved (`resolved`, read from `base`).
    static func parse(_ resolved: HLSVariables, base: URL) throws(ParseError) -> HLSPlaylist {
        let lines = resolved.text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
        guard lines.first?.hasPrefix("#EXTM3U") == true else { throw .notAPlaylist }
        if lines.contains(where: { $0.hasPrefix("#EXT-X-STREAM-INF:") }) {
            var master = try parseMultivariant(lines, base: base)
            master.definitions = resolved.definitions
            return .multivariant(master)
        }
        return .media(try parseMedia(lines, base: base))
    }

    /// The largest offset or length a byte range may have (256 TiB): a hostile playlist's
    /// numbers never overflow the arithmetic done with them.
    static let maximumByteOffset = 1 << 48

    /// `length` bytes from `offset`; nil when either is negative or beyond
    /// `maximumByteOffset`.
    static func byteRange(length: Int, offset: Int) -> Range<Int>? {
        guard length >= 0, offset >= 0, length <= maximumByteOffset, offset <= maximumByteOffset else { return nil }
        return offset..<(offset + length)
    }

    /// `uri` against `base`. A URI that does not parse (a ':' after characters no scheme may
    /// hold, as in `subfile,,start,0,,:/etc/passwd`) is a relative path, as browsers and hls.js
    /// read it: fetched from the playlist's server, never a local file.
    static func resolve(_ uri: String, _ base: URL) throws(ParseError) -> URL {
        if let url = URL(string: uri, relativeTo: base)?.absoluteURL { return url }
        let path = uri.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? uri
        guard let url = URL(string: "./" + path, relativeTo: base)?.absoluteURL else { throw .badURI(uri) }
        return url
    }

    private static func parseMultivariant(_ lines: [String], base: URL) throws(ParseError) -> HLSMultivariantPlaylist {
        var variants: [HLSVariant] = []
        var pending: [String: String]?
        var renditionTypes: Set<String> = []
        var audio: [HLSAudioRendition] = []
        var subtitles: [HLSRenditionName] = []
        var startPoint: HLSStartPoint?
        var steering: HLSSteeringTag?
        var iFrames: [HLSIFrameVariant] = []
        var drmSystem: String?
        for line in lines where !line.isEmpty {
            if let value = line.value(of: "#EXT-X-START:") {
                startPoint = HLSStartPoint(attributes: attributes(Substring(value)))
            } else if let value = line.value(of: "#EXT-X-SESSION-KEY:") {
                drmSystem = drmSystem ?? HLSKey.drmSystem(of: attributes(Substring(value)))
            } else if let value = line.value(of: "#EXT-X-I-FRAME-STREAM-INF:") {
                if let variant = try HLSIFrameVariant(attributes: attributes(Substring(value)), base: base) {
                    iFrames.append(variant)
                }
            } else if let value = line.value(of: "#EXT-X-CONTENT-STEERING:") {
                steering = try HLSSteeringTag(attributes: attributes(Substring(value)), base: base)
            } else if line.hasPrefix("#EXT-X-STREAM-INF:") {
                pending = attributes(line.dropFirst("#EXT-X-STREAM-INF:".count))
            } else if line.hasPrefix("#EXT-X-MEDIA:") {
                let media = attributes(line.dropFirst("#EXT-X-MEDIA:".count))
                renditionTypes.insert(media["TYPE"] ?? "")
                if media["TYPE"] == "SUBTITLES", let group = media["GROUP-ID"] {
                    subtitles.append(
                        HLSRenditionName(
                            group: group, name: media["NAME"] ?? group, language: media["LANGUAGE"],
                            hasURI: media["URI"] != nil, isForced: media["FORCED"] == "YES",
                            characteristics: media["CHARACTERISTICS"]))
                }
                if media["TYPE"] == "AUDIO", let group = media["GROUP-ID"] {
                    var url: URL?
                    if let uri = media["URI"] { url = try resolve(uri, base) }
                    audio.append(
                        HLSAudioRendition(
                            group: group, name: media["NAME"] ?? group, language: media["LANGUAGE"],
                            url: url,
                            isDefault: media["DEFAULT"] == "YES", autoselect: media["AUTOSELECT"] == "YES",
                            channels: media["CHANNELS"], stableID: media["STABLE-RENDITION-ID"]))
                }
            } else if !line.hasPrefix("#"), let attributes = pending {
                pending = nil
                let size = attributes["RESOLUTION"]?.split(separator: "x").compactMap { Int($0) }
                variants.append(
                    HLSVariant(
                        url: try resolve(line, base), bandwidth: attributes["BANDWIDTH"].flatMap { Int($0) } ?? 0,
                        averageBandwidth: attributes["AVERAGE-BANDWIDTH"].flatMap { Int($0) },
                        width: size?.count == 2 ? size?[0] : nil, height: size?.count == 2 ? size?[1] : nil,
                        codecs: attributes["CODECS"], audioGroup: attributes["AUDIO"],
                        subtitleGroup: attributes["SUBTITLES"],
                        frameRate: attributes["FRAME-RATE"].flatMap(Double.init).flatMap { $0 > 0 ? $0 : nil },
                        videoRange: attributes["VIDEO-RANGE"],
                        videoLayouts: attributes["REQ-VIDEO-LAYOUT"].map(StreamVideoLayout.layouts(requiredBy:)) ?? [],
                        pathway: attributes["PATHWAY-ID"] ?? HLSSteeringTag.defaultPathway,
                        stableID: attributes["STABLE-VARIANT-ID"]))
            }
        }
        // A variant listed again with the same attributes is a backup of the first (redundant
        // streams, HLSRedundantStreams.swift).
        (variants, audio) = HLSRedundantStreams.merged(variants, audio: audio, subtitles: subtitles)
        var master = HLSMultivariantPlaylist(
            variants: variants, renditionTypes: renditionTypes, audioRenditions: audio, startPoint: startPoint,
            steering: steering)
        master.iFrameVariants = iFrames
        master.drmSystem = drmSystem
        return master
    }
}

extension String {
    /// The text after the playlist tag `tag` when the line starts with it (HLS parsing).
    func value(of tag: String) -> String? {
        hasPrefix(tag) ? String(dropFirst(tag.count)) : nil
    }
}
