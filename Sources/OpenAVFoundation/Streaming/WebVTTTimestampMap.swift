// Playhead: the `X-TIMESTAMP-MAP` of an HLS WebVTT segment (RFC 8216 §3.5): where its cue
// times sit on the media's timestamps.
//
// Concurrency: a value and pure functions.
import Foundation

/// Where a WebVTT segment's cue times sit on the media's timestamps:
/// `X-TIMESTAMP-MAP=MPEGTS:<90 kHz ticks>,LOCAL:<cue time>`.
struct WebVTTTimestampMap: Equatable, Sendable {
    /// The media timestamp, in 90 kHz ticks (33 bits, as MPEG-TS carries it).
    let mpegTicks: Int64
    /// The cue time that falls on it, seconds.
    let local: Double

    /// The map in a WebVTT file's header (the lines before the first blank one), or nil.
    static func parse(_ text: String) -> WebVTTTimestampMap? {
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).prefix(16) {
            let line = line.trimmingCharacters(in: .whitespacesAndNewlines)
            if line.isEmpty { return nil }
            guard line.hasPrefix("X-TIMESTAMP-MAP=") else { continue }
            var ticks: Int64?
            var local: Double?
            for field in line.dropFirst("X-TIMESTAMP-MAP=".count).split(separator: ",") {
                let parts = field.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                guard parts.count == 2 else { continue }
                if parts[0] == "MPEGTS" { ticks = Int64(parts[1]) }
                if parts[0] == "LOCAL" { local = cueSeconds(parts[1]) }
            }
            guard let ticks, ticks >= 0, let local else { return nil }
            return WebVTTTimestampMap(mpegTicks: ticks, local: local)
        }
        return nil
    }

    /// A WebVTT timestamp (`hh:mm:ss.ttt` or `mm:ss.ttt`) in seconds.
    static func cueSeconds(_ text: String) -> Double? {
        let fields = text.split(separator: ":")
        guard (2...3).contains(fields.count) else { return nil }
        var seconds = 0.0
        for field in fields {
            guard let value = Double(field), value >= 0 else { return nil }
            seconds = seconds * 60 + value
        }
        return seconds
    }

    /// Seconds to add to a cue time to get item time, for media whose timestamp at item time
    /// zero is `origin` seconds. The 33-bit timestamp is taken in the wrap nearest `origin`.
    func offset(origin: Double) -> Double {
        let wrap = Double(Int64(1) << 33)
        var ticks = Double(mpegTicks)
        let target = origin * 90_000
        ticks += (((target - ticks) / wrap).rounded()) * wrap
        return ticks / 90_000 - local - origin
    }

    /// Seconds to add to a cue time to get item time, in a timeline (after a discontinuity)
    /// whose first mapped segment, with map `anchor`, starts at `start` seconds of item time:
    /// the anchor's media timestamp is taken to fall on that start. Tick differences are taken
    /// in the 33-bit wrap nearest zero.
    func offset(anchor: WebVTTTimestampMap, anchorStart start: Double) -> Double {
        let wrap = Int64(1) << 33
        var ticks = (mpegTicks - anchor.mpegTicks) % wrap
        if ticks > wrap / 2 { ticks -= wrap } else if ticks < -wrap / 2 { ticks += wrap }
        return start + Double(ticks) / 90_000 - local
    }
}
