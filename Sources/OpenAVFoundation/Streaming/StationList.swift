// Playhead: plain lists of stream URLs, as internet radio stations hand them out: an M3U file
// (URLs one per line, `#` comments and `#EXTINF` titles, no HLS `#EXT-X-` tags) or a PLS file
// (`[playlist]` with `File1=`, `File2=`...). A list names the same station several times
// (mirrors, formats); Playhead plays its first entry that opens.
//
// Concurrency: pure functions over text; any thread.
import FFmpegBridge
import Foundation

/// Reads plain M3U and PLS lists of streams.
enum StationList {
    /// The entries of `text`, a plain M3U or a PLS list read from `base`, in the list's order
    /// (a PLS's by their numbers), relative ones resolved against `base`; unreadable lines
    /// are left out.
    static func entries(of text: String, base: URL) -> [URL] {
        written(in: text).compactMap { URL(string: $0, relativeTo: base)?.absoluteURL }
    }

    /// The entries of `text` as written, in the list's order (a PLS's by their numbers).
    static func written(in text: String) -> [String] {
        let lines = text.split(whereSeparator: \.isNewline).map {
            $0.trimmingCharacters(in: CharacterSet.whitespaces.union(CharacterSet(charactersIn: "\u{FEFF}")))
        }
        if lines.first(where: { !$0.isEmpty })?.lowercased() == "[playlist]" {
            // "File<n>=<url>", in the order of n.
            let numbered: [(Int, String)] = lines.compactMap { line in
                guard line.lowercased().hasPrefix("file"), let equals = line.firstIndex(of: "="),
                    let number = Int(line[line.index(line.startIndex, offsetBy: 4)..<equals])
                else { return nil }
                return (number, String(line[line.index(after: equals)...]).trimmingCharacters(in: .whitespaces))
            }
            return numbered.sorted { $0.0 < $1.0 }.map(\.1).filter { !$0.isEmpty }
        }
        return lines.filter { !$0.isEmpty && !$0.hasPrefix("#") }
    }

    /// The entries of `entries` that may be opened, in order: from a list at an https URL
    /// (`secure`) only https ones, and only http(s) ones at all. When none may, why: the first
    /// refusal's reason, or that there is none.
    static func playable(_ entries: [URL], secure: Bool) -> Result<[URL], MediaFailure> {
        var refusal: String?
        var allowed: [URL] = []
        for entry in entries {
            if let why = HTTPFetcher.refusal(of: entry, secure: secure) {
                refusal = refusal ?? why
            } else {
                allowed.append(entry)
            }
        }
        guard allowed.isEmpty else { return .success(allowed) }
        return .failure(.io(detail: refusal ?? "the list of streams names no stream"))
    }

    /// True when `text` is a web page (an HTML document, as an error page served with status 200
    /// is), not a list.
    static func isWebPage(_ text: String) -> Bool {
        text.drop { $0 == "\u{FEFF}" || $0.isWhitespace }.hasPrefix("<")
    }

    /// True when `start` (a response's first bytes) may begin a list: text (UTF-8, or Latin-1 as
    /// older `.m3u` files are) starting with a printable ASCII character after any byte order
    /// mark and white space, with no control bytes; not the bytes of a media file (an audio
    /// stream served under a list's name is not read whole).
    @Sendable static func startsLikeList(_ start: Data) -> Bool {
        let head = start.prefix(64)
        guard !head.contains(where: { $0 < 0x09 || ($0 > 0x0D && $0 < 0x20) || $0 == 0x7F }) else { return false }
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        let body = head.starts(with: bom) ? head.dropFirst(3) : head
        guard let first = body.first(where: { $0 != 0x20 && !(0x09...0x0D).contains($0) }) else { return true }
        return first >= 0x21 && first <= 0x7E
    }

    /// The text of a list's bytes: UTF-8, else Latin-1 (older `.m3u` files); nil for neither.
    static func text(of data: Data) -> String? {
        String(data: data, encoding: .utf8) ?? String(data: data, encoding: .isoLatin1)
    }
}
