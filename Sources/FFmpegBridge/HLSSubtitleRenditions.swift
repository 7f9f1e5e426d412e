// Playhead: the subtitle renditions (EXT-X-MEDIA TYPE=SUBTITLES) of an HLS master playlist,
// which FFmpeg 5.1's HLS demuxer does not expose as streams (the closed caption renditions are
// parsed from the same text, in HLSCaptionRenditions.swift).
// Concurrency: `read` runs on the inspecting thread, which owns the container; parsing is pure.
internal import CFFmpeg
internal import CFFmpegShims
import Foundation

/// One subtitle rendition of an HLS master playlist: a WebVTT media playlist to read as a
/// subtitle file.
package struct SubtitleRendition: Sendable, Equatable {
    /// The rendition's NAME.
    package var name: String
    /// Its LANGUAGE (a BCP 47 tag), when given.
    package var language: String?
    /// The media playlist's absolute URL.
    package var url: String
    /// DEFAULT=YES.
    package var isDefault: Bool
    /// FORCED=YES.
    package var isForced: Bool
    /// What the rendition's cues are written in: "webvtt" (HLS, and DASH's WebVTT files) or
    /// "ttml" (a DASH TTML file).
    package var codecName: String
    /// Copies of the media playlist a backup stream names (its own subtitle group on another
    /// server), absolute, in the order listed: read when this one fails.
    package var backupURLs: [String] = []

    package init(
        name: String, language: String?, url: String, isDefault: Bool, isForced: Bool, codecName: String = "webvtt"
    ) {
        self.codecName = codecName
        self.name = name
        self.language = language
        self.url = url
        self.isDefault = isDefault
        self.isForced = isForced
    }
}

/// Reading subtitle renditions from a master playlist.
///
/// Concurrency: `read` blocks on I/O for at most the container's timeout; it runs on the
/// inspecting thread with the container it was given. `parse` is a pure function.
package enum HLSSubtitleRenditions {
    /// The largest playlist read (a master playlist is a few kilobytes).
    static let maximumBytes = 1 << 20

    /// The subtitle renditions, the closed caption declaration and the session data of the HLS
    /// master playlist `container` was opened from (a session data `URI` is not read on this
    /// path); none for other formats, media playlists and unreadable playlists.
    static func read(_ container: FormatContext, timeout: Double) -> DeclaredRenditions {
        let context = container.pointer.pointee
        guard let format = context.iformat, String(cString: format.pointee.name) == "hls",
            let urlPointer = context.url
        else { return DeclaredRenditions() }
        let url = String(cString: urlPointer)
        var options: OpaquePointer? = nil
        if let whitelist = context.protocol_whitelist {
            av_dict_set(&options, "protocol_whitelist", whitelist, 0)
        }
        container.networkOptions?.apply(to: &options)
        defer { av_dict_free(&options) }
        var callback = context.interrupt_callback
        var io: UnsafeMutablePointer<AVIOContext>? = nil
        container.interrupt.expire(after: timeout)
        guard avio_open2(&io, url, AVIO_FLAG_READ, &callback, &options) >= 0, let opened = io else {
            return DeclaredRenditions()
        }
        defer { avio_closep(&io) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16_384)
        while bytes.count < maximumBytes {
            let count = chunk.withUnsafeMutableBufferPointer {
                avio_read(opened, $0.baseAddress, Int32($0.count))
            }
            guard count > 0 else { break }
            bytes += chunk.prefix(Int(count))
        }
        let base = URL(
            string: url.hasPrefix("file:") && !url.hasPrefix("file://")
                ? "file://" + url.dropFirst(5) : url)
        let text = String(decoding: bytes, as: UTF8.self)
        return DeclaredRenditions(playlist: text, base: base)
    }

    /// The `EXT-X-MEDIA:TYPE=SUBTITLES` entries of a master playlist, URIs made absolute
    /// against `base`.
    package static func parse(_ text: String, base: URL?) -> [SubtitleRendition] {
        guard text.hasPrefix("#EXTM3U") else { return [] }
        return text.split(whereSeparator: \.isNewline).compactMap { line -> SubtitleRendition? in
            guard line.hasPrefix("#EXT-X-MEDIA:") else { return nil }
            let attributes = Self.attributes(String(line.dropFirst("#EXT-X-MEDIA:".count)))
            guard attributes["TYPE"] == "SUBTITLES", let uri = attributes["URI"] else { return nil }
            let resolved = URL(string: uri, relativeTo: base)?.absoluteURL.absoluteString ?? uri
            return SubtitleRendition(
                name: attributes["NAME"] ?? uri, language: attributes["LANGUAGE"], url: resolved,
                isDefault: attributes["DEFAULT"] == "YES", isForced: attributes["FORCED"] == "YES")
        }
    }

    /// `KEY=VALUE,KEY="quoted, value"` attribute lists.
    static func attributes(_ list: String) -> [String: String] {
        var result: [String: String] = [:]
        var key = ""
        var value = ""
        var readingKey = true
        var quoted = false
        func finish() {
            if !key.isEmpty { result[key.trimmingCharacters(in: .whitespaces)] = value }
            key = ""
            value = ""
            readingKey = true
        }
        for character in list {
            if readingKey {
                if character == "=" {
                    readingKey = false
                } else if character != "," {
                    key.append(character)
                }
            } else if character == "\"" {
                quoted.toggle()
            } else if character == "," && !quoted {
                finish()
            } else {
                value.append(character)
            }
        }
        finish()
        return result
    }
}
