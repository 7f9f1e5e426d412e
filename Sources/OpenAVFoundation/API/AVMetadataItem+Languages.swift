// Playhead: picking metadata items by language (the title in the listener's language), the
// extra attribute keys, and the format-specific identifiers of cover art.
//
// Concurrency: pure functions over immutable items; any thread.
import FFmpegBridge
import Foundation

/// A key of `AVMetadataItem.extraAttributes`.
public struct AVMetadataExtraAttributeKey: RawRepresentable, Hashable, Sendable {
    /// The key's name.
    public let rawValue: String
    /// The key with this name.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Text describing the value (an ID3 user text frame's description).
    public static let info = AVMetadataExtraAttributeKey(rawValue: "info")
    /// The URI the value stands for.
    public static let valueURI = AVMetadataExtraAttributeKey(rawValue: "valueURI")
    /// The URI relative values are resolved against.
    public static let baseURI = AVMetadataExtraAttributeKey(rawValue: "baseURI")
}

extension AVMetadataKeySpace {
    /// iTunes metadata atoms ("itsk").
    public static let iTunes = AVMetadataKeySpace("itsk")
}

extension AVMetadataIdentifier {
    /// An MP4 file's cover art ("itsk/covr"); answers with the common artwork item.
    public static let iTunesMetadataCoverArt = AVMetadataIdentifier("itsk/covr")
    /// An ID3 tag's picture ("id3/APIC"); answers with the common artwork item.
    public static let id3MetadataAttachedPicture = AVMetadataIdentifier("id3/APIC")

    /// The identifiers that find the cover art.
    static let artworkAliases: Set<AVMetadataIdentifier> = [
        .iTunesMetadataCoverArt, .id3MetadataAttachedPicture,
    ]
}

extension AVMetadataItem {
    /// The items of `metadataItems` in the language of `locale` (items in no stated
    /// language are left out).
    public class func metadataItems(from metadataItems: [AVMetadataItem], with locale: Locale)
        -> [AVMetadataItem]
    {
        guard let wanted = Self.language(of: locale.identifier) else { return [] }
        return metadataItems.filter { item in
            item.extendedLanguageTag.flatMap(Self.language(of:)) == wanted
        }
    }

    /// The items of `metadataItems` in the first of `preferredLanguages` (BCP 47 tags, most
    /// wanted first) any of them is in, then those in the next, and so on; items in none of
    /// those languages are left out.
    public class func metadataItems(
        from metadataItems: [AVMetadataItem],
        filteredAndSortedAccordingToPreferredLanguages preferredLanguages: [String]
    ) -> [AVMetadataItem] {
        preferredLanguages.compactMap(Self.language(of:)).reduce(into: [AVMetadataItem]()) {
            chosen, language in
            chosen += metadataItems.filter { item in
                !chosen.contains { $0 === item }
                    && item.extendedLanguageTag.flatMap(Self.language(of:)) == language
            }
        }
    }

    /// The language part of a BCP 47 tag or locale identifier, lowercased ("en" of "en-GB").
    /// Three-letter codes ("eng", as ID3 and MP4 store them) are read as their two-letter ones.
    private static func language(of tag: String) -> String? {
        let code = tag.split(whereSeparator: { $0 == "-" || $0 == "_" }).first.map {
            $0.lowercased()
        }
        guard let code, !code.isEmpty else { return nil }
        return LanguageTags.bcp47(code) ?? code
    }
}
