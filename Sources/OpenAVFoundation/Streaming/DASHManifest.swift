// Playhead: a DASH manifest (MPD, ISO/IEC 23009-1) read into the model Playhead's HLS
// loader streams: each video Representation becomes a variant whose segments are listed as a
// media playlist's would be (with its initialisation section as the map), each audio
// AdaptationSet an audio rendition whose Representations are versions that follow the video
// variant (AudioTiers.swift). Segment addressing: `SegmentTemplate` with `$Number$` or
// `$Time$` (with a `SegmentTimeline` or a fixed `duration`), `SegmentList`, and `SegmentBase`
// (a single file indexed by its `sidx` box, read once at open); a text AdaptationSet that is
// one WebVTT or TTML file is a subtitle rendition read as a file. Several Periods are joined into
// one timeline (DASHPeriods.swift); a dynamic MPD is read as live playlists (DASHLive.swift).
// What it does not model (content protection, segments other than fragmented MP4) is left
// to libavformat's DASH demuxer. A manifest with sound only adapts over the Representations
// of its default AdaptationSet, the others audio renditions beside it. Which sets and
// Representations are read at all (not trick-mode ones; one video codec) is
// DASHAdaptationSets.swift's choice.
//
// Concurrency: values and pure functions; used on the thread that opens an input.
import FFmpegBridge
import Foundation

/// An MPD (one Period of it, or its Periods joined) as variants and audio renditions; see the
/// file comment.
struct DASHManifest: Equatable, Sendable {
    /// One Representation, its segments as a media playlist.
    struct Representation: Equatable, Sendable {
        let id: String
        let bandwidth: Int
        let width: Int?
        let height: Int?
        let codecs: String?
        var playlist: HLSMediaPlaylist
        /// `frameRate` ("25", "30000/1001"), frames per second, when given.
        var frameRate: Double? = nil
        /// "SDR", "PQ" or "HLG", from the transfer characteristics a property names.
        var videoRange: String? = nil
        /// How many audio channels its `AudioChannelConfiguration` states, when it states one
        /// in a scheme with a count (MPEG-DASH's own, or a CICP channel configuration).
        var channelCount: Int? = nil
        /// The stereo packing and projection it declares, when it declares one it can be told
        /// as (DASHVideoLayout.swift).
        var videoLayout: StreamVideoLayout? = nil
        /// For a `SegmentBase` Representation: the file, its `sidx` box and its initialisation
        /// section, to be read before its segments are known (`resolvingIndexes`).
        var index: IndexedFile? = nil
    }

    /// A single-file Representation addressed by its segment index: a `sidx` box, or a WebM
    /// file's Cues (`isWebM`).
    struct IndexedFile: Equatable, Sendable {
        let url: URL
        let indexRange: Range<Int>
        let initialisation: Range<Int>
        var isWebM = false
    }

    /// One audio AdaptationSet: a language (or a label) and its Representations, ascending by
    /// bandwidth (versions of one sound, which follow the video variant: AudioTiers.swift).
    struct AudioSet: Equatable, Sendable {
        let name: String
        let language: String?
        let isDefault: Bool
        let representations: [Representation]
        /// The highest Representation (what states the set's channels).
        var representation: Representation { representations[representations.count - 1] }

        /// For each of `variants` video variants, ascending, the Representation that plays with
        /// it: the ladders matched by rank, the lowest sound with the lowest picture and the
        /// highest with the highest (and with a single picture), the ones between spread evenly.
        func tiers(forVariants variants: Int) -> [Int] {
            let top = representations.count - 1
            guard variants > 1 else { return Array(repeating: top, count: variants) }
            return (0..<variants).map { Int((Double($0 * top) / Double(variants - 1)).rounded()) }
        }
    }

