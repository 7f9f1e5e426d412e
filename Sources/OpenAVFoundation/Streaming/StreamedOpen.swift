// Playhead: deciding, before a network input is opened, whether Playhead's own HLS loader
// streams it: a multivariant playlist (with subtitle and closed caption renditions, and audio
// renditions of one group that every variant names, or of the first group of a playlist that
// lists its variants once per audio group, each with a playlist of its own, streamed by
// loaders of their own beside the variants', but those that are the variants' own sound; or
// renditions of tiered groups, each one's version following the variant, AudioTiers.swift),
// or a media playlist on its own, VOD or live, of MPEG-TS segments or fragmented MP4 segments
// with `EXT-X-MAP` initialisation sections (clear or AES-128), discontinuities included; a
// playlist listed on several content steering pathways plays the one its steering server
// ranks first (`StreamedOpen+Steering.swift`).
// Packed audio (raw AAC, MP3, AC-3 or E-AC-3 segments, each led by an ID3 tag) too, the
// segments' frames read by libavformat's raw demuxers and timed by the playlist. Everything
// else (SAMPLE-AES, video renditions) is still read by libavformat. A static DASH manifest goes through
// the same loader (`StreamedOpen+DASH.swift`).
//
// Concurrency: runs on the thread that opens the input (an inspection or an engine's open
// work), blocking it on the network; `interrupt.abort()` from any thread stops it.
import FFmpegBridge
import Foundation

enum StreamedOpen {
    /// Names of segments that are not MPEG-TS (fragmented MP4, packed audio, subtitles): without
    /// an `EXT-X-MAP` the loader does not stream them.
    private static let otherSegmentExtensions = ["m4s", "mp4", "m4v", "m4a", "cmfv", "cmfa", "aac", "mp3", "ac3", "ec3", "vtt", "webvtt"]

    /// True for an http(s) segment whose name says it is not MPEG-TS (other schemes are
    /// refused segment by segment while playing).
    private static func notTransportStream(_ url: URL) -> Bool {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else { return false }
        return otherSegmentExtensions.contains(url.pathExtension.lowercased())
    }

    /// True when the loader can stream `playlist`'s segments: clear or AES-128, MPEG-TS or with
    /// an initialisation section.
    private static func streamable(_ playlist: HLSMediaPlaylist) -> Bool {
        !playlist.hasUnsupportedKey && !playlist.segments.isEmpty
            && (playlist.packedAudioExtension != nil
                || !playlist.segments.contains(where: { $0.map == nil && notTransportStream($0.url) }))
    }

    /// An opened input and what its playlists said about it.
    struct Opened: @unchecked Sendable {
        let demuxer: Demuxer
        /// The wall-clock dates of an HLS stream's timeline (`EXT-X-PROGRAM-DATE-TIME`).
        var programDates: ProgramDateMap? = nil
    }

    /// What an input turned out to be before it is opened.
    enum Resolution {
        /// The input to open (read through Playhead's loader when it streams it), with the
        /// dates of an HLS timeline.
        case input(MediaLocation, ProgramDateMap?)
        /// A plain list of streams (a radio station's M3U or PLS): its entries that may be
        /// opened, in the list's order.
        case stationList([MediaLocation])
    }

    /// Opens `location` as a `Demuxer`, through Playhead's HLS loader when it can stream it
    /// (a loader whose open fails is closed again); a list of streams opens its first entry
    /// that opens (`listsFollowed`: how many lists led here).
    static func demuxer(
        for location: MediaLocation, timeout: Double, interrupt: InterruptDeadline, limits: MediaLimits = .standard,
        readsSessionDocuments: Bool = true, listsFollowed: Int = 0, caps: VariantAdaptation.Caps = .init()
    ) throws(MediaFailure) -> Opened {
        let resolution = try Self.location(
            for: location, timeout: timeout, interrupt: interrupt, readsSessionDocuments: readsSessionDocuments,
            listsFollowed: listsFollowed, caps: caps)
        let streamed: MediaLocation
        let dates: ProgramDateMap?
        switch resolution {
        case .stationList(let entries):
            return try firstOpened(
                of: entries, list: location, timeout: timeout, interrupt: interrupt, limits: limits,
                readsSessionDocuments: readsSessionDocuments, listsFollowed: listsFollowed + 1, caps: caps)
        case .input(let location, let map):
            (streamed, dates) = (location, map)
        }
        do throws(MediaFailure) {
            let demuxer = try Demuxer(location: streamed, timeout: timeout, interrupt: interrupt, limits: limits)
            return Opened(demuxer: demuxer, programDates: dates)
        } catch {
            streamed.streaming?.close()
            throw error
        }
    }

