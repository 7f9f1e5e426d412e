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
    /// The key with this name.
    public init(_ rawValue: String) { self.rawValue = rawValue }
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
    /// The items of `metadataItems` in `locale`: its language and, when it names one, its
    /// region ("de_AT" takes "de-AT" items, "de" any German ones). Items in no stated language
    /// are left out.
    public class func metadataItems(from metadataItems: [AVMetadataItem], with locale: Locale)
        -> [AVMetadataItem]
    {
        guard let wanted = Self.tag(locale.identifier) else { return [] }
        return metadataItems.filter { item in
            item.extendedLanguageTag.flatMap(Self.tag).map { wanted.takes($0) } ?? false
        }
    }

    /// The items of `metadataItems` in the first of `preferredLanguages` (BCP 47 tags, most
    /// wanted first) any of them is in, then those in the next, and so on: for each, the items
    /// in exactly that tag, then those in its language ("en-GB": British items, then other
    /// English ones). Items in none of those languages, or in none stated, are left out.
    public class func metadataItems(
        from metadataItems: [AVMetadataItem],
        filteredAndSortedAccordingToPreferredLanguages preferredLanguages: [String]
    ) -> [AVMetadataItem] {
        let tagged = metadataItems.compactMap { item in
            item.extendedLanguageTag.flatMap(Self.tag).map { (item, $0) }
        }
        var chosen: [AVMetadataItem] = []
        for preferred in preferredLanguages.compactMap(Self.tag) {
            for exact in [true, false] {
                for (item, tag) in tagged where !chosen.contains(where: { $0 === item }) {
                    if exact ? tag == preferred : tag.language == preferred.language {
                        chosen.append(item)
                    }
                }
            }
        }
        return chosen
    }

    /// A language tag's language (two letters where one exists: "eng" is "en") and region.
    private struct LanguageTag: Equatable {
        var language: String
        var region: String?

        /// True when an item in `other` answers to this tag: the same language, and the same
        /// region when this tag names one.
        func takes(_ other: LanguageTag) -> Bool {
            language == other.language && (region == nil || region == other.region)
        }
    }

    /// `text` (a BCP 47 tag or a locale identifier) as a language and region; scripts and
    /// variants are not compared.
    private static func tag(_ text: String) -> LanguageTag? {
        let parts = text.split(whereSeparator: { $0 == "-" || $0 == "_" }).map(String.init)
        guard let first = parts.first?.lowercased(), !first.isEmpty else { return nil }
        let region = parts.dropFirst().first {
            $0.count == 2 || ($0.count == 3 && $0.allSatisfy(\.isNumber))
        }
        return LanguageTag(
            language: LanguageTags.bcp47(first) ?? first, region: region?.uppercased())
    }
}
