// Playhead: an asset's chapters as timed metadata groups (titles and time ranges).
// Concurrency: groups are built once per loaded asset (AssetContents) and immutable; the
// synchronous getters block until the asset is loaded, never use them on the main queue
// before it is.
import FFmpegBridge
import Foundation

extension AVAsset {
    /// The locales chapter titles are available in: the container's chapter language when it
    /// states one, else the undetermined locale. Empty when the asset has no chapters.
    /// Blocks until loaded.
    public var availableChapterLocales: [Locale] {
        contentsWaiting(for: "availableChapterLocales")?.chapterLocales ?? []
    }

    /// The chapters whose titles are in `locale`, each group holding a title item (common key
    /// `.commonKeyTitle`) and, when asked for, other items with `commonKeys`.
    ///
    /// Containers such as Matroska and MP4 store one title per chapter; Playhead returns it
    /// whatever `locale` asks for, since there is no other language to choose. Blocks until
    /// loaded.
    public func chapterMetadataGroups(
        withTitleLocale locale: Locale, containingItemsWithCommonKeys commonKeys: [AVMetadataKey]?
    ) -> [AVTimedMetadataGroup] {
        let groups = contentsWaiting(for: "availableChapterLocales")?.chapterGroups ?? []
        return ChapterGroups.filtered(groups, commonKeys: commonKeys)
    }

    /// The chapters whose titles best match `preferredLanguages` (BCP 47 tags in order of
    /// preference). With one title language per container this is every chapter. Blocks until
    /// loaded.
    public func chapterMetadataGroups(bestMatchingPreferredLanguages preferredLanguages: [String])
        -> [AVTimedMetadataGroup]
    {
        contentsWaiting(for: "availableChapterLocales")?.chapterGroups ?? []
    }

    /// Loads the asset, then returns ``chapterMetadataGroups(withTitleLocale:containingItemsWithCommonKeys:)``.
    public func loadChapterMetadataGroups(
        withTitleLocale locale: Locale,
        containingItemsWithCommonKeys commonKeys: [AVMetadataKey] = []
    ) async throws -> [AVTimedMetadataGroup] {
        _ = try await load(.availableChapterLocales)
        return ChapterGroups.filtered(try loadedContents().chapterGroups, commonKeys: commonKeys)
    }

    /// Loads the asset, then returns ``chapterMetadataGroups(bestMatchingPreferredLanguages:)``.
    public func loadChapterMetadataGroups(
        bestMatchingPreferredLanguages preferredLanguages: [String]
    )
        async throws -> [AVTimedMetadataGroup]
    {
        _ = try await load(.availableChapterLocales)
        return try loadedContents().chapterGroups
    }
}

extension AVPartialAsyncProperty where Root: AVAsset {
    /// The locales chapter titles are available in.
    public static var availableChapterLocales: AVAsyncProperty<Root, [Locale]> {
        AVAsyncProperty(key: "availableChapterLocales") { try $0.loadedContents().chapterLocales }
    }
}

/// Builds chapter groups from a media description.
///
/// Concurrency: pure functions.
enum ChapterGroups {
    static func make(_ chapters: [MediaChapter], duration: CMTime) -> [AVTimedMetadataGroup] {
        chapters.enumerated().map { index, chapter in
            var end = chapter.end
            if end <= chapter.start {
                // A chapter without an end runs to the next one (or the asset's end).
                end = index + 1 < chapters.count ? chapters[index + 1].start : duration
            }
            let range = CMTimeRange(start: chapter.start, end: end.isNumeric ? end : chapter.start)
            let language = chapter.tags.first(where: { $0.key == "language" }).flatMap {
                LanguageTags.bcp47($0.value)
            }
            let title = chapter.title ?? "Chapter \(index + 1)"
            var items = [
                AVMetadataItem(
                    key: "title", keySpace: .playheadContainer, commonKey: .commonKeyTitle,
                    value: NSString(string: title), dataType: "com.apple.metadata.datatype.UTF-8",
                    extendedLanguageTag: language, time: range.start, duration: range.duration)
            ]
            for tag in chapter.tags where tag.key != "title" {
                items.append(
                    AVMetadataItem(
                        key: tag.key, keySpace: .playheadContainer,
                        commonKey: MetadataMapping.commonKeys[tag.key],
                        value: NSString(string: tag.value),
                        dataType: "com.apple.metadata.datatype.UTF-8",
                        extendedLanguageTag: language, time: range.start, duration: range.duration))
            }
            return AVTimedMetadataGroup(items: items, timeRange: range)
        }
    }

    static func locales(_ chapters: [MediaChapter]) -> [Locale] {
        guard !chapters.isEmpty else { return [] }
        let tag = chapters.lazy.compactMap { $0.tags.first { $0.key == "language" }?.value }
            .first.flatMap(LanguageTags.bcp47)
        return [Locale(identifier: tag ?? "und")]
    }

    /// Keeps the title item and the items whose common key is in `commonKeys`.
    static func filtered(_ groups: [AVTimedMetadataGroup], commonKeys: [AVMetadataKey]?)
        -> [AVTimedMetadataGroup]
    {
        let wanted = Set(commonKeys ?? []).union([.commonKeyTitle])
        return groups.map { group in
            AVTimedMetadataGroup(
                items: group.items.filter { $0.commonKey.map(wanted.contains) ?? false },
                timeRange: group.timeRange)
        }
    }
}
