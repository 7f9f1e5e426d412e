// Playhead: which network inputs are HLS or DASH manifests. A URL whose path ends in
// `.m3u8` or `.mpd` is one; a URL with a media file's extension (`.mp4`, `.mkv`, `.ts`...)
// is not; any other (an API path such as `/live/master?token=…`, `.php`, no extension at all)
// is asked for its first bytes, as AVPlayer looks at what a server sends: an HLS playlist
// begins `#EXTM3U` and carries `#EXT-X-` tags (a plain M3U list of radio streams does not),
// a DASH manifest has its `<MPD` element near the start. One short ranged request of 4 KiB,
// with the stream's rules and a deadline; anything else (a failed request, a server that sends
// more than asked) is left to libavformat, which opens the input itself.
//
// Concurrency: runs on the opening thread, as the rest of `StreamedOpen`.
import Foundation

extension StreamedOpen {
    /// What a manifest URL names.
    enum ManifestKind: Equatable {
        case hls, dash
    }

    /// Extensions of media files and plain lists, never asked for their first bytes.
    static let mediaFileExtensions: Set<String> = [
        "mp4", "m4v", "m4a", "m4b", "mov", "qt", "3gp", "3g2", "mkv", "mka", "webm", "mp3", "aac", "ac3", "ec3",
        "eac3", "flac", "ogg", "oga", "ogv", "opus", "wav", "aif", "aiff", "caf", "ts", "m2ts", "mts", "m2t", "avi",
        "wmv", "wma", "asf", "flv", "mpg", "mpeg", "vob", "mxf", "nut", "rm", "rmvb", "wv", "ape", "mp2", "m3u",
        "pls", "jpg", "jpeg", "png", "gif", "m4s", "cmfv", "cmfa", "vtt", "srt", "ass", "ttml", "dfxp", "xml",
    ]

    /// The bytes read to tell a manifest by its start.
    static let sniffedBytes = 4096

    /// The kind of manifest `url` names (see the file comment); nil for anything else.
    static func manifestKind(
        of url: URL, fetcher: HTTPFetcher, secure: Bool, timeout: Double,
        stop: @escaping (Int, Double) -> FetchStop?
    ) -> ManifestKind? {
        let path = url.path.lowercased()
        if path.hasSuffix(".m3u8") { return .hls }
        if path.hasSuffix(".mpd") { return .dash }
        guard !mediaFileExtensions.contains(url.pathExtension.lowercased()) else { return nil }
        // (A server that ignores the range and sends more, such as an endless radio stream,
        // fails the request at once: not a manifest read this way.)
        let result = fetcher.fetch(
            url, range: 0..<sniffedBytes, secure: secure, limit: sniffedBytes, timeout: min(timeout, 5), shouldStop: stop)
        guard case .success(let resource) = result else { return nil }
        return kind(ofStart: resource.data.prefix(sniffedBytes))
    }

    /// The kind of manifest whose first bytes are `start`; nil when it is neither.
    static func kind(ofStart start: Data) -> ManifestKind? {
        let text = String(decoding: start, as: UTF8.self)
        let trimmed = text.drop { $0 == "\u{FEFF}" || $0.isWhitespace }
        if trimmed.hasPrefix("#EXTM3U") { return trimmed.contains("#EXT-X-") ? .hls : nil }
        if trimmed.hasPrefix("<"), trimmed.contains("<MPD") { return .dash }
        return nil
    }
}
