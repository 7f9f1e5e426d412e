// Playhead: reads the subtitle file behind a `.sidecar` legible option. TTML (`.ttml`,
// `.dfxp`, `.xml`, or any file that starts as a TTML document) is read by `TTMLDocument`,
// which FFmpeg 5.1 cannot read; everything else (SubRip, WebVTT, ASS/SSA, SAMI, PGS, ...)
// by FFmpeg through `SubtitleFileReader`. A remote file whose name does not say which it is
// (a DASH text set's `BaseURL` often has no extension) is fetched with the stream's safety
// rules and looked at. A file a remote stream names (a rendition) is held to the stream's rules:
// never a local file, https throughout when the stream is, with the stream's headers; a file
// the app gives is read as given, with no headers.
//
// Concurrency: `read` blocks on I/O; call it from a background thread, never the main queue.
// It shares no state between calls.
import FFmpegBridge
import Foundation

/// Reading subtitle files; see the file comment.
enum SubtitleFileLoading {
    /// The largest TTML document read (a feature film's subtitles are a few hundred kilobytes).
    static let maximumTTMLBytes = 16 << 20

    /// Extensions that name TTML documents.
    static let ttmlExtensions: Set<String> = ["ttml", "dfxp", "xml"]

    /// Extensions FFmpeg reads as subtitle files by name.
    private static let ffmpegExtensions: Set<String> = [
        "srt", "vtt", "webvtt", "ass", "ssa", "sub", "smi", "sami", "sup", "m3u8",
    ]

    /// The rules of the remote stream that named a subtitle file.
    struct StreamRules: Sendable {
        /// The stream's headers and user agent.
        var network: NetworkOptions
        /// The stream began at an https URL.
        var secure: Bool
    }

    /// The contents of the subtitle file at `url`, read within `timeout`. `stream`: the rules
    /// of the remote stream that named it (nil for a file the app gave, or a local stream's).
    ///
    /// - Throws: `.notMediaFile` for a file that is neither TTML nor a subtitle file FFmpeg
    ///   reads, the opening failures of `Demuxer`, or `.io` for a remote file that could not
    ///   be fetched or that the stream's rules refuse.
    static func read(_ url: URL, timeout: Double, stream: StreamRules? = nil) throws(MediaFailure)
        -> SubtitleFileReader.Contents
    {
        if let stream, let refusal = HTTPFetcher.refusal(of: url, secure: stream.secure) {
            throw .io(detail: refusal)
        }
        let ext = url.pathExtension.lowercased()
        if url.isFileURL {
            if ttmlExtensions.contains(ext) || startsAsTTML(url) {
                guard let handle = try? FileHandle(forReadingFrom: url) else { throw .fileNotFound }
                defer { try? handle.close() }
                let data = (try? handle.read(upToCount: maximumTTMLBytes)) ?? Data()
                return try ttml(data)
            }
            return try SubtitleFileReader.read(try MediaLocation(url: url), timeout: timeout)
        }
        guard !ffmpegExtensions.contains(ext) else {
            return try SubtitleFileReader.read(try MediaLocation(url: url), timeout: timeout)
        }
        let fetcher = HTTPFetcher(
            headers: stream?.network.headers ?? [:],
            userAgent: stream?.network.userAgent ?? NetworkOptions.defaultUserAgent)
        defer { fetcher.close() }
        let data: Data
        switch fetcher.fetch(url, secure: stream?.secure ?? false, limit: maximumTTMLBytes, timeout: timeout) {
        case .success(let resource): data = resource.data
        case .failure(let failure): throw .io(detail: failure.reason)
        }
        if ttmlExtensions.contains(ext) || TTMLDocument.looksLikeTTML(data) { return try ttml(data) }
        let name = ext.isEmpty ? "subtitles" : url.lastPathComponent
        return try SubtitleFileReader.read(MediaLocation(memory: MemoryInput(bytes: data, name: name)), timeout: timeout)
    }

    /// A TTML document's events.
    private static func ttml(_ data: Data) throws(MediaFailure) -> SubtitleFileReader.Contents {
        guard let events = TTMLDocument.events(data) else { throw .notMediaFile }
        return SubtitleFileReader.Contents(codecName: "ttml", events: events)
    }

    /// True when the local file at `url` begins as a TTML document.
    private static func startsAsTTML(_ url: URL) -> Bool {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return false }
        defer { try? handle.close() }
        return TTMLDocument.looksLikeTTML((try? handle.read(upToCount: 4096)) ?? Data())
    }
}
