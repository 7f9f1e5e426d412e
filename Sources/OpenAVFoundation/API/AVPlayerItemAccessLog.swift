// Playhead: AVPlayerItemAccessLog and AVPlayerItemErrorLog, Apple's record of what an item's
// network playback did: one access event per stretch of playback on one variant, one error
// event per failed request.
//
// Concurrency: logs and events are immutable snapshots, safe to pass between threads.
import Foundation

/// The access log of an item: its events in time order.
open class AVPlayerItemAccessLog: NSObject, @unchecked Sendable {
    /// The events, oldest first; the last one is still being added to while the item plays.
    public let events: [AVPlayerItemAccessLogEvent]

    init(events: [AVPlayerItemAccessLogEvent]) {
        self.events = events
        super.init()
    }

    /// The log in the W3C Extended Log File Format, one line per event.
    open func extendedLogData() -> Data? {
        Data(W3CLog.text(fields: AVPlayerItemAccessLogEvent.w3cFields, rows: events.map(\.w3cValues)).utf8)
    }

    /// The encoding of `extendedLogData()`: UTF-8.
    open var extendedLogDataStringEncoding: UInt { String.Encoding.utf8.rawValue }
}

/// One stretch of an item's playback on one variant, with its network counters.
///
/// Values not known are negative (numbers) or nil, as on Apple platforms.
open class AVPlayerItemAccessLogEvent: NSObject, @unchecked Sendable {
    /// When playback of this stretch began.
    public let playbackStartDate: Date?
    /// The variant's media playlist URL.
    public let uri: String?
    /// The IP address of the server the last segment came from (the host name's first
    /// resolved address; nil before the first segment of the stretch).
    public let serverAddress: String?
    /// How often the server changed during the stretch.
    public let numberOfServerAddressChanges: Int
    /// An identifier shared by every event of one playback session.
    public let playbackSessionID: String?
    /// Where in the media the stretch began, seconds.
    public let playbackStartOffset: TimeInterval
    /// Media segments requested.
    public let numberOfMediaRequests: Int
    /// Seconds of media downloaded.
    public let segmentsDownloadedDuration: TimeInterval
    /// Seconds of media played on this variant: from where the stretch began to where the next
    /// began (the last: to the item's time when the log was read); a seek inside a stretch is
    /// not subtracted.
    public let durationWatched: TimeInterval
    /// Times playback stalled (counted in the event going on when it stalled).
    public let numberOfStalls: Int
    /// Bytes transferred.
    public let numberOfBytesTransferred: Int64
    /// Seconds spent transferring.
    public let transferDuration: TimeInterval
    /// Throughput over all media downloaded, bits per second.
    public let observedBitrate: Double
    /// The standard deviation of the per-segment throughputs, bits per second.
    public let observedBitrateStandardDeviation: Double
    /// The variant's `BANDWIDTH`, bits per second.
    public let indicatedBitrate: Double
    /// The variant's `AVERAGE-BANDWIDTH`, bits per second (-1 when not given).
    public let indicatedAverageBitrate: Double
    /// The throughput estimate that made the player switch to this variant (-1 for the first).
    public let switchBitrate: Double
    /// Dropped video frames (the item's, counted in the event going on).
    public let numberOfDroppedVideoFrames: Int
    /// Seconds from the moment a player began opening the item until it was ready to play, in
    /// the first event (0 in later ones, -1 when unknown).
    public let startupTime: TimeInterval
    /// Segments that took too long and were abandoned.
    public let downloadOverdue: Int
    /// "VOD", "LIVE" or "FILE".
    public let playbackType: String?
    /// Requests over a cellular network: none on Linux.
    public let mediaRequestsWWAN: Int
    /// Average video and audio bit rates (-1: not known).
    public let averageVideoBitrate: Double
    public let averageAudioBitrate: Double

    init(_ record: StreamingLog.AccessRecord) {
        playbackStartDate = record.startDate
        uri = record.uri
        serverAddress = record.server ?? record.playlistServer
        numberOfServerAddressChanges = record.serverChanges
        playbackSessionID = record.sessionID
        playbackStartOffset = record.startOffset
        numberOfMediaRequests = record.requests
        segmentsDownloadedDuration = record.mediaSeconds
        durationWatched = record.watched
        numberOfStalls = record.stalls
        numberOfBytesTransferred = record.bytes
        transferDuration = record.transferSeconds
        observedBitrate = record.transferSeconds > 0 ? Double(record.bytes) * 8 / record.transferSeconds : -1
        observedBitrateStandardDeviation = record.rateDeviation
        indicatedBitrate = record.indicatedBitrate
        indicatedAverageBitrate = record.indicatedAverageBitrate
        switchBitrate = record.switchBitrate
        numberOfDroppedVideoFrames = record.droppedFrames
        startupTime = record.startupTime
        downloadOverdue = record.overdue
        playbackType = "VOD"
        mediaRequestsWWAN = 0
        averageVideoBitrate = -1
        averageAudioBitrate = -1
        super.init()
    }