    /// A text AdaptationSet whose Representation is one WebVTT or TTML file, or segments of
    /// fragmented MP4 holding TTML (`stpp`) or WebVTT (`wvtt`).
    struct TextTrack: Equatable, Sendable {
        /// "webvtt" or "ttml".
        let codecName: String
        let name: String
        let language: String?
        let url: URL
        let isDefault: Bool
        let isForced: Bool
        /// The segments, for a segmented Representation (`url` then only names it, or is the
        /// indexed file).
        var playlist: HLSMediaPlaylist? = nil
        /// A `SegmentBase` Representation's file and index, read when the set is chosen.
        var index: IndexedFile? = nil
    }

    /// The Representations the loader adapts over, ascending by bandwidth: the video ones, or
    /// for a manifest with sound only, those of its one audio AdaptationSet.
    var variants: [Representation]
    /// The audio AdaptationSets in manifest order.
    var audio: [AudioSet]
    /// The text AdaptationSets read as subtitle files (one WebVTT or TTML file each), in
    /// manifest order.
    var subtitles: [TextTrack] = []
    /// For a manifest with sound only in several AdaptationSets: the default one, whose
    /// Representations are the variants (its name and language name their sound); the others
    /// are in `audio`.
    var carriedAudio: AudioSet? = nil
    /// True when the variants are sound (the manifest has no video).
    var isSoundOnly = false
    /// Where its Period starts on the presentation's timeline, seconds (for one Period of
    /// several, before they are joined).
    var periodStart = 0.0

    /// The manifest in `data`, with relative URLs resolved against `base`, its periods joined
    /// (DASHPeriods.swift); nil when it is not an MPD Playhead's loader streams (see the file
    /// comment), or has several periods and `SegmentBase` Representations (whose indexes
    /// must be read first: `periods`, `resolvingIndexes`, `joining`).
    static func parse(_ data: Data, base: URL) -> DASHManifest? {
        periods(data, base: base).flatMap { joining($0) }
    }

    /// One Period's Representations, `length` seconds long, with URLs resolved against
    /// `periodBase` (the Period's own `BaseURL` applied); nil when it holds something the
    /// loader does not model. `available`: for a dynamic MPD, the stretch of the Period whose
    /// segments can be fetched now (DASHLive.swift), `mpd` the manifest it is in (whose
    /// `BaseURL`'s availability time offset counts too).
    static func period(
        _ period: XMLTree, base periodBase: URL, length: Double, available: ClosedRange<Double>? = nil,
        mpd: XMLTree? = nil
    ) -> DASHManifest? {
        var video: [Representation] = []
        var audio: [AudioSet] = []
        var subtitles: [TextTrack] = []
        let sets = period.children("AdaptationSet")
        let ladder = ladderSets(sets) { contentType(of: $0) == "video" }
        for (position, set) in sets.enumerated() where !isLeftOut(set) {
            if set.child("ContentProtection") != nil { return nil }
            let kind = contentType(of: set)
            if kind == "video", !ladder.contains(position) { continue }
            let setBase = baseURL(of: set, under: periodBase)
            if kind == "text",
                let track = textTrack(
                    set, base: setBase, period: period, count: subtitles.count, length: length, available: available,
                    mpd: mpd)
            {
                subtitles.append(track)
            }
            guard kind == "video" || kind == "audio" else { continue }
            var representations: [Representation] = []
            for node in set.children("Representation") where !isLeftOut(node) {
                if node.child("ContentProtection") != nil { return nil }
                guard
                    let representation = Self.representation(
                        node, in: set, period: period, base: baseURL(of: node, under: setBase), length: length,
                        available: available, mpd: mpd)
                else { return nil }
                representations.append(representation)
            }
            guard !representations.isEmpty else { continue }
            // A WebM audio set keeps its highest Representation alone: Vorbis and Opus decoders
            // read their setup once, so a switch between versions mid-play would not decode.
            let mime = set.attributes["mimeType"] ?? set.child("Representation")?.attributes["mimeType"] ?? ""
            if kind == "audio", mime.hasSuffix("/webm"), let top = representations.max(by: { $0.bandwidth < $1.bandwidth }) {
                representations = [top]
            }
            if kind == "video" {
                video += representations
            } else {
                let language = set.attributes["lang"]
                let label = set.child("Label")?.text.trimmingCharacters(in: .whitespacesAndNewlines)
                let main = set.children("Role").contains { $0.attributes["value"] == "main" }
                audio.append(
                    AudioSet(
                        name: label.flatMap { $0.isEmpty ? nil : $0 } ?? language ?? "Audio \(audio.count + 1)",
                        language: language, isDefault: main,
                        representations: representations.sorted { $0.bandwidth < $1.bandwidth }))
            }
        }
        // One default: the set marked main, else the first.
        if !audio.isEmpty, !audio.contains(where: \.isDefault) {
            let first = audio[0]
            audio[0] = AudioSet(
                name: first.name, language: first.language, isDefault: true, representations: first.representations)
        }
        // Sound only: the default audio set's Representations are the variants, the other sets
        // renditions beside them.
        if video.isEmpty, let main = audio.firstIndex(where: \.isDefault) {
            var others = audio
            let carried = others.remove(at: main)
            return DASHManifest(
                variants: carried.representations, audio: others, subtitles: subtitles,
                carriedAudio: others.isEmpty ? nil : carried, isSoundOnly: true)
        }
        guard !video.isEmpty else { return nil }
        return DASHManifest(variants: video.sorted { $0.bandwidth < $1.bandwidth }, audio: audio, subtitles: subtitles)
    }

