// Playhead: a DASH manifest, static or live (DASHLive.swift), streamed by Playhead's own
// loader: its video Representations are the variants the loader adapts over (the same
// throughput estimate, switching rule, abandonment, access and error logs as HLS), each audio
// AdaptationSet an audio rendition read beside them (its Representations following the
// video's by rank), each WebVTT or TTML text AdaptationSet a subtitle rendition. A live manifest is
// read again for every reload of a loader. A manifest `DASHManifest` does not model goes to
// libavformat.
//
// Concurrency: runs on the thread that opens the input, blocking it on the network;
// `interrupt.abort()` from any thread stops it.
import FFmpegBridge
import Foundation

extension StreamedOpen {
    /// `location` read through a new `HLSStreamLoader` over the DASH manifest at `url` when
    /// `DASHManifest` models it, else `location` itself; with a live manifest's segment dates.
    ///
    /// - Throws: `.timedOut` or `.cancelled` when the manifest could not be read in time or
    ///   the open was aborted; any other failure leaves the input to libavformat.
    static func dashLocation(
        for location: MediaLocation, url: URL, timeout: Double, interrupt: InterruptDeadline,
        prefetched: FetchedResource? = nil, caps: VariantAdaptation.Caps = .init()
    ) throws(MediaFailure) -> (MediaLocation, ProgramDateMap?) {
        let network = location.network
        let makeFetcher = { @Sendable in
            HTTPFetcher(headers: network.headers, userAgent: network.userAgent ?? NetworkOptions.defaultUserAgent)
        }
        let fetcher = makeFetcher()
        // (A manifest told by its first bytes was read whole already.)
        let result =
            prefetched.map { Result<FetchedResource, FetchFailure>.success($0) }
            ?? fetcher.fetch(
                url, secure: location.requiresTLS, limit: network.maximumPlaylistBytes, timeout: timeout,
                shouldStop: { _, _ in interrupt.isAborted ? .cancelled : nil })
        let manifest: DASHManifest
        var copies: [DASHManifest] = []
        var clock = LiveClock(clock: .machine, failures: [], sources: [])
        var steering = DASHSteeringStart()
        switch result {
        case .failure(.timedOut):
            fetcher.close()
            throw .timedOut
        case .failure(.cancelled):
            fetcher.close()
            throw .cancelled
        case .failure:
            fetcher.close()
            return (location, nil)
        case .success(let resource):
            guard
                let read = readManifest(
                    resource, location: location, fetcher: fetcher, timeout: timeout, interrupt: interrupt, clock: &clock,
                    steering: &steering)
            else {
                fetcher.close()
                if interrupt.isAborted { throw .cancelled }
                return (location, nil)
            }
            (manifest, copies) = read
        }
        // Each Representation is a variant whose "playlist" the manifest already gave; its
        // URL names the manifest and the Representation (the access log's URI for it). Every
        // variant plays with every audio set.
        let audioLayouts = manifest.audio.compactMap { set in
            set.representation.channelCount.map { StreamAudioRendition(name: set.name, channelCount: $0) }
        }
        // A variant's bandwidth counts the default sound that plays with it, as an HLS
        // variant's BANDWIDTH counts its renditions (the rule weighs what is fetched).
        let pairedAudio =
            manifest.audio.first(where: \.isDefault).map { set in
                set.tiers(forVariants: manifest.variants.count).map { set.representations[$0].bandwidth }
            } ?? Array(repeating: 0, count: manifest.variants.count)
        // The same Representation on the manifest's other locations is the variant's backup,
        // each location a content steering pathway (a single one too when a steering server
        // may clone it).
        let backups = { (id: String) in copies.indices.map { representationURL(url, id: id, location: $0 + 1) } }
        let pathways = copies.isEmpty && steering.tag == nil ? [] : steering.locations
        func placed(_ variant: HLSVariant) -> HLSVariant {
            guard let first = pathways.first else { return variant }
            var variant = variant
            variant.pathway = first
            variant.backupPathways = Array(pathways.dropFirst())
            return variant
        }
        let variants = zip(manifest.variants, pairedAudio).map { representation, audioBandwidth in
            var variant = HLSVariant(
                url: representationURL(url, id: representation.id), bandwidth: representation.bandwidth + audioBandwidth,
                averageBandwidth: nil, width: representation.width, height: representation.height,
                codecs: representation.codecs, audioGroup: manifest.audio.isEmpty ? nil : "audio", subtitleGroup: nil,
                frameRate: representation.frameRate, videoRange: representation.videoRange,
                videoLayouts: representation.videoLayout.map { [$0] } ?? [], audioRenditions: audioLayouts)
            variant.backups = backups(representation.id)
            return placed(variant)
        }
        let initial =
            ProcessThroughput.lastEstimate(for: HLSStreamLoader.serverKey(url))
            ?? Double(min(max(variants[0].bandwidth, 1), 5_000_000))
        let adaptation = VariantAdaptation(
            candidates: variants.map {
                .init(bandwidth: $0.bandwidth, averageBandwidth: nil, width: $0.width, height: $0.height)
            })
        let start = adaptation.startIndex(estimate: initial, segmentDuration: 4, caps: caps)
        let log = StreamingLog()
        log.started(on: variants[start], at: 0)
        // A time source that did not answer is in the error log; the machine's clock was used.
        for (url, failure) in clock.failures { log.error(uri: url, failure: failure) }
        if let failure = steering.failure, let tag = steering.tag { log.error(uri: tag.serverURL, failure: failure) }
        let sync = clockSync(
            clock, location: location, timeout: timeout, interrupt: interrupt, log: log, makeFetcher: makeFetcher)
        // A live manifest is read again for every reload; each loader numbers its segments by
        // time (DASHLive.swift).
        let isLive = !(manifest.variants.first?.playlist.isEnded ?? true)
        let numbering = DASHLiveNumbering()
        let playlists = manifest.variants.map { isLive ? numbering.numbered($0.playlist) : $0.playlist }
        let known = Dictionary(uniqueKeysWithValues: playlists.enumerated().map { ($0, $1) })
        let knownBackups = Dictionary(
            uniqueKeysWithValues: playlists.indices.map { index in
                (index, copies.map { isLive ? numbering.numbered($0.variants[index].playlist) : $0.variants[index].playlist })
            })
        // WebVTT and TTML text sets are subtitle renditions read as files; one a remote manifest may
        // not name (a local file, an https to http downgrade) is left out.
        // A set of segments is named by the manifest's URL and its place (`#text=N`), which
        // tells two sets apart even when their first segments' URLs do not.
        let textURLs = manifest.subtitles.enumerated().map { position, track in
            track.playlist == nil && track.index == nil ? track.url.absoluteString : textSetURL(url, position: position)
        }
        var renditions = DeclaredRenditions()
        renditions.subtitles = zip(manifest.subtitles, textURLs).compactMap { track, textURL in
            guard HTTPFetcher.refusal(of: track.url, secure: location.requiresTLS) == nil else { return nil }
            return SubtitleRendition(
                name: track.name, language: track.language, url: textURL,
                isDefault: track.isDefault, isForced: track.isForced, codecName: track.codecName)
        }
        // A segmented text set's segments are read from the manifest's playlist, or from its
        // file's index; a live one's from every reload of the manifest.
        let subtitlePlaylists = Dictionary(
            zip(manifest.subtitles, textURLs).compactMap { track, textURL -> (String, KnownSubtitleSegments)? in
                if let playlist = track.playlist {
                    guard isLive else { return (textURL, .listed(playlist)) }
                    let textNumbering = DASHLiveNumbering()
                    return (
                        textURL,
                        .live(
                            textNumbering.numbered(playlist), manifest: url,
                            read: liveTextReader(
                                track, numbering: textNumbering, clock: sync, preferring: steering.preferring))
                    )
                }
                return track.index.map { (textURL, .indexed($0)) }
            }, uniquingKeysWith: { first, _ in first })
        let loader = HLSStreamLoader(
            variants: variants, startVariant: start, startPlaylist: playlists[start], fetcher: fetcher,
            secure: location.requiresTLS, options: network, timeout: timeout, caps: caps, log: log,
            initialEstimate: initial, renditions: renditions,
            carrying: manifest.carriedAudio.map { [CompanionRendition(name: $0.name, language: $0.language, isDefault: true)] } ?? [],
            knownPlaylists: known, knownBackupPlaylists: knownBackups, formatName: "dash",
            playlistReader: isLive
                ? liveReader(opened: variants.count, numbering: numbering, clock: sync, preferring: steering.preferring) {
                    $0.variants
                } : nil, subtitlePlaylists: subtitlePlaylists, steeredBy: steering.manifest?.withClones)
        // An audio set of several Representations follows the video variant chosen (held
        // weakly: the variants' loader holds its renditions' loaders).
        loader.addRenditionLoaders(
            manifest.audio.enumerated().map { position, set in
                let tiers = set.tiers(forVariants: variants.count)
                let following =
                    set.representations.count < 2
                    ? nil
                    : AudioTierFollowing(tierOfVariant: tiers) { [weak loader] in loader?.leading.withLock { $0 } }
                let numbering = DASHLiveNumbering()
                let versions = set.representations.map { isLive ? numbering.numbered($0.playlist) : $0.playlist }
                let knownBackups = Dictionary(
                    uniqueKeysWithValues: versions.indices.map { index in
                        (index, copies.map { copy in
                            let playlist = copy.audio[position].representations[index].playlist
                            return isLive ? numbering.numbered(playlist) : playlist
                        })
                    })
                return HLSStreamLoader(
                    variants: set.representations.map { representation in
                        var version = HLSVariant.unlisted(representationURL(url, id: representation.id))
                        version.backups = backups(representation.id)
                        return placed(version)
                    },
                    startVariant: tiers[start], startPlaylist: versions[tiers[start]],
                    fetcher: makeFetcher(), secure: location.requiresTLS, options: network, timeout: timeout,
                    caps: caps, log: log, initialEstimate: initial,
                    rendition: CompanionRendition(name: set.name, language: set.language, isDefault: set.isDefault),
                    tiers: following, timelineOffsets: loader.timelineOffsets ?? TimelineOffsets(),
                    knownPlaylists: Dictionary(uniqueKeysWithValues: versions.enumerated().map { ($0, $1) }),
                    knownBackupPlaylists: knownBackups, formatName: "dash",
                    playlistReader: isLive
                        ? liveReader(
                            opened: set.representations.count, numbering: numbering, clock: sync, preferring: steering.preferring
                        ) {
                            $0.audioSet(matching: set)?.representations ?? []
                        } : nil, steeredBy: steering.manifest?.withClones)
            })
        if let tag = steering.tag {
            steering.steer(loader, tag: tag, location: location, timeout: timeout, log: log, makeFetcher: makeFetcher)
        }
        // A live item's time is its segments' (the Period's); their dates are the packager's.
        return (location.streamed(through: loader), ProgramDateMap(playlists[start], fromStart: true, keepsSegmentTimes: true))
    }

