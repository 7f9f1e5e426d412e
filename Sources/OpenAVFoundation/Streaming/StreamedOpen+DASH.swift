// Playhead: a static DASH manifest streamed by Playhead's own loader: its video
// Representations are the variants the loader adapts over (the same throughput estimate,
// switching rule, abandonment, access and error logs as HLS), each audio AdaptationSet an audio
// rendition read beside them (its Representations following the video's by rank), each WebVTT
// text AdaptationSet a subtitle rendition. A manifest `DASHManifest` does not model goes to
// libavformat.
//
// Concurrency: runs on the thread that opens the input, blocking it on the network;
// `interrupt.abort()` from any thread stops it.
import FFmpegBridge
import Foundation

extension StreamedOpen {
    /// `location` read through a new `HLSStreamLoader` over the DASH manifest at `url` when
    /// `DASHManifest` models it, else `location` itself.
    ///
    /// - Throws: `.timedOut` or `.cancelled` when the manifest could not be read in time or
    ///   the open was aborted; any other failure leaves the input to libavformat.
    static func dashLocation(
        for location: MediaLocation, url: URL, timeout: Double, interrupt: InterruptDeadline
    ) throws(MediaFailure) -> MediaLocation {
        let network = location.network
        let makeFetcher = {
            HTTPFetcher(headers: network.headers, userAgent: network.userAgent ?? NetworkOptions.defaultUserAgent)
        }
        let fetcher = makeFetcher()
        let result = fetcher.fetch(
            url, secure: location.requiresTLS, limit: network.maximumPlaylistBytes, timeout: timeout,
            shouldStop: { _, _ in interrupt.isAborted ? .cancelled : nil })
        let manifest: DASHManifest
        switch result {
        case .failure(.timedOut):
            fetcher.close()
            throw .timedOut
        case .failure(.cancelled):
            fetcher.close()
            throw .cancelled
        case .failure:
            fetcher.close()
            return location
        case .success(let resource):
            // `SegmentBase` Representations list their segments in a `sidx` box, read now.
            guard let parsed = DASHManifest.parse(resource.data, base: resource.finalURL),
                let resolved = parsed.resolvingIndexes({ url, range in
                    guard !interrupt.isAborted,
                        case .success(let index) = fetcher.fetch(
                            url, range: range, secure: location.requiresTLS, limit: network.maximumPlaylistBytes,
                            timeout: timeout)
                    else { return nil }
                    return index.data
                })
            else {
                fetcher.close()
                if interrupt.isAborted { throw .cancelled }
                return location
            }
            manifest = resolved
        }
        // Each Representation is a variant whose "playlist" the manifest already gave; its
        // URL names the manifest and the Representation (the access log's URI for it). Every
        // variant plays with every audio set.
        let audioLayouts = manifest.audio.compactMap { set in
            set.representation.channelCount.map { StreamAudioRendition(name: set.name, channelCount: $0) }
        }
        let variants = manifest.variants.map { representation in
            HLSVariant(
                url: representationURL(url, id: representation.id), bandwidth: representation.bandwidth,
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
        let known = Dictionary(uniqueKeysWithValues: manifest.variants.enumerated().map { ($0, $1.playlist) })
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
            variants: variants, startVariant: start, startPlaylist: manifest.variants[start].playlist, fetcher: fetcher,
            secure: location.requiresTLS, options: network, timeout: timeout, caps: .init(), log: log,
            initialEstimate: initial, renditions: renditions,
            carrying: manifest.carriedAudio.map { CompanionRendition(name: $0.name, language: $0.language, isDefault: true) },
            knownPlaylists: known, formatName: "dash")
        // An audio set of several Representations follows the video variant chosen (held
        // weakly: the variants' loader holds its renditions' loaders).
        loader.addRenditionLoaders(
            manifest.audio.map { set in
                let tiers = set.tiers(forVariants: variants.count)
                let following =
                    set.representations.count < 2
                    ? nil
                    : AudioTierFollowing(tierOfVariant: tiers) { [weak loader] in loader?.leading.withLock { $0 } }
                return HLSStreamLoader(
                    variants: set.representations.map { HLSVariant.unlisted(representationURL(url, id: $0.id)) },
                    startVariant: tiers[start], startPlaylist: set.representations[tiers[start]].playlist,
                    fetcher: makeFetcher(), secure: location.requiresTLS, options: network, timeout: timeout,
                    caps: .init(), log: log, initialEstimate: initial,
                    rendition: CompanionRendition(name: set.name, language: set.language, isDefault: set.isDefault),
                    tiers: following, timelineOffsets: loader.timelineOffsets ?? TimelineOffsets(),
                    knownPlaylists: Dictionary(uniqueKeysWithValues: set.representations.enumerated().map { ($0, $1.playlist) }),
                    formatName: "dash")
            })
        return location.streamed(through: loader)
    }

    /// The manifest's URL naming one Representation (`#representation=ID`).
    private static func representationURL(_ manifest: URL, id: String) -> URL {
        var components = URLComponents(url: manifest, resolvingAgainstBaseURL: true)
        components?.fragment = "representation=\(id)"
        return components?.url ?? manifest
    }
}
