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
/// `AVURLAsset` option: whether the asset may use cellular data (a `Bool`). Accepted and
/// ignored: Linux tells Playhead of no cellular or metered links.
public let AVURLAssetAllowsCellularAccessKey: String = "AVURLAssetAllowsCellularAccessKey"
/// `AVURLAsset` option: whether the asset may use expensive networks (a `Bool`). Accepted and
/// ignored, as `AVURLAssetAllowsCellularAccessKey`.
public let AVURLAssetAllowsExpensiveNetworkAccessKey: String = "AVURLAssetAllowsExpensiveNetworkAccessKey"
/// `AVURLAsset` option: whether the asset may use networks in low-data mode (a `Bool`).
/// Accepted and ignored, as `AVURLAssetAllowsCellularAccessKey`.
public let AVURLAssetAllowsConstrainedNetworkAccessKey: String = "AVURLAssetAllowsConstrainedNetworkAccessKey"

/// Options key: the `User-Agent` header (a `String`) for the asset's HTTP requests.
public let AVURLAssetHTTPUserAgentKey: String = "AVURLAssetHTTPUserAgentKey"

/// Options key: whether to reconnect after a dropped connection (a `Bool`, default true).
///
/// - Note: A Playhead addition.
public let AVURLAssetPlayheadReconnectsKey: String = "PlayheadReconnects"

/// Options key: the longest (seconds, a `Double` or `Int`) the start of an HLS or DASH stream
/// that uses content steering waits for the steering server's first ranking before it plays
/// the playlist's own choice of pathway. Default 1.5; a slow steering server never holds the
/// start up for longer, and is asked again later. No wait is longer than the asset's time-out
/// (`AVURLAssetPlayheadTimeoutKey`, 15 s by default).
///
/// - Note: A Playhead addition.
public let AVURLAssetPlayheadSteeringWaitKey: String = "PlayheadSteeringWait"

/// Options key: the longest (seconds, a `Double` or `Int`) an HLS open waits for the documents
/// its multivariant playlist's `EXT-X-SESSION-DATA` tags name (`URI`), all together. Default 3;
/// a document not had by then gives no metadata item and an error-log event. No wait is
/// longer than the asset's time-out (`AVURLAssetPlayheadTimeoutKey`).
///
/// - Note: A Playhead addition.
public let AVURLAssetPlayheadSessionDataWaitKey: String = "PlayheadSessionDataWait"

/// Options key: the longest (seconds, a `Double` or `Int`) the first step of trick play
/// (playing backward, fast forward) on an HLS stream waits for the I-frame playlist before it
/// reads the keyframe from its whole segment instead. Default 2. No wait is longer than the
/// asset's time-out (`AVURLAssetPlayheadTimeoutKey`).
///
/// - Note: A Playhead addition.
public let AVURLAssetPlayheadKeyframePlaylistWaitKey: String = "PlayheadKeyframePlaylistWait"

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
        if let wait = seconds(options?[AVURLAssetPlayheadSteeringWaitKey]), wait > 0 {
            network.steeringWait = wait
        }
        if let wait = seconds(options?[AVURLAssetPlayheadSessionDataWaitKey]), wait > 0 {
            network.sessionDataWait = wait
        }
        if let wait = seconds(options?[AVURLAssetPlayheadKeyframePlaylistWaitKey]), wait > 0 {
            network.keyframePlaylistWait = wait
        }
        return network
    }

    /// An option's value in seconds, given as a `Double` or an `Int`.
    private static func seconds(_ value: Any?) -> Double? {
        (value as? Double) ?? (value as? Int).map(Double.init)
    }
}
