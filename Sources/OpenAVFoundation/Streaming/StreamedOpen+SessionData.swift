// Playhead: the JSON documents an HLS multivariant playlist's `EXT-X-SESSION-DATA` tags name
// with a `URI`, read while Playhead's loader opens the stream: with its fetcher and safety
// rules (never a local file, no https to http downgrade), a short deadline and a size limit,
// at most `maximumDocuments` of them. A document that cannot be had, or is not JSON, leaves
// an error-log event and no metadata item.
//
// Concurrency: runs on the opening thread, as the rest of `StreamedOpen`.
import FFmpegBridge
import Foundation

extension StreamedOpen {
    /// The most session data documents read at an open, and the longest wait for each.
    static let maximumSessionDocuments = 8
    static let sessionDocumentTimeout = 2.0

    /// `entries` with the documents of those that name one read into `contents`; `stop`
    /// cuts a request when the open is abandoned.
    static func readingSessionData(
        _ entries: [HLSSessionData], fetcher: HTTPFetcher, secure: Bool, timeout: Double, log: StreamingLog,
        stop: @escaping (Int, Double) -> FetchStop?
    ) -> [HLSSessionData] {
        var read = 0
        return entries.map { entry in
            guard let uri = entry.uri, read < maximumSessionDocuments else { return entry }
            read += 1
            var done = entry
            switch fetcher.fetch(
                uri, secure: secure, limit: HLSSessionData.maximumDocumentBytes,
                timeout: min(timeout, sessionDocumentTimeout), shouldStop: stop)
            {
            case .success(let resource):
                if (try? JSONSerialization.jsonObject(with: resource.data, options: [.fragmentsAllowed])) != nil {
                    done.contents = resource.data
                } else {
                    log.error(uri: uri, failure: .refused("the session data is not JSON"))
                }
            case .failure(.cancelled):
                break
            case .failure(let failure):
                log.error(uri: uri, failure: failure)
            }
            return done
        }
    }
}
