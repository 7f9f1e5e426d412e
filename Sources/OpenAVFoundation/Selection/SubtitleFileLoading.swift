// Playhead: reads the subtitle file behind a `.sidecar` legible option. TTML (`.ttml`,
// `.dfxp`, `.xml`, or any file that starts as a TTML document) is read by `TTMLDocument`,
// which FFmpeg 5.1 cannot read; everything else (SubRip, WebVTT, ASS/SSA, SAMI, PGS, ...)
// by FFmpeg through `SubtitleFileReader`. A remote file whose name does not say which it is
// (a DASH text set's `BaseURL` often has no extension) is fetched with the stream's safety
// rules and looked at.
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

    /// The contents of the subtitle file at `url`. A remote one is fetched with `network`'s
    /// headers, within `timeout`, https throughout when `secure`.
    ///
    /// - Throws: `.notMediaFile` for a file that is neither TTML nor a subtitle file FFmpeg
    ///   reads, the opening failures of `Demuxer`, or `.io` for a remote file that could
    ///   not be fetched.
    static func read(_ url: URL, network: NetworkOptions, timeout: Double, secure: Bool) throws(MediaFailure)
        -> SubtitleFileReader.Contents
    {
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
            headers: network.headers, userAgent: network.userAgent ?? NetworkOptions.defaultUserAgent)
        defer { fetcher.close() }
        let data: Data
        switch fetcher.fetch(url, secure: secure, limit: maximumTTMLBytes, timeout: timeout) {
        case .success(let resource): data = resource.data
        case .failure(let failure): throw .io(detail: failure.reason)
        }
        if TTMLDocument.looksLikeTTML(data) { return try ttml(data) }
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
