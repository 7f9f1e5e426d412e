// Playhead: which network inputs are HLS or DASH manifests. A URL whose path ends in
// `.m3u8` or `.mpd` is one; a URL with a media file's extension (`.mp4`, `.mkv`, `.ts`...)
// is not; any other (an API path such as `/live/master?token=…`, `.php`, no extension at all)
// is asked for, as AVPlayer looks at what a server sends: an HLS playlist begins `#EXTM3U`
// and carries `#EXT-X-` tags (a plain M3U list of radio streams does not: it is a station
// list, as is a PLS `[playlist]`, and so is any text at a `.m3u` or `.pls` URL that is not
// HLS), a DASH manifest has its `<MPD` element near the start. The request stops at the first bytes of anything
// else (a media file, an endless radio stream), so the wait before libavformat opens it is one
// round trip; a manifest is read whole by it (within the playlist size limit), once, and
// handed on, so a single-use token is spent once. A failed request leaves the input to
// libavformat, which opens it itself (and says why it cannot), but one the server did not
// answer within the time-out (no response at all) fails the input at once: libavformat would
// wait as long again. (One answered, then slow to send, is still left to libavformat.)
//
// Concurrency: runs on the opening thread, as the rest of `StreamedOpen`.
import FFmpegBridge
import Foundation

extension StreamedOpen {
    /// What a manifest URL names.
    enum ManifestKind: Equatable {
        case hls, dash
        /// A plain M3U or PLS list of stream URLs (StationList.swift).
        case stationList
    }

    /// A manifest found, and its bytes when they were read to tell it.
    struct FoundManifest {
        let kind: ManifestKind
        let resource: FetchedResource?
    }

    /// Extensions of media files and of plain lists, never asked for as manifests (a `.m3u`
    /// or `.pls` URL is read as a station list, which may turn out to be HLS).
    static let mediaFileExtensions: Set<String> = [
        "mp4", "m4v", "m4a", "m4b", "mov", "qt", "3gp", "3g2", "mkv", "mka", "webm", "mp3", "aac", "ac3", "ec3",
        "eac3", "flac", "ogg", "oga", "ogv", "opus", "wav", "aif", "aiff", "caf", "ts", "m2ts", "mts", "m2t", "avi",
        "wmv", "wma", "asf", "flv", "mpg", "mpeg", "vob", "mxf", "nut", "rm", "rmvb", "wv", "ape", "mp2", "m3u",
        "pls", "jpg", "jpeg", "png", "gif", "m4s", "cmfv", "cmfa", "vtt", "srt", "ass", "ttml", "dfxp", "xml",
    ]

    /// The bytes of a manifest's start looked at to tell its kind.
    static let sniffedBytes = 4096

    /// The manifest `url` names (see the file comment); nil for anything else.
    ///
    /// - Throws: `.timedOut` when the server did not answer the request in time (sent no
    ///   response).
    static func manifest(
        at url: URL, fetcher: HTTPFetcher, secure: Bool, limit: Int, timeout: Double,
        stop: @escaping (Int, Double) -> FetchStop?
    ) throws(MediaFailure) -> FoundManifest? {
        let path = url.path.lowercased()
        if path.hasSuffix(".m3u8") { return FoundManifest(kind: .hls, resource: nil) }
        if path.hasSuffix(".mpd") { return FoundManifest(kind: .dash, resource: nil) }
        if path.hasSuffix(".m3u") || path.hasSuffix(".pls") {
            // Read whole when it is text (a station's list, or HLS under an old name).
            let result = fetcher.fetch(
                url, secure: secure, limit: limit, timeout: timeout, shouldStop: stop, firstBytes: StationList.startsLikeList)
            if case .failure(.timedOut) = result, !fetcher.lastRequestWasAnswered { throw .timedOut }
            guard case .success(let resource) = result else { return nil }
            return FoundManifest(kind: kind(ofStart: resource.data.prefix(sniffedBytes)) ?? .stationList, resource: resource)
        }
        guard !mediaFileExtensions.contains(url.pathExtension.lowercased()) else { return nil }
        let result = fetcher.fetch(
            url, secure: secure, limit: limit, timeout: timeout, shouldStop: stop, firstBytes: startsLikeManifest)
        if case .failure(.timedOut) = result, !fetcher.lastRequestWasAnswered { throw .timedOut }
        guard case .success(let resource) = result, let kind = kind(ofStart: resource.data.prefix(sniffedBytes)) else {
            return nil
        }
        return FoundManifest(kind: kind, resource: resource)
    }

    /// True when `start` may begin a manifest: `#EXTM3U` or markup (after a byte order mark
    /// and white space).
    @Sendable static func startsLikeManifest(_ start: Data) -> Bool {
        let text = String(decoding: start.prefix(64), as: UTF8.self)
        let trimmed = text.drop { $0 == "\u{FEFF}" || $0.isWhitespace }
        return trimmed.hasPrefix("#EXTM3U") || trimmed.hasPrefix("<") || trimmed.lowercased().hasPrefix("[playlist]")
    }

    /// The kind of manifest whose first bytes are `start`; nil when it is neither.
    static func kind(ofStart start: Data) -> ManifestKind? {
        let text = String(decoding: start, as: UTF8.self)
        let trimmed = text.drop { $0 == "\u{FEFF}" || $0.isWhitespace }
        if trimmed.hasPrefix("#EXTM3U") { return trimmed.contains("#EXT-X-") ? .hls : .stationList }
        if trimmed.lowercased().hasPrefix("[playlist]") { return .stationList }
        if trimmed.hasPrefix("<"), trimmed.contains("<MPD") { return .dash }
        return nil
    }
}