    /// The packager's clock against the machine's (DASHClock.swift), and the time sources that
    /// did not answer.
    private struct LiveClock {
        /// The packager's clock (the machine's when no source answered).
        var clock: DASHPackagerClock
        var failures: [(URL, FetchFailure)]
        /// The manifest's time sources, in its order.
        var sources: [DASHManifest.ClockSource]
    }

    /// The packager's clock measured at the open, measured again while the item plays from
    /// the manifest's time servers (DASHClockSync.swift), each asked through a fetcher of its
    /// own, with the open's time-out (at most 5 s); a server that does not answer then leaves
    /// an event in the error `log`, as at the open.
    private static func clockSync(
        _ clock: LiveClock, location: MediaLocation, timeout: Double, interrupt: InterruptDeadline, log: StreamingLog,
        makeFetcher: @escaping @Sendable () -> HTTPFetcher
    ) -> DASHClockSync {
        let servers = clock.sources.filter { if case .direct = $0 { false } else { true } }
        let secure = location.requiresTLS
        let askServers: (@Sendable () -> Double?)? =
            servers.isEmpty
            ? nil
            : { @Sendable in
                let fetcher = makeFetcher()
                defer { fetcher.close() }
                return measureClock(
                    servers, received: Date(), fetcher: fetcher, secure: secure, timeout: timeout, interrupt: interrupt
                ) { url, failure in
                    if !interrupt.isAborted { log.error(uri: url, failure: failure) }
                }
            }
        return DASHClockSync(clock: clock.clock, askServers: askServers, isStopped: { interrupt.isAborted })
    }