    /// A text AdaptationSet as a subtitle rendition: its first Representation, when that is
    /// one WebVTT or TTML file named by a `BaseURL` (no segment addressing), or segments of
    /// fragmented MP4 holding TTML or WebVTT (in a live manifest, those of `available`, as
    /// the video's); nil otherwise.
    private static func textTrack(
        _ set: XMLTree, base: URL, period: XMLTree, count: Int, length: Double, available: ClosedRange<Double>?,
        mpd: XMLTree?
    ) -> TextTrack? {
        guard let node = set.child("Representation") else { return nil }
        let mime = node.attributes["mimeType"] ?? set.attributes["mimeType"] ?? ""
        let codecs = node.attributes["codecs"] ?? set.attributes["codecs"] ?? ""
        let codecName: String
        var playlist: HLSMediaPlaylist?
        var index: IndexedFile?
        if let named = textCodecs[mime], node.child("BaseURL") != nil || set.child("BaseURL") != nil,
            [node, set, period].allSatisfy({ level in
                ["SegmentTemplate", "SegmentList", "SegmentBase"].allSatisfy { level.child($0) == nil }
            })
        {
            codecName = named
        } else if mime == "application/mp4", codecs.hasPrefix("stpp") || codecs.hasPrefix("wvtt"),
            let segmented = representation(
                node, in: set, period: period, base: baseURL(of: node, under: base), length: length, available: available,
                mpd: mpd),
            !segmented.playlist.segments.isEmpty || segmented.index != nil || available != nil
        {
            codecName = codecs.hasPrefix("stpp") ? "ttml" : "webvtt"
            // An indexed file's segments are read from its index when the set is chosen.
            playlist = segmented.index == nil ? segmented.playlist : nil
            index = segmented.index
        } else {
            return nil
        }
        let language = set.attributes["lang"]
        let label = set.child("Label")?.text.trimmingCharacters(in: .whitespacesAndNewlines)
        let roles = set.children("Role").compactMap { $0.attributes["value"] }
        return TextTrack(
            codecName: codecName, name: label.flatMap { $0.isEmpty ? nil : $0 } ?? language ?? "Subtitles \(count + 1)", language: language,
            url: playlist?.segments.first?.url ?? baseURL(of: node, under: base), isDefault: roles.contains("main"),
            isForced: roles.contains("forced-subtitle"), playlist: playlist, index: index)
    }