    static let w3cFields = [
        "date", "time", "uri", "cs-guid", "s-ip", "s-ip-changes", "sc-count", "c-duration-downloaded",
        "c-start-time", "c-duration-watched", "bytes", "c-observed-bitrate", "sc-indicated-bitrate", "c-stalls",
        "c-frames-dropped", "c-startup-time", "c-overdue", "c-observed-bitrate-sd", "s-playback-type",
        "sc-wwan-count", "c-switch-bitrate",
    ]

    var w3cValues: [String] {
        let (date, time) = W3CLog.dateAndTime(playbackStartDate)
        return [
            date, time, uri ?? "-", playbackSessionID ?? "-", serverAddress ?? "-", "\(numberOfServerAddressChanges)",
            "\(numberOfMediaRequests)", W3CLog.number(segmentsDownloadedDuration), W3CLog.number(playbackStartOffset),
            W3CLog.number(durationWatched), "\(numberOfBytesTransferred)", W3CLog.number(observedBitrate),
            W3CLog.number(indicatedBitrate), "\(numberOfStalls)", "\(numberOfDroppedVideoFrames)",
            W3CLog.number(startupTime), "\(downloadOverdue)", W3CLog.number(observedBitrateStandardDeviation),
            playbackType ?? "-", "\(mediaRequestsWWAN)", W3CLog.number(switchBitrate),
        ]
    }
}

/// The error log of an item: its failed requests in time order.
open class AVPlayerItemErrorLog: NSObject, @unchecked Sendable {
    /// The events, oldest first.
    public let events: [AVPlayerItemErrorLogEvent]

    init(events: [AVPlayerItemErrorLogEvent]) {
        self.events = events
        super.init()
    }

    /// The log in the W3C Extended Log File Format, one line per event.
    open func extendedLogData() -> Data? {
        let rows = events.map { event -> [String] in
            let (date, time) = W3CLog.dateAndTime(event.date)
            return [date, time, event.uri ?? "-", event.playbackSessionID ?? "-", event.serverAddress ?? "-",
                "\(event.errorStatusCode)", event.errorDomain, event.errorComment ?? "-"]
        }
        let fields = ["date", "time", "uri", "cs-guid", "s-ip", "status", "domain", "comment"]
        return Data(W3CLog.text(fields: fields, rows: rows).utf8)
    }

    /// The encoding of `extendedLogData()`: UTF-8.
    open var extendedLogDataStringEncoding: UInt { String.Encoding.utf8.rawValue }
}

/// One failed request of an item's network playback.
open class AVPlayerItemErrorLogEvent: NSObject, @unchecked Sendable {
    /// When it failed.
    public let date: Date?
    /// The URL requested.
    public let uri: String?
    /// The IP address of the server asked (its host name when that does not resolve).
    public let serverAddress: String?
    /// The playback session's identifier.
    public let playbackSessionID: String?
    /// The HTTP status, or a negative code for failures without one.
    public let errorStatusCode: Int
    /// "CoreMediaErrorDomain" for HTTP statuses, "NSURLErrorDomain" for transport failures.
    public let errorDomain: String
    /// What went wrong, in words.
    public let errorComment: String?

    init(_ record: StreamingLog.ErrorRecord) {
        date = record.date
        uri = record.uri
        serverAddress = record.server
        playbackSessionID = record.sessionID
        errorStatusCode = record.status
        errorDomain = record.domain
        errorComment = record.comment
        super.init()
    }
}

/// W3C Extended Log File Format text.
enum W3CLog {
    static func text(fields: [String], rows: [[String]]) -> String {
        (["#Version: 1.0", "#Software: Playhead", "#Fields: " + fields.joined(separator: " ")]
            + rows.map { $0.map { $0.replacingOccurrences(of: " ", with: "%20") }.joined(separator: " ") })
            .joined(separator: "\n") + "\n"
    }

    static func number(_ value: Double) -> String { value < 0 ? "-" : String(format: "%.3f", value) }

    static func dateAndTime(_ date: Date?) -> (String, String) {
        guard let date else { return ("-", "-") }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd"
        let day = formatter.string(from: date)
        formatter.dateFormat = "HH:mm:ss.SSS"
        return (day, formatter.string(from: date))
    }
}
