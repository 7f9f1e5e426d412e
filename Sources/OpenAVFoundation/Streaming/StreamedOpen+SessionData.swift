// Playhead: the documents an HLS multivariant playlist's `EXT-X-SESSION-DATA` tags name with
// a `URI` (JSON, or raw bytes for `FORMAT=RAW`), read while Playhead's loader opens the
// stream: with its fetcher and safety rules (never a local file, no https to http
// downgrade), a size limit, at most `maximumSessionDocuments` of them, all within one short
// deadline so the open is held up little. A document that cannot be had in time, or is not
// JSON, leaves an error-log event and no metadata item.
//
// Concurrency: runs on the opening thread, as the rest of `StreamedOpen`.
import FFmpegBridge
import Foundation

extension StreamedOpen {
    /// The most session data documents read at an open (the longest wait for them all is
    /// `NetworkOptions.sessionDataWait`).
    static let maximumSessionDocuments = 8

    /// `entries` with the documents of those that name one read into `contents`; `stop`
    /// cuts a request when the open is abandoned.
    static func readingSessionData(
        _ entries: [HLSSessionData], fetcher: HTTPFetcher, secure: Bool, timeout: Double, wait: Double, log: StreamingLog,
        stop: @escaping (Int, Double) -> FetchStop?
    ) -> [HLSSessionData] {
        var read = 0
        var abandoned = false
        let deadline = Date().addingTimeInterval(min(timeout, wait))
        return entries.map { entry in
            let left = deadline.timeIntervalSinceNow
            guard let uri = entry.uri, read < maximumSessionDocuments, !abandoned else { return entry }
            guard left > 0.05 else {
                log.error(uri: uri, failure: .timedOut)
                return entry
            }
            read += 1
            var done = entry
            switch fetcher.fetch(uri, secure: secure, limit: HLSSessionData.maximumDocumentBytes, timeout: left, shouldStop: stop)
            {
            case .success(let resource):
                if entry.isRaw || (try? JSONSerialization.jsonObject(with: resource.data, options: [.fragmentsAllowed])) != nil {
                    done.contents = resource.data
                } else {
                    log.error(uri: uri, failure: .refused("the session data is not JSON"))
                }
            case .failure(.cancelled):
                // The open was abandoned: nothing more is read.
                abandoned = true
            case .failure(let failure):
                log.error(uri: uri, failure: failure)
            }
            return done
        }
    }
}
