// Playhead: opening a DASH manifest that uses content steering (`ContentSteering`, DASH-IF's
// Content Steering): its top-level `BaseURL`s are the pathways, named by `serviceLocation`.
// With `queryBeforeStart` the first steering manifest is read while the stream opens (at most
// `NetworkOptions.steeringWait`), and the location it ranks first plays from the first request; without
// it (or when it cannot be had) the `defaultServiceLocation` plays first and the steering
// server is asked as soon as an engine takes the stream. A `proxyServerURL` is asked instead
// of the steering server, every time. The client that reads the later manifests is the HLS
// one, speaking DASH's names (HLSContentSteering.swift).
//
// Concurrency: runs on the thread that opens the input, blocking it on the network.
import FFmpegBridge
import Foundation

extension StreamedOpen {
    /// What the open learnt about a DASH manifest's service locations.
    struct DASHSteeringStart {
        /// The `ContentSteering` element, when the manifest has one.
        var tag: DASHSteeringTag?
        /// The first steering manifest, when asked for before the start and had; why not, when
        /// it could not be had.
        var manifest: HLSSteeringManifest?
        var failure: FetchFailure?
        /// The service locations in the order to try the manifest's locations in.
        var preferring: [String] = []
        /// The service location of each of the manifest's locations, in that order.
        var locations: [String] = []

        /// No content steering.
        init() {}

        /// Reads `mpd`'s steering element (against `base`) and, when it asks for it, the
        /// first steering manifest (waiting at most `steeringWait` seconds for it), and orders
        /// the manifest's locations by them.
        init(
            _ mpd: XMLTree, base: URL, fetcher: HTTPFetcher, secure: Bool, limit: Int, timeout: Double,
            steeringWait: Double, interrupt: InterruptDeadline
        ) {
            tag = DASHManifest.steering(of: mpd, base: base)
            if let tag, tag.queryBeforeStart {
                let result = HLSSteeringManifest.fetch(
                    tag.serverURL, dialect: .dash, pathway: tag.defaultLocations.first,
                    throughput: ProcessThroughput.lastEstimate(for: HLSStreamLoader.serverKey(base)), proxy: tag.proxyURL,
                    fetcher: fetcher,
                    secure: secure, limit: limit, timeout: min(timeout, steeringWait),
                    shouldStop: { _, _ in interrupt.isAborted ? .cancelled : nil })
                switch result {
                case .success(let read): manifest = read
                case .failure(.fetch(let why)): failure = why
                case .failure(.notAManifest): failure = .refused("not a steering manifest")
                }
            }
            preferring = (manifest?.priority ?? []) + (tag?.defaultLocations ?? [])
            locations = DASHManifest.baseURLElements(of: mpd, preferring: preferring).map(DASHManifest.serviceLocation(of:))
        }

        /// Has `loader` read the steering manifests: after the first one's TTL
        /// (at its `RELOAD-URI`) when it was read at the open, at once otherwise (10 s after a
        /// failed first read). (The first one, read at the open, is given to each loader as it
        /// is made: `HLSStreamLoader(steeredBy:)`.)
        func steer(
            _ loader: HLSStreamLoader, tag: DASHSteeringTag, location: MediaLocation, timeout: Double, log: StreamingLog,
            makeFetcher: () -> HTTPFetcher
        ) {
            loader.steerBy(
                manifest?.reloadURL ?? tag.serverURL, after: manifest?.timeToLive ?? (tag.queryBeforeStart ? 10 : 0),
                settings: .init(
                    dialect: .dash, fetcher: makeFetcher(), secure: location.requiresTLS,
                    limit: location.network.maximumPlaylistBytes, timeout: timeout, proxy: tag.proxyURL),
                log: log)
        }
    }
}
