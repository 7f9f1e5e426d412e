// Playhead: the `EXT-X-SESSION-DATA` tags of an HLS multivariant playlist (RFC 8216
// §4.3.4.4): data about the whole presentation, such as its title, that AVFoundation hands
// out as the asset's metadata. Each is a `DATA-ID` with a `VALUE`, or a `URI` of a JSON
// document (read by whoever streams the playlist, under its safety rules), and a `LANGUAGE`.
//
// Concurrency: values and a pure parser.
import Foundation

/// One `EXT-X-SESSION-DATA` tag.
package struct HLSSessionData: Sendable, Equatable {
    /// `DATA-ID`: what the data is (reverse DNS, e.g. "com.apple.hls.title").
    package var dataID: String
    /// `VALUE`, when given.
    package var value: String?
    /// `URI` made absolute, when given.
    package var uri: URL?
    /// `LANGUAGE` (a BCP 47 tag), when given.
    package var language: String?
    /// `FORMAT=RAW`: the `URI`'s document is bytes to hand out as they are, not JSON.
    package var isRaw = false
    /// The JSON document `uri` names, once read (nil: not read, or it could not be).
    package var contents: Data?

    /// The most tags read from one playlist, and the largest JSON document read.
    package static let maximumCount = 64
    package static let maximumDocumentBytes = 64 << 10

    package init(dataID: String, value: String? = nil, uri: URL? = nil, language: String? = nil, contents: Data? = nil) {
        self.dataID = dataID
        self.value = value
        self.uri = uri
        self.language = language
        self.contents = contents
    }

    /// The tags of a multivariant playlist, URIs resolved against `base`; a tag with no
    /// `DATA-ID`, with neither or both of `VALUE` and `URI` (the RFC allows exactly one), or
    /// repeating an earlier tag's `DATA-ID` and `LANGUAGE`, is left out.
    package static func parse(_ text: String, base: URL?) -> [HLSSessionData] {
        guard text.hasPrefix("#EXTM3U") else { return [] }
        var found: [HLSSessionData] = []
        for line in text.split(whereSeparator: \.isNewline) where line.hasPrefix("#EXT-X-SESSION-DATA:") {
            guard found.count < maximumCount else { break }
            let attributes = HLSSubtitleRenditions.attributes(String(line.dropFirst("#EXT-X-SESSION-DATA:".count)))
            guard let id = attributes["DATA-ID"], !id.isEmpty, (attributes["VALUE"] == nil) != (attributes["URI"] == nil)
            else { continue }
            let uri = attributes["URI"].flatMap { URL(string: $0, relativeTo: base)?.absoluteURL }
            if attributes["URI"] != nil, uri == nil { continue }
            if found.contains(where: { $0.dataID == id && $0.language == attributes["LANGUAGE"] }) { continue }
            var entry = HLSSessionData(dataID: id, value: attributes["VALUE"], uri: uri, language: attributes["LANGUAGE"])
            entry.isRaw = attributes["FORMAT"] == "RAW"
            found.append(entry)
        }
        return found
    }
}
