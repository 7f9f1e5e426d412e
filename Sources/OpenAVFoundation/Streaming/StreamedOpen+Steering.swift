// Playhead: opening a stream that uses content steering (HLSPathways.swift): the first steering
// manifest is read before the variants are chosen, so the pathway it ranks first is played
// from the first segment on (the tag's `PATHWAY-ID`, or the first pathway listed, when it
// cannot be had in `NetworkOptions.steeringWait`: a slow steering server must not hold the start up; it is
// then asked again 10 s after playback starts); the client that reads the later ones is made
// with the loader and started when an engine takes the stream.
//
// Concurrency: runs on the thread that opens the input, blocking it on the network.
import FFmpegBridge
import Foundation

extension StreamedOpen {
    /// What the open learnt about a stream's pathways.
    struct SteeringStart {
        /// `EXT-X-CONTENT-STEERING`, when the playlist has it.
        let tag: HLSSteeringTag?
        /// The first manifest, when it could be had; why not, when it could not.
        let manifest: HLSSteeringManifest?
        let failure: FetchFailure?
        /// The pathway played from the start.
        let pathway: String

        /// Reads `master`'s first steering manifest (naming the throughput last measured to
        /// `server`), waiting at most `timeout` seconds, and picks the pathway to start on.
        ///
        /// - Throws: `.cancelled` when the open was aborted meanwhile.
        init(
            _ master: HLSMultivariantPlaylist, server: String, fetcher: HTTPFetcher, secure: Bool, limit: Int,
            timeout: Double, stop: @escaping (Int, Double) -> FetchStop?
        ) throws(MediaFailure) {
            tag = master.steering
            var manifest: HLSSteeringManifest?
            var failure: FetchFailure?
            if let tag {
                let result = HLSSteeringManifest.fetch(
                    tag.serverURL, pathway: tag.pathway, throughput: ProcessThroughput.lastEstimate(for: server),
                    fetcher: fetcher, secure: secure, limit: limit, timeout: timeout,
                    shouldStop: stop)
                switch result {
                case .success(let read): manifest = read
                case .failure(.fetch(.cancelled)): throw .cancelled
                case .failure(.fetch(let why)): failure = why
                case .failure(.notAManifest): failure = .refused("not a steering manifest")
                }
            }
            self.manifest = manifest
            self.failure = failure
            pathway = master.startPathway(priority: manifest?.priority ?? [])
        }

        /// Has `loader` read the later manifests (from the first one's `RELOAD-URI` after its
        /// TTL; from the tag's URI after 10 s when it could not be had). (The first one is given
        /// to each loader as it is made, `HLSStreamLoader(steeredBy:)`: its clones are sources
        /// before the first segment.)
        func steer(_ loader: HLSStreamLoader, tag: HLSSteeringTag, settings: HLSContentSteering.Settings, log: StreamingLog) {
            loader.steerBy(manifest?.reloadURL ?? tag.serverURL, after: manifest?.timeToLive ?? 10, settings: settings, log: log)
        }
    }
}

extension HLSVariant {
    /// An audio rendition's playlist at `url`, played on `pathway` (nil: no pathways), with its
    /// backups: the same rendition on the other pathways, or in a backup stream's copy of its
    /// group (HLSRedundantStreams.swift).
    static func unlisted(_ url: URL, pathway: String?, backups rendition: HLSAudioRendition) -> HLSVariant {
        var variant = unlisted(url)
        if let pathway { variant.pathway = pathway }
        variant.backups = rendition.backups
        variant.backupPathways = rendition.backupPathways
        variant.stableID = rendition.stableID
        return variant
    }
}
