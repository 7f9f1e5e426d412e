// Playhead: what an adaptive stream's loader did, kept as Apple's access and error logs:
// an access record per stretch on one variant (a new one at each switch), an error record per
// failed request.
//
// Concurrency: the loader threads write (and a live DASH item's clock measurement, on a thread
// of its own); any thread reads snapshots. All state is behind
// `records`'s lock. `onNewEntry` is called on the writing thread after the lock is released.
import Foundation

/// The access and error records of one item's stream.
final class StreamingLog: Sendable {
    /// One access-log event's counters.
    struct AccessRecord: Sendable {
        var startDate = Date()
        var uri: String?
        /// The address of the server the event's last request went to; before any completed,
        /// that of its playlist's server (`playlistServer`).
        var server: String?
        var playlistServer: String?
        /// Times the server's address changed within the event.
        var serverChanges = 0
        var sessionID: String?
        var startOffset = 0.0
        var requests = 0
        var mediaSeconds = 0.0
        var watched = -1.0
        var stalls = -1
        var bytes: Int64 = 0
        var transferSeconds = 0.0
        var rates: [Double] = []
        var indicatedBitrate = -1.0
        var indicatedAverageBitrate = -1.0
        var switchBitrate = -1.0
        var startupTime = -1.0
        var droppedFrames = -1
        var overdue = 0

        var rateDeviation: Double {
            guard rates.count > 1 else { return -1 }
            let mean = rates.reduce(0, +) / Double(rates.count)
            return (rates.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(rates.count)).squareRoot()
        }
    }

    /// One error-log event.
    struct ErrorRecord: Sendable {
        let date: Date
        let uri: String
        let server: String?
        let sessionID: String
        let status: Int
        let domain: String
        let comment: String
    }

    /// Which log gained an entry.
    enum Entry: Sendable { case access, error }

    private struct Records {
        var access: [AccessRecord] = []
        var errors: [ErrorRecord] = []
        var onNewEntry: (@Sendable (Entry) -> Void)?
        var variantSwitches = 0
    }

    private let records = Locked(Records())
    /// The identifier every event of this playback carries.
    let sessionID = UUID().uuidString

    /// Calls `handler` (on the loader's thread) whenever an event is added.
    func setNewEntryHandler(_ handler: (@Sendable (Entry) -> Void)?) {
        records.withLock { $0.onNewEntry = handler }
    }

    /// Snapshots for the app.
    var accessRecords: [AccessRecord] { records.withLock { $0.access } }
    var errorRecords: [ErrorRecord] { records.withLock { $0.errors } }
    /// Variant changes since the start.
    var variantSwitches: Int { records.withLock { $0.variantSwitches } }

    /// Starts the first event, on `variant`.
    func started(on variant: HLSVariant, at offset: Double) {
        // (The server is looked up here, outside the lock: the event names it from the start,
        // even when none of its requests completes, a segment abandoned at once.)
        let server = ServerAddressBook.address(of: variant.url)
        add(.access) { records in
            records.access.append(
                Self.record(variant, offset: offset, sessionID: sessionID, switchRate: -1, server: server))
        }
    }

    /// Starts a new event because the loader switched to `variant` on `estimate`.
    func switched(to variant: HLSVariant, estimate: Double) {
        let server = ServerAddressBook.address(of: variant.url)
        add(.access) { records in
            let offset = records.access.last.map { $0.startOffset + $0.mediaSeconds } ?? 0
            records.access.append(
                Self.record(variant, offset: offset, sessionID: sessionID, switchRate: estimate, server: server))
            records.variantSwitches += 1
        }
    }

    /// Counts a request of `url` on `variant`; its server's address is looked up here, on the
    /// loader's thread.
    func segmentFetched(
        _ url: URL, bytes: Int, seconds: Double, mediaSeconds: Double, from variant: HLSVariant, estimate: Double
    ) {
        let server = ServerAddressBook.address(of: url)
        update { record in
            if let server, let previous = record.server, previous != server { record.serverChanges += 1 }
            record.requests += 1
            record.bytes += Int64(bytes)
            record.transferSeconds += seconds
            record.mediaSeconds += mediaSeconds
            record.rates.append(Double(bytes) * 8 / max(seconds, 0.001))
            record.server = server ?? record.server
        }
    }

    /// Counts a request of an audio rendition's segment `url`, read beside the variant's: its
    /// bytes and transfer time join the current event (the media seconds are the variant's).
    func renditionSegmentFetched(_ url: URL, bytes: Int, seconds: Double) {
        update { record in
            record.requests += 1
            record.bytes += Int64(bytes)
            record.transferSeconds += seconds
        }
    }

    /// A request given up because nobody needs its bytes any more (a seek, an audio rendition
    /// parked, the item released): a request made, and what it brought was transferred.
    func requestCancelled(bytes: Int, seconds: Double) {
        update { record in
            record.requests += 1
            record.bytes += Int64(bytes)
            record.transferSeconds += seconds
        }
    }

    func segmentAbandoned(uri: URL) {
        update { record in
            record.requests += 1
            record.overdue += 1
        }
    }

    func error(uri: URL, failure: FetchFailure) {
        var status = -1
        var domain = "NSURLErrorDomain"
        if case .httpStatus(let code) = failure {
            status = code
            domain = "CoreMediaErrorDomain"
        }
        let record = ErrorRecord(
            date: Date(), uri: uri.absoluteString, server: ServerAddressBook.address(of: uri), sessionID: sessionID,
            status: status,
            domain: domain, comment: failure.reason)
        add(.error) { $0.errors.append(record) }
    }

    private static func record(
        _ variant: HLSVariant, offset: Double, sessionID: String, switchRate: Double, server: String?
    ) -> AccessRecord {
        var record = AccessRecord()
        record.uri = variant.url.absoluteString
        record.playlistServer = server
        record.sessionID = sessionID
        record.startOffset = offset
        record.indicatedBitrate = variant.bandwidth > 0 ? Double(variant.bandwidth) : -1
        record.indicatedAverageBitrate = variant.averageBandwidth.map(Double.init) ?? -1
        record.switchBitrate = switchRate
        return record
    }

    private func update(_ change: (inout AccessRecord) -> Void) {
        records.withLock { records in
            guard !records.access.isEmpty else { return }
            change(&records.access[records.access.count - 1])
        }
    }

    private func add(_ entry: Entry, _ change: (inout Records) -> Void) {
        let handler = records.withLock { records in
            change(&records)
            return records.onNewEntry
        }
        handler?(entry)
    }
}