    /// The offset of the packager's clock from the first of `sources` that answers
    /// (`DASHManifest.clockOffset`), each time server asked through `fetcher` with the open's
    /// time-out (at most 5 s); `failed` hears of each request that failed. Nil when none answers.
    private static func measureClock(
        _ sources: [DASHManifest.ClockSource], received: Date, fetcher: HTTPFetcher, secure: Bool, timeout: Double,
        interrupt: InterruptDeadline, failed: (URL, FetchFailure) -> Void
    ) -> Double? {
        func ask(_ url: URL, method: String) -> FetchedResource? {
            guard !interrupt.isAborted else { return nil }
            switch fetcher.fetch(url, secure: secure, limit: 4_096, timeout: min(timeout, 5), method: method) {
            case .success(let answer): return answer
            case .failure(let failure):
                failed(url, failure)
                return nil
            }
        }
        return DASHManifest.clockOffset(
            from: sources, received: received, ask: { ask($0, method: "GET")?.data },
            askHeader: { ask($0, method: "HEAD")?.dateField })
    }

    /// The manifest in `resource`: a live one as it stands now by the packager's clock (read
    /// into `clock`), when every Representation lists a segment by now; a static one with its
    /// `SegmentBase` Representations' `sidx` boxes read (before its Periods are joined). With
    /// it, its copies on the manifest's other locations (DASHBaseURLs.swift; none for a
    /// `SegmentBase` one, whose indexes would have to be read again). Nil when the loader does
    /// not model it.
    private static func readManifest(
        _ resource: FetchedResource, location: MediaLocation, fetcher: HTTPFetcher, timeout: Double,
        interrupt: InterruptDeadline, clock: inout LiveClock, steering: inout DASHSteeringStart
    ) -> (DASHManifest, copies: [DASHManifest])? {
        let received = Date()
        // Read once; the clock, live and static readings all take the tree.
        guard let mpd = XMLTree.parse(resource.data) else { return nil }
        steering = DASHSteeringStart(
            mpd, base: resource.finalURL, fetcher: fetcher, secure: location.requiresTLS,
            limit: location.network.maximumPlaylistBytes, timeout: timeout, steeringWait: location.network.steeringWait,
            interrupt: interrupt)
        let preferring = steering.preferring
        let sources = DASHManifest.clockSources(mpd, base: resource.finalURL)
        var failures: [(URL, FetchFailure)] = []
        let offset = measureClock(
            sources, received: received, fetcher: fetcher, secure: location.requiresTLS, timeout: timeout,
            interrupt: interrupt
        ) { failures.append(($0, $1)) }
        clock = LiveClock(
            clock: offset.map { DASHPackagerClock(offset: $0) } ?? .machine, failures: failures, sources: sources)
        let now = clock.clock.now()
        let listsSegments = { (manifest: DASHManifest) in
            (manifest.variants + manifest.audio.flatMap(\.representations)).allSatisfy { !$0.playlist.segments.isEmpty }
        }
        // What plays is read from the first location; the others are copies.
        let first = DASHManifest.choosingLocation(0, of: mpd, preferring: preferring)
        if let live = DASHManifest.live(first, base: resource.finalURL, now: now) {
            guard listsSegments(live) else { return nil }
            let copies = DASHManifest.copies(of: live, in: mpd, preferring: preferring) { tree in
                DASHManifest.live(tree, base: resource.finalURL, now: now).flatMap { listsSegments($0) ? $0 : nil }
            }
            return (live, copies)
        }
        let readIndex = { (url: URL, range: Range<Int>) -> Data? in
            guard !interrupt.isAborted,
                case .success(let index) = fetcher.fetch(
                    url, range: range, secure: location.requiresTLS, limit: location.network.maximumPlaylistBytes,
                    timeout: timeout)
            else { return nil }
            return index.data
        }
        guard let periods = DASHManifest.periods(first, base: resource.finalURL) else { return nil }
        let resolved = periods.compactMap { $0.resolvingIndexes(readIndex) }
        guard resolved.count == periods.count, let joined = DASHManifest.joining(resolved) else { return nil }
        let copies = DASHManifest.copies(of: joined, in: mpd, preferring: preferring) { tree in
            DASHManifest.periods(tree, base: resource.finalURL).flatMap { DASHManifest.joining($0) }
        }
        return (joined, copies)
    }

