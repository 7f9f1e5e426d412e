// Playhead: a set of mutually exclusive options (audio languages, subtitle tracks) of an asset.
// Concurrency: immutable objects and pure class functions.
import FFmpegBridge
import Foundation

/// The options of an asset that share a characteristic and exclude each other: the audio
/// tracks (`.audible`) or the subtitle tracks and files (`.legible`).
///
/// ```swift
/// if let group = try await asset.loadMediaSelectionGroup(for: .legible),
///    let french = AVMediaSelectionGroup.mediaSelectionOptions(from: group.options, with: Locale(identifier: "fr")).first {
///     item.select(french, in: group)
/// }
/// ```
///
/// - Important: Immutable; thread-safe.
open class AVMediaSelectionGroup: NSObject, @unchecked Sendable {
    /// The options, in container order (subtitle files after the embedded tracks).
    public let options: [AVMediaSelectionOption]
    /// The option chosen when nothing was selected: the container's default audio track;
    /// for subtitles, a forced track when there is one, else nil (subtitles off).
    public let defaultOption: AVMediaSelectionOption?
    /// Whether the group may have no option selected: true for subtitles, false for audio.
    public let allowsEmptySelection: Bool
    /// The characteristic the group's options share.
    let characteristic: AVMediaCharacteristic

    init(
        characteristic: AVMediaCharacteristic, options: [AVMediaSelectionOption],
        defaultOption: AVMediaSelectionOption?
    ) {
        self.characteristic = characteristic
        self.options = options
        self.defaultOption = defaultOption
        self.allowsEmptySelection = characteristic != .audible
        super.init()
    }

    /// The option whose ``AVMediaSelectionOption/propertyList()`` is `plist`, if any.
    public func mediaSelectionOption(withPropertyList plist: Any) -> AVMediaSelectionOption? {
        guard let text = plist as? String else { return nil }
        return options.first { ($0.propertyList() as? String) == text }
    }

    /// The options that can be played.
    public class func playableMediaSelectionOptions(
        from mediaSelectionOptions: [AVMediaSelectionOption]
    )
        -> [AVMediaSelectionOption]
    {
        mediaSelectionOptions.filter(\.isPlayable)
    }

    /// The options in one of `preferredLanguages` (BCP 47), most preferred first.
    public class func mediaSelectionOptions(
        from mediaSelectionOptions: [AVMediaSelectionOption],
        filteredAndSortedAccordingToPreferredLanguages preferredLanguages: [String]
    ) -> [AVMediaSelectionOption] {
        var result: [AVMediaSelectionOption] = []
        for language in preferredLanguages {
            for option in mediaSelectionOptions where !result.contains(option) {
                if LanguageMatch.matches(option.extendedLanguageTag, language) {
                    result.append(option)
                }
            }
        }
        return result
    }

    /// The options whose language is `locale`'s language.
    public class func mediaSelectionOptions(
        from mediaSelectionOptions: [AVMediaSelectionOption], with locale: Locale
    ) -> [AVMediaSelectionOption] {
        let language = locale.identifier
        return mediaSelectionOptions.filter {
            LanguageMatch.matches($0.extendedLanguageTag, language)
        }
    }

    /// The options that have every characteristic in `mediaCharacteristics`.
    public class func mediaSelectionOptions(
        from mediaSelectionOptions: [AVMediaSelectionOption],
        withMediaCharacteristics mediaCharacteristics: [AVMediaCharacteristic]
    ) -> [AVMediaSelectionOption] {
        mediaSelectionOptions.filter { option in
            mediaCharacteristics.allSatisfy(option.hasMediaCharacteristic)
        }
    }

    /// The options that have none of `mediaCharacteristics`.
    public class func mediaSelectionOptions(
        from mediaSelectionOptions: [AVMediaSelectionOption],
        withoutMediaCharacteristics mediaCharacteristics: [AVMediaCharacteristic]
    ) -> [AVMediaSelectionOption] {
        mediaSelectionOptions.filter { option in
            !mediaCharacteristics.contains(where: option.hasMediaCharacteristic)
        }
    }

    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? AVMediaSelectionGroup else { return false }
        return other.characteristic == characteristic && other.options == options
    }

    open override var hash: Int { characteristic.hashValue }

    open override var description: String {
        "AVMediaSelectionGroup(\(characteristic.rawValue), \(options.count) options)"
    }
}

/// Language tag comparison for option filtering.
///
/// Concurrency: pure functions.
enum LanguageMatch {
    /// True when `tag` (an option's BCP 47 tag) is the language `wanted` names: "en" matches
    /// "en", "en-US", "eng" and "English"-less three-letter codes that map to it.
    static func matches(_ tag: String?, _ wanted: String) -> Bool {
        guard let tag else { return false }
        let want = primary(LanguageTags.bcp47(wanted) ?? wanted)
        return primary(tag) == want
    }

    static func primary(_ tag: String) -> String {
        let first =
            tag.split(whereSeparator: { $0 == "-" || $0 == "_" }).first.map(String.init) ?? tag
        let lowered = first.lowercased()
        return LanguageTags.bcp47(lowered) ?? lowered
    }
}

extension AVMediaSelectionGroup {
    /// What a desktop player shows when nobody asked for anything: the first playable option
    /// the container (or HLS playlist) flags as default, else ``defaultOption`` (for subtitles a
    /// forced track, else nil). Apple's automatic selection ignores the flag for subtitles, so
    /// items keep ``defaultOption``; the `playhead` CLI selects this one.
    package var flaggedDefaultOption: AVMediaSelectionOption? {
        options.first { $0.isFlaggedDefault && $0.isPlayable } ?? defaultOption
    }
}
