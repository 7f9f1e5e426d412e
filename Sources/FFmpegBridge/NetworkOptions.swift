// Playhead: how network inputs are requested: headers, user agent, reconnection, and the
// libavformat options that carry them.
//
// Concurrency: a value type; build it anywhere. `apply(to:)` runs on the thread that opens the
// format context.
internal import CFFmpeg
import Foundation

/// Request settings for http(s) inputs.
package struct NetworkOptions: Sendable, Equatable {
    /// Extra request headers, name to value (CR and LF are removed from both).
    package var headers: [String: String] = [:]
    /// The `User-Agent` header; nil uses Playhead's own.
    package var userAgent: String?
    /// Reconnect after a dropped connection or a network error (libavformat's http
    /// `reconnect` options). Default true.
    package var reconnects = true
    /// The longest wait between reconnection attempts, in seconds (attempts wait 0, 1, 3, 7...
    /// seconds and stop once the next wait would exceed this). Default 2, so a connection that
    /// stays dead fails after about a second instead of minutes.
    package var maximumReconnectDelay = 2

    /// How many times a live HLS playlist may be reloaded without new segments before the
    /// stream counts as ended (libavformat's `m3u8_hold_counters`, 1000 by default, which
    /// would keep a dead live stream "loading" for an hour or more).
    package var maximumStaleReloads = 20

    /// The most bytes one HLS or DASH playlist may hold (top-level or nested). A larger one
    /// fails the input with "playlist larger than 4 MiB". 0: no limit. Default 4 MiB.
    package var maximumPlaylistBytes = 4 << 20

    /// The most bytes one segment (or key or init section) of a playlist may hold; a larger one
    /// fails the input. 0: no limit. Default 256 MiB. Progressive files are not bounded.
    package var maximumSegmentBytes = 256 << 20

    /// The longest an open waits for a content steering server's first ranking, in seconds,
    /// before it starts on the playlist's own choice of pathway (a slow steering server must
    /// not hold the start up). Default 1.5.
    package var steeringWait = 1.5

    /// The longest an HLS open waits for all the documents its `EXT-X-SESSION-DATA` tags name,
    /// in seconds; those not had by then give no metadata item. Default 3.
    package var sessionDataWait = 3.0

    /// The longest a step of trick play (playing backward, fast forward) waits for an HLS
    /// stream's I-frame playlist before it takes the keyframe from its whole segment, in
    /// seconds. Default 2.
    package var keyframePlaylistWait = 2.0

    /// The user agent sent when none is set.
    package static let defaultUserAgent = "Playhead"

    /// Settings with the defaults.
    package init() {}

    /// The `headers` option value: "Name: value\r\n" lines in a stable order.
    package var headerLines: String {
        headers.sorted { $0.key < $1.key }.map { name, value in
            "\(Self.clean(name)): \(Self.clean(value))\r\n"
        }.joined()
    }

    /// Adds the http protocol options to an `avformat_open_input` dictionary.
    func apply(to options: inout OpaquePointer?) {
        av_dict_set(&options, "user_agent", Self.clean(userAgent ?? Self.defaultUserAgent), 0)
        av_dict_set_int(&options, "m3u8_hold_counters", Int64(max(1, maximumStaleReloads)), 0)
        // Every playlist reload and segment goes through io_open as an input of its own, so the
        // size limits count one resource at a time (a kept-alive HLS input would add them up).
        av_dict_set(&options, "http_persistent", "0", 0)
        let lines = headerLines
        if !lines.isEmpty { av_dict_set(&options, "headers", lines, 0) }
        if reconnects {
            av_dict_set(&options, "reconnect", "1", 0)
            av_dict_set(&options, "reconnect_streamed", "1", 0)
            av_dict_set(&options, "reconnect_on_network_error", "1", 0)
            av_dict_set_int(&options, "reconnect_delay_max", Int64(max(0, maximumReconnectDelay)), 0)
        }
    }

    /// `text` without CR or LF, so a value cannot add header lines of its own.
    static func clean(_ text: String) -> String {
        String(text.unicodeScalars.filter { $0 != "\r" && $0 != "\n" })
    }
}