    /// The MIME types of whole-file text Representations, and the codec each is.
    private static let textCodecs = ["text/vtt": "webvtt", "application/ttml+xml": "ttml"]

    /// "video", "audio" or "text" from `contentType`, else from the MIME type of the set or of
    /// its first Representation.
    private static func contentType(of set: XMLTree) -> String? {
        if let type = set.attributes["contentType"] { return type }
        let first = set.child("Representation")
        let mime = set.attributes["mimeType"] ?? first?.attributes["mimeType"]
        // TTML files, and MP4 segments of TTML or WebVTT, are text of an "application" type.
        let codecs = set.attributes["codecs"] ?? first?.attributes["codecs"] ?? ""
        if mime == "application/ttml+xml" || (mime == "application/mp4" && (codecs.hasPrefix("stpp") || codecs.hasPrefix("wvtt"))) {
            return "text"
        }
        return mime?.split(separator: "/").first.map(String.init)
    }

    /// `node`'s `BaseURL` resolved against `base`, or `base` when it has none.
    static func baseURL(of node: XMLTree, under base: URL) -> URL {
        guard let text = node.child("BaseURL")?.text.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty,
            let url = URL(string: text, relativeTo: base)?.absoluteURL
        else { return base }
        return url
    }

    private static func representation(
        _ node: XMLTree, in set: XMLTree, period: XMLTree, base: URL, length: Double, available: ClosedRange<Double>?,
        mpd: XMLTree?
    ) -> Representation? {
        guard let id = node.attributes["id"], let bandwidth = node.attributes["bandwidth"].flatMap(Int.init) else {
            return nil
        }
        // Fragmented MP4 and WebM (MPEG-TS Representations go to libavformat).
        if let mime = node.attributes["mimeType"] ?? set.attributes["mimeType"], !mime.hasSuffix("/mp4") && !mime.hasSuffix("/webm") { return nil }
        let segments: [HLSSegment]?
        var index: IndexedFile?
        if let template = merged("SegmentTemplate", node, set, period) {
            // Live, the offsets of every level's BaseURL and of the template.
            let offset = availabilityTimeOffset(baseLevels: [mpd, period, set, node].compactMap { $0 }, template: template)
            segments = DASHSegments.fromTemplate(
                template, representation: id, bandwidth: bandwidth, base: base, length: length,
                available: available.map { earlier($0, by: offset, length: length) })
        } else if available != nil {
            // Live segments are addressed by templates only here.
            segments = nil
        } else if let list = merged("SegmentList", node, set, period) {
            segments = DASHSegments.fromList(list, base: base, length: length)
        } else if let segmentBase = merged("SegmentBase", node, set, period),
            let indexRange = segmentBase.attributes["indexRange"].flatMap(DASHSegments.byteRange)
        {
            // The initialisation section is named, or is everything before the index (a WebM
            // file's Cues may follow its clusters: it names its section).
            let isWebM = (node.attributes["mimeType"] ?? set.attributes["mimeType"] ?? "").hasSuffix("/webm")
            let named = segmentBase.child("Initialization")?.attributes["range"].flatMap(DASHSegments.byteRange)
            guard let initialisation = named ?? (isWebM ? nil : 0..<indexRange.lowerBound) else { return nil }
            index = IndexedFile(url: base, indexRange: indexRange, initialisation: initialisation, isWebM: isWebM)
            segments = []
        } else {
            segments = nil
        }
        guard let segments, !segments.isEmpty || index != nil || available != nil else { return nil }
        let codecs = node.attributes["codecs"] ?? set.attributes["codecs"]
        return Representation(
            id: id, bandwidth: bandwidth,
            width: (node.attributes["width"] ?? set.attributes["width"]).flatMap(Int.init),
            height: (node.attributes["height"] ?? set.attributes["height"]).flatMap(Int.init),
            codecs: codecs, playlist: Self.playlist(segments),
            frameRate: (node.attributes["frameRate"] ?? set.attributes["frameRate"]).flatMap(Self.frameRate),
            videoRange: videoRange(of: node, in: set), channelCount: channelCount(of: node, in: set),
            videoLayout: videoLayout(of: node, in: set), index: index)
    }