    /// Reads variant N's playlist from a reload of a live manifest (as it stands now by the
    /// packager's `clock` while dynamic, complete and ended once static), for a
    /// loader over a ladder of `opened` Representations: the one of the same rank among
    /// `ladder(reloaded)` (a new Period names its own Representations), on the manifest's
    /// location of the source read (its backups are its other locations).
    private static func liveReader(
        opened: Int, numbering: DASHLiveNumbering, clock: DASHClockSync, preferring: [String],
        ladder: @escaping @Sendable (DASHManifest) -> [DASHManifest.Representation]
    ) -> HLSStreamLoader.PlaylistReader {
        { data, base, variant, source in
            guard let tree = XMLTree.parse(data) else { return nil }
            // A manifest timed by the date it states is measured again from a reload's.
            let direct = DASHManifest.clockSources(tree, base: base).first.flatMap { source -> Date? in
                if case .direct(let date) = source { date } else { nil }
            }
            let now = clock.now(direct: direct)
            let mpd = DASHManifest.choosingLocation(source, of: tree, preferring: preferring)
            guard
                let manifest = DASHManifest.live(mpd, base: base, now: now)
                    ?? DASHManifest.ended(mpd, base: base)
            else { return nil }
            let representations = ladder(manifest)
            guard !representations.isEmpty else { return nil }
            let count = representations.count
            return numbering.numbered(representations[DASHManifest.matching(variant, of: opened, in: count)].playlist)
        }
    }

