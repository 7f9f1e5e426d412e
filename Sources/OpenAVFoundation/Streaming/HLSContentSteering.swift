// Playhead: content steering's manifest and the client that keeps it (RFC 8216bis 4.4.6.6
// and 7.2, Apple's HLS Content Steering specification; DASH-IF's Content Steering for DASH,
// the same manifest with DASH's names). The steering server ranks the stream's pathways
// (`PATHWAY-PRIORITY`; DASH's service locations, `SERVICE-LOCATION-PRIORITY`) and says when
// to ask again (`TTL`, at `RELOAD-URI`); each request names the pathway playing
// (`_HLS_pathway`; `_DASH_pathway` lists every one used since the last request) and the throughput measured (`_HLS_throughput`,
// `_DASH_throughput`). The first manifest is read while the stream opens (the pathway played
// from the first segment on); this client reads the later ones on a thread of its own and
// hands each ranking (with the pathways it clones) to the loader, which moves to the best
// pathway it can use (HLSStreamLoader+Pathways.swift). A manifest that cannot be had leaves an error log event
// and the ranking as it was, and is asked for again after twice the last wait (10 s at
// least, 300 s at most); a server answering 410 (Gone) is not asked again.
//
// Concurrency: `fetchManifest` blocks its caller (the open, or the client's thread). The
// client's thread waits on `condition` for its next reload or `close()`; `closed` is guarded
// by it; the handlers it calls are the loader's, which lock for themselves.
import Foundation

/// One steering manifest: version 1, a non-empty ranking.
struct HLSSteeringManifest: Equatable, Sendable {
    /// The names a streaming format gives the ranking and the request's parameters.
    enum Dialect: Sendable {
        case hls, dash

        var priorityKey: String { self == .hls ? "PATHWAY-PRIORITY" : "SERVICE-LOCATION-PRIORITY" }
        var pathwayParameter: String { self == .hls ? "_HLS_pathway" : "_DASH_pathway" }
        var throughputParameter: String { self == .hls ? "_HLS_throughput" : "_DASH_throughput" }
    }

    /// Seconds until the manifest should be read again (`TTL`, 300 when not given).
    let timeToLive: Double
    /// Where to read it next (`RELOAD-URI`, resolved against where it came from), when given.
    let reloadURL: URL?
    /// `PATHWAY-PRIORITY`: the pathways, best first.
    let priority: [String]
    /// `PATHWAY-CLONES`: pathways (DASH: service locations) made by copying others.
    var clones: [HLSPathwayClone] = []

    /// This manifest when it clones pathways (the first one, read at the open, is then given
    /// to the loaders as they are made; its ranking alone was applied by where they start).
    var withClones: HLSSteeringManifest? { clones.isEmpty ? nil : self }

    /// The manifest in `data` (JSON) read from `base`; nil when it is not a version 1 manifest
    /// with a non-empty ranking (`PATHWAY-PRIORITY`, or DASH's `SERVICE-LOCATION-PRIORITY`).
    init?(json data: Data, base: URL, dialect: Dialect = .hls) {
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            (object["VERSION"] as? NSNumber)?.intValue == 1,
            let priority = object[dialect.priorityKey] as? [String], !priority.isEmpty
        else { return nil }
        self.priority = priority
        let ttl = (object["TTL"] as? NSNumber)?.doubleValue ?? 300
        timeToLive = ttl.isFinite && ttl > 0 ? ttl : 300
        reloadURL = (object["RELOAD-URI"] as? String).flatMap { URL(string: $0, relativeTo: base)?.absoluteURL }
        clones = (object["PATHWAY-CLONES"] as? [[String: Any]] ?? []).compactMap {
            HLSPathwayClone($0, base: base, perStreamURIs: dialect == .hls)
        }
    }

    /// The bytes of a `data:` URI (base64 or percent-encoded); nil for any other URL.
    static func inlineData(_ url: URL) -> Data? {
        let text = url.absoluteString
        guard text.hasPrefix("data:"), let comma = text.firstIndex(of: ",") else { return nil }
        let header = text[text.index(text.startIndex, offsetBy: 5)..<comma]
        let body = String(text[text.index(after: comma)...])
        if header.hasSuffix(";base64") { return Data(base64Encoded: body.removingPercentEncoding ?? body) }
        return (body.removingPercentEncoding ?? body).data(using: .utf8)
    }

    /// Why a manifest could not be had.
    enum Failure: Error, Equatable {
        case fetch(FetchFailure)
        case notAManifest
    }

