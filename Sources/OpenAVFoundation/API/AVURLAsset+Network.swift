// Playhead: the AVURLAsset option keys for http(s) media (request headers, user agent) and
// how an options dictionary becomes the engine's network settings.
//
// Concurrency: constants and a pure function; use from any thread.
import FFmpegBridge
import Foundation

/// Options key: extra HTTP request headers (a `[String: String]`) sent with every request for
/// the asset's media, including HLS and DASH playlists and segments.
///
/// - Note: Apple's player accepts this key without documenting it; Playhead documents it.
public let AVURLAssetHTTPHeaderFieldsKey: String = "AVURLAssetHTTPHeaderFieldsKey"

/// Options key: the `User-Agent` header (a `String`) for the asset's HTTP requests.
public let AVURLAssetHTTPUserAgentKey: String = "AVURLAssetHTTPUserAgentKey"

/// Options key: whether to reconnect after a dropped connection (a `Bool`, default true).
///
/// - Note: A Playhead addition.
public let AVURLAssetPlayheadReconnectsKey: String = "PlayheadReconnects"

extension AVURLAsset {
    /// The network settings an options dictionary asks for (the defaults for missing keys).
    static func networkOptions(from options: [String: Any]?) -> NetworkOptions {
        var network = NetworkOptions()
        if let headers = options?[AVURLAssetHTTPHeaderFieldsKey] as? [String: String] {
            network.headers = headers
        }
        if let agent = options?[AVURLAssetHTTPUserAgentKey] as? String, !agent.isEmpty {
            network.userAgent = agent
        }
        if let reconnects = options?[AVURLAssetPlayheadReconnectsKey] as? Bool {
            network.reconnects = reconnects
        }
        return network
    }
}
