// Playhead: the closed caption renditions (EXT-X-MEDIA TYPE=CLOSED-CAPTIONS) of an HLS master
// playlist and the variants' CLOSED-CAPTIONS attribute, which FFmpeg 5.1's HLS demuxer skips.
// Concurrency: value types and a pure parser; read on the inspecting thread with the subtitle
// renditions (`HLSSubtitleRenditions.read`).
import Foundation

/// One closed caption rendition of an HLS master playlist: captions carried inside the
/// variants' video (no URI of its own), with the name and language the playlist gives them.
package struct CaptionRendition: Sendable, Equatable {
    /// The rendition's NAME, the text players show for it.
    package var name: String
    /// Its LANGUAGE (a BCP 47 tag), when given.
    package var language: String?
    /// INSTREAM-ID: the caption channel in the video, "CC1" to "CC4" (EIA-608) or
    /// "SERVICE1" to "SERVICE63" (CEA-708).
    package var instreamID: String
    /// DEFAULT=YES: the rendition to use when captions are wanted. It does not turn captions
    /// on by itself (Apple's players show captions only when the viewer asked for them).
    package var isDefault: Bool
    /// The CHARACTERISTICS list (Uniform Type Identifiers such as
    /// "public.accessibility.transcribes-spoken-dialog"), in playlist order.
    package var characteristics: [String]

    package init(
        name: String, language: String?, instreamID: String, isDefault: Bool = false,
        characteristics: [String] = []
    ) {
        self.name = name
        self.language = language
        self.instreamID = instreamID
        self.isDefault = isDefault
        self.characteristics = characteristics
    }
}

/// What an HLS master playlist says about closed captions in its variants' video.
package enum HLSCaptionDeclaration: Sendable, Equatable {
    /// The variants name a CLOSED-CAPTIONS group; these are its renditions, in playlist order
    /// (empty when the group lists none).
    case renditions([CaptionRendition])
    /// The variants say `CLOSED-CAPTIONS=NONE`: their video carries no captions to offer.
    case noCaptions
}

extension HLSSubtitleRenditions {
    /// The master playlist's closed caption declaration, or nil when it says nothing about
    /// captions (no CLOSED-CAPTIONS attribute and no caption renditions) or is no master
    /// playlist.
    ///
    /// The group the first variant naming one uses is taken (the variants of one playlist
    /// normally share it). Caption renditions no variant refers to count when no variant has
    /// a CLOSED-CAPTIONS attribute at all, as lenient players do. Each INSTREAM-ID is kept
    /// once, its first rendition winning.
    package static func parseCaptions(_ text: String) -> HLSCaptionDeclaration? {
        guard text.hasPrefix("#EXTM3U") else { return nil }
        var renditions: [(group: String, rendition: CaptionRendition)] = []
        var variantGroups: [String] = []
        var hasVariants = false
        for line in text.split(whereSeparator: \.isNewline) {
            if line.hasPrefix("#EXT-X-STREAM-INF:") {
                hasVariants = true
                let attributes = Self.attributes(String(line.dropFirst("#EXT-X-STREAM-INF:".count)))
                if let group = attributes["CLOSED-CAPTIONS"] { variantGroups.append(group) }
            } else if line.hasPrefix("#EXT-X-MEDIA:") {
                let attributes = Self.attributes(String(line.dropFirst("#EXT-X-MEDIA:".count)))
                guard attributes["TYPE"] == "CLOSED-CAPTIONS", let id = attributes["INSTREAM-ID"]
                else { continue }
                let characteristics = (attributes["CHARACTERISTICS"] ?? "").split(separator: ",")
                    .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
                let rendition = CaptionRendition(
                    name: attributes["NAME"] ?? id, language: attributes["LANGUAGE"],
                    instreamID: id.uppercased(), isDefault: attributes["DEFAULT"] == "YES",
                    characteristics: characteristics)
                renditions.append((attributes["GROUP-ID"] ?? "", rendition))
            }
        }
        guard hasVariants else { return nil }
        // The attribute list reader drops quotes, so a group really called "NONE" is told
        // from the enumerated NONE by a rendition in it.
        let groups = Set(renditions.map(\.group))
        let named = variantGroups.first { $0 != "NONE" || groups.contains($0) }
        let chosen: [CaptionRendition]
        if let named {
            chosen = renditions.filter { $0.group == named }.map(\.rendition)
        } else if !variantGroups.isEmpty {
            return .noCaptions
        } else if !renditions.isEmpty {
            chosen = renditions.map(\.rendition)
        } else {
            return nil
        }
        var seen: Set<String> = []
        return .renditions(chosen.filter { seen.insert($0.instreamID).inserted })
    }
}