    /// The channel count a Representation's (or its AdaptationSet's) `AudioChannelConfiguration`
    /// states: a plain count (ISO/IEC 23009-1's scheme), or a CICP ChannelConfiguration index
    /// (ISO/IEC 23001-8) turned into its count. Dolby's channel masks are not read.
    private static func channelCount(of node: XMLTree, in set: XMLTree) -> Int? {
        let configurations = node.children("AudioChannelConfiguration") + set.children("AudioChannelConfiguration")
        for configuration in configurations {
            guard let value = configuration.attributes["value"].flatMap(Int.init), value > 0 else { continue }
            switch configuration.attributes["schemeIdUri"] {
            case "urn:mpeg:dash:23003:3:audio_channel_configuration:2011": return value
            case "urn:mpeg:mpegB:cicp:ChannelConfiguration":
                if let count = cicpChannelCounts[value] { return count }
            default: continue
            }
        }
        return nil
    }

    /// Channels per CICP ChannelConfiguration index (ISO/IEC 23001-8, table 8).
    private static let cicpChannelCounts: [Int: Int] = [
        1: 1, 2: 2, 3: 3, 4: 4, 5: 5, 6: 6, 7: 8, 9: 3, 10: 4, 11: 7, 12: 8, 13: 24, 14: 8, 15: 12, 16: 10, 17: 12,
        18: 14, 19: 12, 20: 14,
    ]

    /// A `frameRate` attribute ("25", "30000/1001") in frames per second.
    static func frameRate(_ text: String) -> Double? {
        let parts = text.split(separator: "/").map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard let numerator = parts.first ?? nil, numerator > 0, parts.count <= 2 else { return nil }
        guard parts.count == 2 else { return numerator }
        guard let denominator = parts[1], denominator > 0 else { return nil }
        return numerator / denominator
    }

    /// The video range a Representation (or its AdaptationSet) states through the CICP
    /// transfer characteristics property: 16 is PQ, 18 HLG, the SDR transfers SDR.
    private static func videoRange(of node: XMLTree, in set: XMLTree) -> String? {
        let properties = [node, set].flatMap { $0.children("EssentialProperty") + $0.children("SupplementalProperty") }
        guard
            let transfer = properties.first(where: {
                $0.attributes["schemeIdUri"] == "urn:mpeg:mpegB:cicp:TransferCharacteristics"
            })?.attributes["value"].flatMap(Int.init)
        else { return nil }
        switch transfer {
        case 16: return "PQ"
        case 18: return "HLG"
        case 1, 6, 13, 14, 15: return "SDR"
        default: return nil
        }
    }

    /// `segments` as a VOD media playlist.
    static func playlist(_ segments: [HLSSegment]) -> HLSMediaPlaylist {
        HLSMediaPlaylist(
            targetDuration: (segments.map(\.duration).max() ?? 1).rounded(.up), segments: segments, isEnded: true,
            isEncrypted: false, initialisation: segments.first?.map?.url, mediaSequence: segments.first?.sequence ?? 0)
    }

