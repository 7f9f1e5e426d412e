// Playhead: the one-line status `playhead play` keeps redrawing on a terminal.

/// A snapshot of playback for the status line.
public struct StatusSnapshot: Sendable, Equatable {
    /// "playing", "paused", "buffering", "stalled", "ended", ...
    public var state: String
    /// Item time in seconds.
    public var position: Double
    /// Duration in seconds; nil when unknown.
    public var duration: Double?
    /// Seconds buffered ahead of the position.
    public var bufferedAhead: Double
    /// The playback rate.
    public var rate: Float
    /// Stalls so far.
    public var stalls: Int
    /// Audio dropouts (the output found no audio ready while playing) so far.
    public var dropouts: Int
    /// The `BANDWIDTH` of the adaptive stream's variant playing, bits per second; nil for
    /// other inputs.
    public var variantBitrate: Int?

    /// Creates a snapshot.
    public init(
        state: String, position: Double, duration: Double?, bufferedAhead: Double, rate: Float,
        stalls: Int = 0, dropouts: Int = 0, variantBitrate: Int? = nil
    ) {
        self.dropouts = dropouts
        self.variantBitrate = variantBitrate
        self.state = state
        self.position = position
        self.duration = duration
        self.bufferedAhead = bufferedAhead
        self.rate = rate
        self.stalls = stalls
    }
}

/// Renders `StatusSnapshot`s as a single terminal line.
public enum StatusLine {
    /// The line for `snapshot`, at most `width` characters, e.g.
    /// `playing   00:12 / 01:03 [#####---------------]  buffered 8.2 s  1x`.
    public static func render(_ snapshot: StatusSnapshot, width: Int = 80) -> String {
        let state = snapshot.state.padding(toLength: 9, withPad: " ", startingAt: 0)
        let times = clock(snapshot.position) + " / " + (snapshot.duration.map(clock) ?? "--:--")
        let rate = DecimalText.format(Double(snapshot.rate), maximumFractionDigits: 2) + "x"
            + (snapshot.variantBitrate.map { "  " + variantText($0) } ?? "")
        let buffered = "buffered " + MediaText.fixed(max(0, snapshot.bufferedAhead), fractionDigits: 1)
            + " s"
        let stalls = (snapshot.stalls > 0 ? "  stalls \(snapshot.stalls)" : "")
            + (snapshot.dropouts > 0 ? "  dropouts \(snapshot.dropouts)" : "")
        let fixed = state + " " + times + "  " + buffered + "  " + rate + stalls
        let barWidth = max(0, min(30, width - fixed.count - 4))
        let bar = barWidth >= 5 ? " " + progressBar(snapshot, width: barWidth) : ""
        let line = state + " " + times + bar + "  " + buffered + "  " + rate + stalls
        return String(line.prefix(width))
    }

    /// A variant's bit rate: "2.5 Mb/s", "800 kb/s".
    static func variantText(_ bitsPerSecond: Int) -> String {
        bitsPerSecond >= 1_000_000
            ? DecimalText.format(Double(bitsPerSecond) / 1_000_000, maximumFractionDigits: 1) + " Mb/s"
            : "\(bitsPerSecond / 1000) kb/s"
    }

    /// `[####----]`: played part as #, buffered-ahead part as =, the rest as -.
    static func progressBar(_ snapshot: StatusSnapshot, width: Int) -> String {
        let inner = width - 2
        guard let duration = snapshot.duration, duration > 0, inner > 0 else {
            return "[" + String(repeating: "-", count: max(0, inner)) + "]"
        }
        let played = Int((min(1, max(0, snapshot.position / duration)) * Double(inner)).rounded(.down))
        let loadedEnd = min(duration, snapshot.position + max(0, snapshot.bufferedAhead))
        let loaded = Int((loadedEnd / duration * Double(inner)).rounded(.down))
        let buffered = max(0, loaded - played)
        let rest = max(0, inner - played - buffered)
        return "[" + String(repeating: "#", count: played) + String(repeating: "=", count: buffered)
            + String(repeating: "-", count: rest) + "]"
    }

    /// MM:SS below an hour, H:MM:SS from one hour.
    static func clock(_ seconds: Double) -> String {
        let total = max(0, Int(seconds.isFinite ? seconds.rounded(.down) : 0))
        let (hours, minutes, secs) = (total / 3600, total / 60 % 60, total % 60)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return hours > 0 ? "\(hours):\(two(minutes)):\(two(secs))" : "\(two(minutes)):\(two(secs))"
    }
}