    /// `location` read through a new `HLSStreamLoader` when the loader can stream it, else
    /// `location` itself; with the dates of an HLS timeline when its media playlist has them;
    /// or the entries of a plain list of streams at a network URL.
    ///
    /// - Throws: `.timedOut` or `.cancelled` when the playlist (or the first bytes of an input
    ///   whose kind is asked for) could not be read in time or the open was aborted; `.protectedContent` when an HLS playlist's keys come from a DRM
    ///   system (FairPlay, Widevine, PlayReady); `.io` when a list of streams names nothing that
    ///   may be opened (StreamedOpen+StationList.swift); any other failure leaves the input to
    ///   libavformat, which reports it.
    /// `readsSessionDocuments`: false when nothing will use the session data's documents
    /// (the asset was inspected already): they are not fetched. `listsFollowed`: how many lists
    /// of streams led here. `caps`: the item's variant limits (`preferredPeakBitRate`,
    /// `preferredMaximumResolution`), which the start variant obeys.
    static func location(
        for location: MediaLocation, timeout: Double, interrupt: InterruptDeadline, readsSessionDocuments: Bool = true,
        listsFollowed: Int = 0, caps: VariantAdaptation.Caps = .init()
    ) throws(MediaFailure) -> Resolution {
        if let path = location.path, location.streaming == nil {
            return try localList(at: path, of: location)
        }
        guard location.isNetwork, location.streaming == nil, let url = URL(string: location.ffmpegURL) else {
            return .input(location, nil)
        }
        let network = location.network
        let fetcher = HTTPFetcher(
            headers: network.headers, userAgent: network.userAgent ?? NetworkOptions.defaultUserAgent)
        let stop: (Int, Double) -> FetchStop? = { _, _ in interrupt.isAborted ? .cancelled : nil }
        // By the path's extension, else by what the server sends first.
        let found: FoundManifest?
        do throws(MediaFailure) {
            found = try manifest(
                at: url, fetcher: fetcher, secure: location.requiresTLS, limit: network.maximumPlaylistBytes,
                timeout: timeout, stop: stop)
        } catch {
            fetcher.close()
            // (An abort in the same moment as the time-out is a cancel.)
            throw interrupt.isAborted ? .cancelled : error
        }
        switch found?.kind {
        case .stationList?:
            fetcher.close()
            return .stationList(
                try stationListEntries(found?.resource, of: location, interrupt: interrupt, listsFollowed: listsFollowed))
        case .dash?:
            fetcher.close()
            let (streamed, dates) = try dashLocation(
                for: location, url: url, timeout: timeout, interrupt: interrupt, prefetched: found?.resource, caps: caps)
            return .input(streamed, dates)
        case nil:
            fetcher.close()
            if interrupt.isAborted { throw .cancelled }
            return .input(location, nil)
        case .hls?:
            break
        }
        /// The playlist at `url` (a media playlist with the variables `imports` of the
        /// multivariant playlist that lists it), where it was read from after redirects, and
        /// its text with its variable references replaced.
        func fetchPlaylist(
            _ url: URL, imports: [String: String] = [:], prefetched: FetchedResource? = nil
        ) throws(MediaFailure) -> (HLSPlaylist, URL, String)? {
            let result =
                prefetched.map { Result<FetchedResource, FetchFailure>.success($0) }
                ?? fetcher.fetch(
                    url, secure: location.requiresTLS, limit: network.maximumPlaylistBytes, timeout: timeout,
                    shouldStop: stop)
            switch result {
            case .failure(.timedOut): throw .timedOut
            case .failure(.cancelled): throw .cancelled
            case .failure: return nil
            case .success(let resource):
                guard let text = String(data: resource.data, encoding: .utf8),
                    let resolved = try? HLSVariables(text, url: resource.finalURL, imports: imports),
                    let playlist = try? HLSPlaylist.parse(resolved, base: resource.finalURL)
                else { return nil }
                return (playlist, resource.finalURL, resolved.text)
            }
        }
        do throws(MediaFailure) {
            var fetched = try fetchPlaylist(url, prefetched: found?.resource)
            // Keys a DRM system's license server hands out: nothing here can decrypt them.
            if case (.multivariant(let master), _, _)? = fetched, master.drmSystem != nil { throw .protectedContent }
            if case (.media(let playlist), _, _)? = fetched, playlist.drmSystem != nil { throw .protectedContent }
            // Content steering: the pathway to play, from the first steering manifest.
            var steering: SteeringStart?
            if case (.multivariant(let master), let finalURL, let text)? = fetched, master.pathways.count > 1 || master.steering != nil {
                let start = try SteeringStart(
                    master, server: HLSStreamLoader.serverKey(finalURL), fetcher: fetcher, secure: location.requiresTLS,
                    limit: network.maximumPlaylistBytes, timeout: min(timeout, network.steeringWait), stop: stop)
                let steered = master.onPathway(start.pathway, priority: start.manifest?.priority ?? [])
                fetched = (.multivariant(steered), finalURL, text)
                steering = start
            }
            // Subtitle groups a backup or another pathway copies are no choice of their own
            // (each rendition's copies are its backups).
            var wholeText: String?
            // Audio-only variants beside video ones are no part of the ladder
            // (HLSAudioOnlyVariants.swift); `AVAsset.variants` lists them still.
            var everyVariant: [HLSVariant] = []
            if case (.multivariant(var master), let finalURL, let text)? = fetched {
                wholeText = text
                let kept = master.keepingSubtitleGroupsItsVariantsName(text)
                everyVariant = master.variants
                master.variants = master.variants.adaptedOver
                fetched = (.multivariant(master), finalURL, kept)
            }
            var variants: [HLSVariant]
            let firstListed: HLSVariant
            var listed: HLSMediaPlaylist?
            var audio: [HLSAudioRendition] = []
            // Tiered audio groups: each rendition's versions and the tier of each variant.
            var tiered: (tiers: HLSAudioTiers, ofVariant: [Int])?
            var carried: [HLSAudioRendition] = []
            var masterStart: HLSStartPoint?
            var imports: [String: String] = [:]
            var iFrameVariants: [HLSIFrameVariant] = []
            // Every variant listed, when the loader adapts over fewer (audio-only ones left out).
            var listedVariants: [HLSVariant]?
            switch fetched {
            case (.multivariant(let master), _, _)? where master.streamedAudio?.variants.isEmpty == false:
                let streamed = master.streamedAudio ?? ([], [])
                let layouts = streamed.renditions.compactMap(\.channelLayout)
                let described = { (list: [HLSVariant]) in
                    list.sorted { $0.bandwidth < $1.bandwidth }.map { variant in
                        var variant = variant
                        variant.audioRenditions = layouts
                        return variant
                    }
                }
                variants = described(streamed.variants)
                if everyVariant.count > master.variants.count { listedVariants = described(everyVariant) }
                firstListed = streamed.variants[0]
                audio = streamed.renditions.filter { $0.url != nil }
                carried = streamed.renditions.filter { $0.url == nil }
                masterStart = master.startPoint
                imports = master.definitions
                iFrameVariants = master.iFrameVariants
            case (.multivariant(let master), _, _)? where master.tieredAudio != nil:
                let tiers = master.tieredAudio!
                let described = { (list: [HLSVariant]) in
                    list.sorted { $0.bandwidth < $1.bandwidth }.map { variant in
                        var variant = variant
                        variant.audioRenditions = master.audioRenditions.filter { $0.group == variant.audioGroup }
                            .compactMap(\.channelLayout)
                        return variant
                    }
                }
                variants = described(master.variants)
                if everyVariant.count > master.variants.count { listedVariants = described(everyVariant) }
                firstListed = master.variants[0]
                tiered = (tiers, tiers.tiers(of: variants))
                masterStart = master.startPoint
                imports = master.definitions
                iFrameVariants = master.iFrameVariants
            case (.media(let playlist), let finalURL, _)?:
                // A media playlist on its own: one variant whose rate nobody stated.
                firstListed = HLSVariant.unlisted(finalURL)
                variants = [firstListed]
                listed = playlist
            default:
                // libavformat plays it; the dates come from the media playlist all the same
                // (a VOD's variants share one timeline).
                var dates: ProgramDateMap?
                if case .multivariant(let master) = fetched?.0, let first = master.variants.first,
                    case (.media(let playlist), _, _)? = try fetchPlaylist(first.url, imports: master.definitions)
                {
                    if playlist.drmSystem != nil { throw .protectedContent }
                    dates = ProgramDateMap(playlist)
                }
                fetcher.close()
                return .input(location, dates)
            }
            let initial =
                ProcessThroughput.lastEstimate(for: HLSStreamLoader.serverKey(firstListed.url))
                ?? Double(min(max(firstListed.bandwidth, 1), 5_000_000))
            let adaptation = VariantAdaptation(
                candidates: variants.map {
                    .init(bandwidth: $0.bandwidth, averageBandwidth: $0.averageBandwidth, width: $0.width, height: $0.height)
                })
            // The variants in the order the playlist lists them (indices into `variants`).
            let listedOrder: [Int]
            switch fetched {
            case (.multivariant(let master), _, _)?:
                let streamed = master.streamedAudio?.variants ?? []
                let order = streamed.isEmpty ? master.variants : streamed
                // (One playlist may be listed twice, with other audio or another rate: each
                // listing is matched once, by its rate and audio group too.)
                var matched = Set<Int>()
                listedOrder = order.compactMap { listed in
                    let found = variants.indices.first { index in
                        !matched.contains(index) && variants[index].url == listed.url
                            && variants[index].bandwidth == listed.bandwidth && variants[index].audioGroup == listed.audioGroup
                    }
                    if let found { matched.insert(found) }
                    return found
                }
            default: listedOrder = []
            }
            let start = adaptation.startIndex(
                estimate: initial, segmentDuration: 4, caps: caps, listedOrder: listedOrder)
            var media: HLSPlaylist?
            if let listed {
                media = .media(listed)
            } else {
                media = try fetchPlaylist(variants[start].url, imports: imports)?.0
                // A start variant whose playlist cannot be read is opened from a backup.
                for backup in variants[start].backups.indices where media == nil {
                    media = try fetchPlaylist(variants[start].backups[backup], imports: imports)?.0
                    if media != nil { variants[start] = variants[start].failingOver(to: backup) }
                }
            }
            if case .media(let playlist)? = media, playlist.drmSystem != nil { throw .protectedContent }
            // Every audio rendition's playlist (in tiers, the version playing with the start
            // variant), read before any loader fetches with this fetcher.
            let startTier = tiered?.ofVariant[start] ?? 0
            let wanted = tiered.map { $0.tiers.renditions.map { $0.versions[startTier] } } ?? audio
            var renditions: [(HLSAudioRendition, HLSMediaPlaylist, URL, source: Int)] = []
            for rendition in wanted {
                // One whose playlist cannot be read is opened from a backup (a backup stream's
                // copy of its group, or its copy on another pathway).
                guard let primary = rendition.url else { break }
                var opened: (HLSMediaPlaylist, URL, source: Int)?
                for (source, url) in ([primary] + rendition.backups).enumerated() where opened == nil {
                    if case (.media(let list), let finalURL, _)? = try fetchPlaylist(url, imports: imports) {
                        opened = (list, finalURL, source)
                    }
                }
                guard let (list, finalURL, source) = opened, streamable(list) else { break }
                renditions.append((rendition, list, finalURL, source))
            }
            guard case .media(let playlist) = media, streamable(playlist), renditions.count == wanted.count else {
                var dates: ProgramDateMap?
                if case .media(let playlist) = media { dates = ProgramDateMap(playlist) }
                fetcher.close()
                return .input(location, dates)
            }
            let log = StreamingLog()
            log.started(on: variants[start], at: 0)
            if let failure = steering?.failure, let tag = steering?.tag { log.error(uri: tag.serverURL, failure: failure) }
            var declared = fetched.map { DeclaredRenditions(playlist: $0.2, base: $0.1) } ?? DeclaredRenditions()
            if case (.multivariant(let master), let finalURL, _)? = fetched, let wholeText {
                declared.subtitles = master.withSubtitleBackups(declared.subtitles, from: wholeText, base: finalURL)
            }
            if readsSessionDocuments {
                declared.sessionData = readingSessionData(
                    declared.sessionData, fetcher: fetcher, secure: location.requiresTLS, timeout: timeout,
                    wait: network.sessionDataWait, log: log, stop: stop)
            }
            let loader = HLSStreamLoader(
                variants: variants, startVariant: start, startPlaylist: playlist, fetcher: fetcher,
                secure: location.requiresTLS, options: network, timeout: timeout, caps: caps, log: log,
                initialEstimate: initial,
                renditions: declared,
                carrying: carried.map { CompanionRendition(name: $0.name, language: $0.language, isDefault: $0.isDefault) },
                startPoint: playlist.startPoint ?? masterStart, playlistImports: imports, iFrameVariants: iFrameVariants,
                listedVariants: listedVariants, steeredBy: steering?.manifest?.withClones)
            loader.addRenditionLoaders(
                renditions.enumerated().map { index, opened in
                    let (rendition, list, url, source) = opened
                    // In tiers, its versions follow the variants' loader (held weakly: it holds
                    // its renditions' loaders). With content steering each version has its
                    // copies on the other pathways as backups.
                    var playing = HLSVariant.unlisted(rendition.url ?? url, pathway: steering?.pathway, backups: rendition)
                    if source > 0 { playing = playing.failingOver(to: source - 1) }
                    playing.url = url
                    var versions = [playing]
                    var following: AudioTierFollowing?
                    if let tiered {
                        versions = tiered.tiers.renditions[index].versions.enumerated().map { tier, version in
                            tier == startTier
                                ? playing
                                : HLSVariant.unlisted(version.url ?? url, pathway: steering?.pathway, backups: version)
                        }
                        following = AudioTierFollowing(tierOfVariant: tiered.ofVariant) { [weak loader] in
                            loader?.leading.withLock { $0 }
                        }
                    }
                    return HLSStreamLoader(
                        variants: versions, startVariant: tiered == nil ? 0 : startTier, startPlaylist: list,
                        fetcher: HTTPFetcher(
                            headers: network.headers, userAgent: network.userAgent ?? NetworkOptions.defaultUserAgent),
                        secure: location.requiresTLS, options: network, timeout: timeout, caps: caps, log: log,
                        initialEstimate: initial,
                        rendition: CompanionRendition(
                            name: rendition.name, language: rendition.language, isDefault: rendition.isDefault),
                        tiers: following, timelineOffsets: loader.timelineOffsets ?? TimelineOffsets(), playlistImports: imports,
                        steeredBy: steering?.manifest?.withClones)
                })
            if let steering, let tag = steering.tag {
                steering.steer(
                    loader, tag: tag, settings: .init(
                        fetcher: HTTPFetcher(
                            headers: network.headers, userAgent: network.userAgent ?? NetworkOptions.defaultUserAgent),
                        secure: location.requiresTLS, limit: network.maximumPlaylistBytes, timeout: timeout),
                    log: log)
            }
            return .input(location.streamed(through: loader), ProgramDateMap(playlist, fromStart: true))
        } catch {
            fetcher.close()
            throw error
        }
    }
}