    /// Reads the manifest at `url` (with the pathway playing and the throughput added to a
    /// remote one's query), through `fetcher` under the loader's safety rules. With `proxy`
    /// (DASH's `proxyServerURL`) the request goes there, `url` in its `url` parameter beside
    /// the pathway and throughput; a `RELOAD-URI` is still read against `url`.
    static func fetch(
        _ url: URL, dialect: Dialect = .hls, pathway: String?, throughput: Double?, proxy: URL? = nil,
        fetcher: HTTPFetcher, secure: Bool, limit: Int, timeout: Double,
        shouldStop: (Int, Double) -> FetchStop? = { _, _ in nil }
    ) -> Result<HLSSteeringManifest, Failure> {
        if let inline = inlineData(url) {
            return HLSSteeringManifest(json: inline, base: url, dialect: dialect).map { .success($0) } ?? .failure(.notAManifest)
        }
        var components = URLComponents(url: proxy ?? url, resolvingAgainstBaseURL: true)
        let named = [dialect.pathwayParameter, dialect.throughputParameter] + (proxy == nil ? [] : ["url"])
        var query = (components?.queryItems ?? []).filter { !named.contains($0.name) }
        if proxy != nil { query.append(URLQueryItem(name: "url", value: url.absoluteString)) }
        if let pathway { query.append(URLQueryItem(name: dialect.pathwayParameter, value: pathway)) }
        if let throughput, throughput.isFinite, throughput > 0 {
            query.append(URLQueryItem(name: dialect.throughputParameter, value: String(Int(throughput))))
        }
        components?.queryItems = query
        let asked = components?.url ?? url
        switch fetcher.fetch(asked, secure: secure, limit: limit, timeout: timeout, shouldStop: shouldStop) {
        case .failure(let failure): return .failure(.fetch(failure))
        case .success(let resource):
            let base = proxy == nil ? resource.finalURL : url
            return HLSSteeringManifest(json: resource.data, base: base, dialect: dialect).map { .success($0) }
                ?? .failure(.notAManifest)
        }
    }
}

/// Reads a stream's steering manifest again and again while it plays; see the file comment.
final class HLSContentSteering: @unchecked Sendable {
    /// What a reload needs besides the manifest's own URL.
    struct Settings: Sendable {
        var dialect: HLSSteeringManifest.Dialect = .hls
        let fetcher: HTTPFetcher
        let secure: Bool
        let limit: Int
        let timeout: Double
        /// The shortest and longest waits after a failure.
        var retry: ClosedRange<Double> = 10...300
        /// Where every request goes instead (DASH's `proxyServerURL`), when set.
        var proxy: URL? = nil
    }

    private let settings: Settings
    private let log: StreamingLog
    /// The pathway playing now and the throughput measured (called on the client's thread).
    private let pathway: @Sendable () -> String?
    private let throughput: @Sendable () -> Double?
    /// Takes each new manifest (called on the client's thread).
    private let apply: @Sendable (HLSSteeringManifest) -> Void
    private let condition = NSCondition()
    /// Guarded by `condition`.
    private var closed = false
    /// The client thread's: where and when to read next.
    private var url: URL
    private var wait: Double

    /// A client reading `url` first after `wait` seconds (the first manifest's TTL; less when
    /// it could not be had at the open).
    init(
        url: URL, wait: Double, settings: Settings, log: StreamingLog, pathway: @escaping @Sendable () -> String?,
        throughput: @escaping @Sendable () -> Double?, apply: @escaping @Sendable (HLSSteeringManifest) -> Void
    ) {
        self.url = url
        self.wait = wait
        self.settings = settings
        self.log = log
        self.pathway = pathway
        self.throughput = throughput
        self.apply = apply
    }

    /// Starts reading on a thread of its own.
    func start() { NamedThread.start("hls-steering") { [self] in run() } }

    /// Stops for good; returns at once (a request under way is cut).
    func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
        settings.fetcher.close()
    }

    /// The wait before asking again after a failure, when the wait before it was `wait`:
    /// twice as long, within `retry`.
    static func waitAfterFailure(_ wait: Double, within retry: ClosedRange<Double>) -> Double {
        min(max(wait * 2, retry.lowerBound), retry.upperBound)
    }

    private var isClosed: Bool {
        condition.lock()
        defer { condition.unlock() }
        return closed
    }

    private func run() {
        while true {
            condition.lock()
            let deadline = Date(timeIntervalSinceNow: wait)
            while !closed, Date() < deadline { _ = condition.wait(until: deadline) }
            let stop = closed
            condition.unlock()
            if stop { return }
            let result = HLSSteeringManifest.fetch(
                url, dialect: settings.dialect, pathway: pathway(), throughput: throughput(), proxy: settings.proxy,
                fetcher: settings.fetcher, secure: settings.secure, limit: settings.limit, timeout: settings.timeout, shouldStop: { [self] _, _ in isClosed ? .cancelled : nil })
            switch result {
            case .success(let manifest):
                wait = manifest.timeToLive
                if let reload = manifest.reloadURL { url = reload }
                apply(manifest)
            case .failure(.fetch(.cancelled)):
                return
            case .failure(.fetch(.httpStatus(410))):
                // Gone: steering is over for this stream.
                log.error(uri: url, failure: .httpStatus(410))
                return
            case .failure(.fetch(let failure)):
                log.error(uri: url, failure: failure)
                wait = Self.waitAfterFailure(wait, within: settings.retry)
            case .failure(.notAManifest):
                log.error(uri: url, failure: .refused("not a steering manifest"))
                wait = Self.waitAfterFailure(wait, within: settings.retry)
            }
        }
    }
}
