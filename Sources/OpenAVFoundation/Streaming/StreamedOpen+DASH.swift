// Playhead: a DASH manifest, static or live (DASHLive.swift), streamed by Playhead's own
// loader: its video Representations are the variants the loader adapts over (the same
// throughput estimate, switching rule, abandonment, access and error logs as HLS), each audio
// AdaptationSet an audio rendition read beside them (its Representations following the
// video's by rank), each WebVTT text AdaptationSet a subtitle rendition. A live manifest is
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
        for location: MediaLocation, url: URL, timeout: Double, interrupt: InterruptDeadline
    ) throws(MediaFailure) -> (MediaLocation, ProgramDateMap?) {
        let network = location.network
        let makeFetcher = {
            HTTPFetcher(headers: network.headers, userAgent: network.userAgent ?? NetworkOptions.defaultUserAgent)
        }
        let fetcher = makeFetcher()
        let result = fetcher.fetch(
            url, secure: location.requiresTLS, limit: network.maximumPlaylistBytes, timeout: timeout,
            shouldStop: { _, _ in interrupt.isAborted ? .cancelled : nil })
        let manifest: DASHManifest
        var clock = LiveClock(offset: 0, failures: [])
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
                    resource, location: location, fetcher: fetcher, timeout: timeout, interrupt: interrupt, clock: &clock)
            else {
                fetcher.close()
                if interrupt.isAborted { throw .cancelled }
                return (location, nil)
            }
            manifest = read
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
        let variants = zip(manifest.variants, pairedAudio).map { representation, audioBandwidth in
            HLSVariant(
                url: representationURL(url, id: representation.id), bandwidth: representation.bandwidth + audioBandwidth,
                averageBandwidth: nil, width: representation.width, height: representation.height,
                codecs: representation.codecs, audioGroup: manifest.audio.isEmpty ? nil : "audio", subtitleGroup: nil,
                frameRate: representation.frameRate, videoRange: representation.videoRange,
                videoLayouts: representation.videoLayout.map { [$0] } ?? [], audioRenditions: audioLayouts)
        }
        let initial =
            ProcessThroughput.lastEstimate(for: HLSStreamLoader.serverKey(url))
            ?? Double(min(max(variants[0].bandwidth, 1), 5_000_000))
        let adaptation = VariantAdaptation(
            candidates: variants.map {
                .init(bandwidth: $0.bandwidth, averageBandwidth: nil, width: $0.width, height: $0.height)
            })
        let start = adaptation.startIndex(estimate: initial, segmentDuration: 4, caps: .init())
        let log = StreamingLog()
        log.started(on: variants[start], at: 0)
        // A time source that did not answer is in the error log; the machine's clock was used.
        for (url, failure) in clock.failures { log.error(uri: url, failure: failure) }
        // A live manifest is read again for every reload; each loader numbers its segments by
        // time (DASHLive.swift).
        let isLive = !(manifest.variants.first?.playlist.isEnded ?? true)
        let numbering = DASHLiveNumbering()
        let playlists = manifest.variants.map { isLive ? numbering.numbered($0.playlist) : $0.playlist }
        let known = Dictionary(uniqueKeysWithValues: playlists.enumerated().map { ($0, $1) })
        // WebVTT text sets are subtitle renditions read as files; one a remote manifest may
        // not name (a local file, an https to http downgrade) is left out.
        var renditions = DeclaredRenditions()
        renditions.subtitles = manifest.subtitles.compactMap { track in
            guard HTTPFetcher.refusal(of: track.url, secure: location.requiresTLS) == nil else { return nil }
            return SubtitleRendition(
                name: track.name, language: track.language, url: track.url.absoluteString,
                isDefault: track.isDefault, isForced: track.isForced)
        }
        let loader = HLSStreamLoader(
            variants: variants, startVariant: start, startPlaylist: playlists[start], fetcher: fetcher,
            secure: location.requiresTLS, options: network, timeout: timeout, caps: .init(), log: log,
            initialEstimate: initial, renditions: renditions,
            carrying: manifest.carriedAudio.map { CompanionRendition(name: $0.name, language: $0.language, isDefault: true) },
            knownPlaylists: known, formatName: "dash",
            playlistReader: isLive
                ? liveReader(opened: variants.count, numbering: numbering, clockOffset: clock.offset) { $0.variants } : nil)
        // An audio set of several Representations follows the video variant chosen (held
        // weakly: the variants' loader holds its renditions' loaders).
        loader.addRenditionLoaders(
            manifest.audio.map { set in
                let tiers = set.tiers(forVariants: variants.count)
                let following =
                    set.representations.count < 2
                    ? nil
                    : AudioTierFollowing(tierOfVariant: tiers) { [weak loader] in loader?.leading.withLock { $0 } }
                let numbering = DASHLiveNumbering()
                let versions = set.representations.map { isLive ? numbering.numbered($0.playlist) : $0.playlist }
                return HLSStreamLoader(
                    variants: set.representations.map { HLSVariant.unlisted(representationURL(url, id: $0.id)) },
                    startVariant: tiers[start], startPlaylist: versions[tiers[start]],
                    fetcher: makeFetcher(), secure: location.requiresTLS, options: network, timeout: timeout,
                    caps: .init(), log: log, initialEstimate: initial,
                    rendition: CompanionRendition(name: set.name, language: set.language, isDefault: set.isDefault),
                    tiers: following, timelineOffsets: loader.timelineOffsets ?? TimelineOffsets(),
                    knownPlaylists: Dictionary(uniqueKeysWithValues: versions.enumerated().map { ($0, $1) }),
                    formatName: "dash",
                    playlistReader: isLive
                        ? liveReader(opened: set.representations.count, numbering: numbering, clockOffset: clock.offset) {
                            $0.audioSet(matching: set)?.representations ?? []
                        } : nil)
            })
        // A live item's time is its segments' (the Period's); their dates are the packager's.
        return (location.streamed(through: loader), ProgramDateMap(playlists[start], fromStart: true, keepsSegmentTimes: true))
    }

    /// The packager's clock against the machine's (DASHClock.swift), and the time sources that
    /// did not answer.
    private struct LiveClock {
        /// Seconds to add to the machine's clock.
        var offset: Double
        var failures: [(URL, FetchFailure)]
    }

    /// The manifest in `resource`: a live one as it stands now by the packager's clock (read
    /// into `clock`), when every Representation lists a segment by now; a static one with its
    /// `SegmentBase` Representations' `sidx` boxes read (before its Periods are joined). Nil
    /// when the loader does not model it.
    private static func readManifest(
        _ resource: FetchedResource, location: MediaLocation, fetcher: HTTPFetcher, timeout: Double,
        interrupt: InterruptDeadline, clock: inout LiveClock
    ) -> DASHManifest? {
        let received = Date()
        // Read once; the clock, live and static readings all take the tree.
        guard let mpd = XMLTree.parse(resource.data) else { return nil }
        let sources = DASHManifest.clockSources(mpd, base: resource.finalURL)
        var failures: [(URL, FetchFailure)] = []
        let offset = DASHManifest.clockOffset(from: sources, received: received) { url in
            guard !interrupt.isAborted else { return nil }
            switch fetcher.fetch(url, secure: location.requiresTLS, limit: 4_096, timeout: min(timeout, 5)) {
            case .success(let answer): return answer.data
            case .failure(let failure):
                failures.append((url, failure))
                return nil
            }
        }
        clock = LiveClock(offset: offset ?? 0, failures: failures)
        if let live = DASHManifest.live(mpd, base: resource.finalURL, now: Date().addingTimeInterval(clock.offset)) {
            let representations = live.variants + live.audio.flatMap(\.representations)
            return representations.allSatisfy { !$0.playlist.segments.isEmpty } ? live : nil
        }
        let readIndex = { (url: URL, range: Range<Int>) -> Data? in
            guard !interrupt.isAborted,
                case .success(let index) = fetcher.fetch(
                    url, range: range, secure: location.requiresTLS, limit: location.network.maximumPlaylistBytes,
                    timeout: timeout)
            else { return nil }
            return index.data
        }
        guard let periods = DASHManifest.periods(mpd, base: resource.finalURL) else { return nil }
        let resolved = periods.compactMap { $0.resolvingIndexes(readIndex) }
        return resolved.count == periods.count ? DASHManifest.joining(resolved) : nil
    }

    /// Reads variant N's playlist from a reload of a live manifest (as it stands now by the
    /// machine's clock plus `clockOffset` while dynamic, complete and ended once static), for a
    /// loader over a ladder of `opened` Representations: the one of the same rank among
    /// `ladder(reloaded)` (a new Period names its own Representations).
    private static func liveReader(
        opened: Int, numbering: DASHLiveNumbering, clockOffset: Double,
        ladder: @escaping @Sendable (DASHManifest) -> [DASHManifest.Representation]
    ) -> @Sendable (Data, URL, Int) -> HLSMediaPlaylist? {
        { data, base, variant in
            let now = Date().addingTimeInterval(clockOffset)
            guard let manifest = DASHManifest.live(data, base: base, now: now) ?? DASHManifest.parse(data, base: base)
            else { return nil }
            let representations = ladder(manifest)
            guard !representations.isEmpty else { return nil }
            let count = representations.count
            return numbering.numbered(representations[DASHManifest.matching(variant, of: opened, in: count)].playlist)
        }
    }

    /// The manifest's URL naming one Representation (`#representation=ID`).
    private static func representationURL(_ manifest: URL, id: String) -> URL {
        var components = URLComponents(url: manifest, resolvingAgainstBaseURL: true)
        components?.fragment = "representation=\(id)"
        return components?.url ?? manifest
    }
}