    /// Reads a live text set's playlist from a reload of the manifest (as it stands now by the
    /// packager's `clock`, or complete once static), the set found again by its codec,
    /// language and name; its segments numbered by time.
    private static func liveTextReader(
        _ track: DASHManifest.TextTrack, numbering: DASHLiveNumbering, clock: DASHClockSync, preferring: [String]
    ) -> @Sendable (Data, URL) -> HLSMediaPlaylist? {
        { data, base in
            guard let tree = XMLTree.parse(data) else { return nil }
            let direct = DASHManifest.clockSources(tree, base: base).first.flatMap { source -> Date? in
                if case .direct(let date) = source { date } else { nil }
            }
            let mpd = DASHManifest.choosingLocation(0, of: tree, preferring: preferring)
            guard
                let manifest = DASHManifest.live(mpd, base: base, now: clock.now(direct: direct))
                    ?? DASHManifest.ended(mpd, base: base)
            else { return nil }
            let sets = manifest.subtitles.filter { $0.codecName == track.codecName && $0.playlist != nil }
            guard
                let match = sets.first(where: { $0.language == track.language && $0.name == track.name })
                    ?? sets.first(where: { $0.language == track.language }),
                let playlist = match.playlist
            else { return nil }
            return numbering.numbered(playlist)
        }
    }

    /// The manifest's URL naming its text set at `position` (`#text=N`).
    private static func textSetURL(_ manifest: URL, position: Int) -> String {
        var components = URLComponents(url: manifest, resolvingAgainstBaseURL: true)
        components?.fragment = "text=\(position)"
        return (components?.url ?? manifest).absoluteString
    }

    /// The manifest's URL naming one Representation (`#representation=ID`), on the manifest's
    /// location `location` after the first (`&location=N`).
    private static func representationURL(_ manifest: URL, id: String, location: Int = 0) -> URL {
        var components = URLComponents(url: manifest, resolvingAgainstBaseURL: true)
        components?.fragment = "representation=\(id)" + (location > 0 ? "&location=\(location)" : "")
        return components?.url ?? manifest
    }
}