    /// The segments of an indexed file, from its `sidx` box or WebM Cues (`data`, read from
    /// the index range; a WebM file's Cues need its initialisation section, `initialisation`);
    /// the further `sidx` boxes a hierarchy names are read with `readRange` (bytes of the
    /// file). Nil when the index cannot be read.
    static func indexedPlaylist(
        _ index: IndexedFile, sidx data: Data, initialisation: Data? = nil, readRange: (Range<Int>) -> Data? = { _ in nil }
    ) -> HLSMediaPlaylist? {
        let references: [SegmentIndexBox.Reference]
        if index.isWebM {
            guard let initialisation,
                let cues = WebMCues(initialisation: initialisation, cues: data, cuesOffset: index.indexRange.lowerBound)
            else { return nil }
            references = cues.references
        } else {
            guard let box = SegmentIndexBox(data, offset: index.indexRange.lowerBound),
                let subsegments = box.subsegments(reading: readRange), !subsegments.isEmpty
            else { return nil }
            references = subsegments
        }
        let map = HLSMap(url: index.url, byteRange: index.initialisation.isEmpty ? nil : index.initialisation)
        let origin = references[0].start
        return playlist(
            references.enumerated().map { number, reference in
                var segment = HLSSegment(
                    url: index.url, sequence: number + 1, start: reference.start - origin,
                    duration: reference.duration, byteRange: reference.bytes, discontinuity: false, map: map)
                segment.mediaStart = reference.start
                return segment
            })
    }

    /// The manifest with every video and audio `SegmentBase` Representation's segments read
    /// from its `sidx` box (or WebM Cues, with the initialisation section), which `fetch`
    /// reads (the bytes of a range of a URL); nil when one cannot be read. A text set's index is read only when the set is chosen (by
    /// `HLSSubtitleReader`), so an unreachable one never holds up the open.
    func resolvingIndexes(_ fetch: (URL, Range<Int>) -> Data?) -> DASHManifest? {
        func resolved(_ representation: Representation) -> Representation? {
            guard let index = representation.index else { return representation }
            let initialisation = index.isWebM ? fetch(index.url, index.initialisation) : nil
            guard let data = fetch(index.url, index.indexRange),
                let read = Self.indexedPlaylist(index, sidx: data, initialisation: initialisation, readRange: { fetch(index.url, $0) })
            else { return nil }
            var copy = representation
            copy.playlist = read
            copy.index = nil
            return copy
        }
        var video: [Representation] = []
        for representation in variants {
            guard let done = resolved(representation) else { return nil }
            video.append(done)
        }
        var audio: [AudioSet] = []
        for set in self.audio {
            var done: [Representation] = []
            for representation in set.representations {
                guard let one = resolved(representation) else { return nil }
                done.append(one)
            }
            audio.append(AudioSet(name: set.name, language: set.language, isDefault: set.isDefault, representations: done))
        }
        var copy = self
        copy.variants = video
        copy.audio = audio
        return copy
    }

    /// The `name` element that applies to a Representation: its own, over its AdaptationSet's,
    /// over its Period's (attributes of the nearer one win; children come from the nearest
    /// level that has any).
    private static func merged(_ name: String, _ levels: XMLTree...) -> XMLTree? {
        let found = levels.compactMap { $0.child(name) }
        guard let nearest = found.first else { return nil }
        var attributes: [String: String] = [:]
        for element in found.reversed() { attributes.merge(element.attributes) { $1 } }
        let children = found.first { !$0.children.isEmpty }?.children ?? nearest.children
        return XMLTree(name: name, attributes: attributes, children: children)
    }

    /// An ISO 8601 duration as MPDs write them (`PT1H2M3.5S`, `P1DT2H`), in seconds.
    static func isoDuration(_ text: String) -> Double? {
        guard text.hasPrefix("P") else { return nil }
        var seconds = 0.0
        var number = ""
        var inTime = false
        for character in text.dropFirst() {
            if character == "T" {
                inTime = true
            } else if character.isNumber || character == "." {
                number.append(character)
            } else {
                guard let value = Double(number) else { return nil }
                switch (character, inTime) {
                case ("D", false): seconds += value * 86_400
                case ("H", true): seconds += value * 3_600
                case ("M", true): seconds += value * 60
                case ("S", true): seconds += value
                default: return nil
                }
                number = ""
            }
        }
        return number.isEmpty ? seconds : nil
    }
}
