// Playhead: what `playhead play --report json` prints when playback ends.

/// The outcome of playing one input, or of a whole `play` run.
public struct PlayReport: Sendable, Equatable {
    /// How playback ended.
    public enum Status: String, Sendable {
        /// Played to the end (or to `--frames N`).
        case completed
        /// Stopped by an error.
        case failed
        /// Stopped by the user (q, Ctrl-C) before the end.
        case stopped
    }

    /// The input as the user typed it (nil for the whole run).
    public var input: String?
    /// How playback ended.
    public var status: Status
    /// The error's one-line reason when `status` is `failed`.
    public var error: String?
    /// The item's duration in seconds; nil when unknown.
    public var duration: Double?
    /// The last item time reached, in seconds.
    public var position: Double
    /// Video frames shown.
    public var videoFramesPresented: Int
    /// Video frames decoded but dropped because they were late.
    public var videoFramesDropped: Int
    /// Seconds of audio sent to the output.
    public var audioSeconds: Double
    /// Times playback stalled waiting for data.
    public var stalls: Int
    /// Times the audio output found no audio ready while playing (a dropout heard).
    public var audioUnderruns = 0
    /// Times the sound server's own buffer for the stream ran dry while playing (a gap heard
    /// even with the ring full: the server or this process was not scheduled in time).
    public var audioDeviceUnderruns = 0
    /// Times the sound server went away (playback went on silently until it was back).
    public var audioServerLosses = 0
    /// Seconds playback spent stalled.
    public var stallSeconds = 0.0
    /// For an adaptive HLS stream: the variant playing at the end (`BANDWIDTH`, bits per
    /// second), how often the variant changed, and the throughput observed over every segment
    /// (bits per second); nil for other inputs.
    public var variant: VariantFigures?

    /// What an adaptive stream's loader did.
    public struct VariantFigures: Sendable, Equatable {
        public var bandwidth: Int?
        public var switches: Int
        public var observedBitrate: Double

        /// Creates the figures.
        public init(bandwidth: Int?, switches: Int, observedBitrate: Double) {
            self.bandwidth = bandwidth
            self.switches = switches
            self.observedBitrate = observedBitrate
        }
    }

    /// Creates a report.
    public init(
        input: String?, status: Status, error: String? = nil, duration: Double? = nil,
        position: Double = 0, videoFramesPresented: Int = 0, videoFramesDropped: Int = 0,
        audioSeconds: Double = 0, stalls: Int = 0
    ) {
        self.input = input
        self.status = status
        self.error = error
        self.duration = duration
        self.position = position
        self.videoFramesPresented = videoFramesPresented
        self.videoFramesDropped = videoFramesDropped
        self.audioSeconds = audioSeconds
        self.stalls = stalls
    }

    /// The report as JSON: the fields above in order (`input` only for items).
    public var jsonValue: JSONValue {
        var object: JSONObject = [:]
        if let input { object["input"] = .string(input) }
        object["status"] = .string(status.rawValue)
        object["error"] = JSONValue(error)
        object["duration"] = JSONValue(duration)
        object["position"] = .number(position)
        object["videoFramesPresented"] = .integer(videoFramesPresented)
        object["videoFramesDropped"] = .integer(videoFramesDropped)
        object["audioSeconds"] = .number(audioSeconds)
        object["stalls"] = .integer(stalls)
        object["audioUnderruns"] = .integer(audioUnderruns)
        object["audioDeviceUnderruns"] = .integer(audioDeviceUnderruns)
        object["audioServerLosses"] = .integer(audioServerLosses)
        object["stallSeconds"] = .number((stallSeconds * 1000).rounded() / 1000)
        if let variant {
            object["variantBitrate"] = JSONValue(variant.bandwidth)
            object["variantSwitches"] = .integer(variant.switches)
            object["observedBitrate"] = .number(variant.observedBitrate.rounded())
        }
        return .object(object)
    }

    /// The run's report: the last item's figures summed over items, with every item listed.
    public static func run(items: [PlayReport]) -> JSONValue {
        let failed = items.first { $0.status == .failed }
        let stopped = items.contains { $0.status == .stopped }
        let status: Status = failed != nil ? .failed : stopped ? .stopped : .completed
        let last = items.last
        var summary = PlayReport(
            input: nil, status: status, error: failed?.error, duration: last?.duration,
            position: last?.position ?? 0)
        summary.videoFramesPresented = items.reduce(0) { $0 + $1.videoFramesPresented }
        summary.videoFramesDropped = items.reduce(0) { $0 + $1.videoFramesDropped }
        summary.audioSeconds = items.reduce(0) { $0 + $1.audioSeconds }
        summary.stalls = items.reduce(0) { $0 + $1.stalls }
        summary.audioUnderruns = items.reduce(0) { $0 + $1.audioUnderruns }
        summary.audioDeviceUnderruns = items.reduce(0) { $0 + $1.audioDeviceUnderruns }
        summary.audioServerLosses = items.reduce(0) { $0 + $1.audioServerLosses }
        summary.stallSeconds = items.reduce(0) { $0 + $1.stallSeconds }
        guard case .object(var object) = summary.jsonValue else { return summary.jsonValue }
        object["items"] = .array(items.map(\.jsonValue))
        return .object(object)
    }
}
