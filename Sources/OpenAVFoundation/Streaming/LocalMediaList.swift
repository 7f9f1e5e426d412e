// Playhead: playlist files on disk (a plain `.m3u`/`.m3u8` list of files or streams, a `.pls`),
// read into their entries so a player can queue them, as desktop players do. An HLS playlist
// (one with `#EXT-X-` tags) is media, not a list, and is left alone; so is anything that is
// not a regular file (a pipe) or is empty.
//
// Concurrency: pure functions over a file's bytes; any thread (they read the disk).
import Foundation

/// Reads playlist files on disk.
package enum LocalMediaList {
    /// The file name extensions a list file has.
    package static let fileExtensions: Set<String> = ["m3u", "m3u8", "pls"]
    /// Larger files are not read as lists (a list of ten thousand entries is under 1 MiB).
    static let byteLimit = 4 << 20

    /// What a file holds when read as a list.
    package enum Reading: Equatable, Sendable {
        /// Not a list: media (an HLS playlist) or not a list file at all; play it as it is.
        case notAList
        /// A list and its entries in order: files (relative ones resolved against the list's
        /// folder) and stream URLs. Empty when it names none.
        case entries([URL])
    }

    /// Reads `url` as a list when it is a file with a list's extension whose text is a plain
    /// M3U (no HLS tags) or a PLS list; `.notAList` otherwise, and for a file that cannot be
    /// read (opening it as media says why).
    package static func read(_ url: URL) -> Reading {
        guard url.isFileURL, fileExtensions.contains(url.pathExtension.lowercased()) else {
            return .notAList
        }
        // A regular file of a list's size only: a pipe named like a list would block the read.
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: url.path),
            attributes[.type] as? FileAttributeType == .typeRegular,
            let size = attributes[.size] as? Int, (1...byteLimit).contains(size),
            let handle = try? FileHandle(forReadingFrom: url)
        else { return .notAList }
        defer { try? handle.close() }
        guard let data = try? handle.read(upToCount: byteLimit + 1), !data.isEmpty,
            data.count <= byteLimit,
            StationList.startsLikeList(data), let text = StationList.text(of: data)
        else { return .notAList }
        let lines = text.split(whereSeparator: \.isNewline)
        if lines.contains(where: { $0.trimmingCharacters(in: .whitespaces).hasPrefix("#EXT-X-") }) {
            return .notAList
        }
        let folder = url.deletingLastPathComponent()
        return .entries(StationList.written(in: text).compactMap { resolve($0, in: folder) })
    }

    /// An entry as written: a URL when it has a scheme ("https://...", "file:///..."), else a
    /// file path (spaces and all, as players write them), relative ones from `folder`.
    static func resolve(_ entry: String, in folder: URL) -> URL? {
        if hasScheme(entry) { return URL(string: entry) }
        return URL(fileURLWithPath: entry, relativeTo: folder).standardizedFileURL
    }

    /// True when `text` starts with a URL scheme and "://" ("https://...", "file:///..."):
    /// a letter, then letters, digits, "+", "-" or "." (RFC 3986). Anything else is a path.
    package static func hasScheme(_ text: String) -> Bool {
        guard let end = text.range(of: "://")?.lowerBound, let first = text.first, first.isASCII,
            first.isLetter
        else { return false }
        return text[..<end].allSatisfy {
            $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0))
        }
    }
}
