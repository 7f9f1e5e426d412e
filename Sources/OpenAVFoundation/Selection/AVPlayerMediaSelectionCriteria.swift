// Playhead: what an app prefers when the player picks an item's audio and subtitles itself.
// Concurrency: immutable criteria and pure choosing functions.
import Foundation

/// An app's preferences for automatic media selection: languages, most wanted first, and
/// characteristics such as `.describesVideoForAccessibility` or
/// `.transcribesSpokenDialogForAccessibility`. Set them on the player with
/// `setMediaSelectionCriteria(_:forMediaCharacteristic:)`.
///
/// - Important: Immutable; thread-safe.
open class AVPlayerMediaSelectionCriteria: NSObject, @unchecked Sendable {
    /// Languages (BCP 47) in order of preference; nil for no preference.
    public let preferredLanguages: [String]?
    /// Characteristics in order of preference; nil for no preference.
    public let preferredMediaCharacteristics: [AVMediaCharacteristic]?
    /// Characteristics that outrank the language order; nil for none.
    public let principalMediaCharacteristics: [AVMediaCharacteristic]?

    /// Criteria with preferred languages and characteristics.
    public init(preferredLanguages: [String]?, preferredMediaCharacteristics: [AVMediaCharacteristic]?) {
        self.preferredLanguages = preferredLanguages
        self.preferredMediaCharacteristics = preferredMediaCharacteristics
        self.principalMediaCharacteristics = nil
        super.init()
    }

    /// Criteria whose principal characteristics count before the language order.
    public init(
        principalMediaCharacteristics: [AVMediaCharacteristic]?, preferredLanguages: [String]?,
        preferredMediaCharacteristics: [AVMediaCharacteristic]?
    ) {
        self.preferredLanguages = preferredLanguages
        self.preferredMediaCharacteristics = preferredMediaCharacteristics
        self.principalMediaCharacteristics = principalMediaCharacteristics
        super.init()
    }

    /// The option these criteria pick in `group`, nil when none fits (the group's default
    /// then applies). Only playable options count. Principal characteristics narrow the
    /// options first (when some option has them), then the first preferred language that
    /// some option is in, then the option with the most preferred characteristics, earlier
    /// ones weighing more; ties keep container order.
    func choose(in group: AVMediaSelectionGroup) -> AVMediaSelectionOption? {
        var candidates = AVMediaSelectionGroup.playableMediaSelectionOptions(from: group.options)
        if let principal = principalMediaCharacteristics, !principal.isEmpty {
            let narrowed = AVMediaSelectionGroup.mediaSelectionOptions(
                from: candidates, withMediaCharacteristics: principal)
            if !narrowed.isEmpty { candidates = narrowed }
        }
        if let languages = preferredLanguages, !languages.isEmpty {
            let inLanguage = languages.lazy.map { language in
                AVMediaSelectionGroup.mediaSelectionOptions(
                    from: candidates, filteredAndSortedAccordingToPreferredLanguages: [language])
            }.first { !$0.isEmpty }
            guard let inLanguage else { return nil }
            candidates = inLanguage
        } else if preferredMediaCharacteristics?.isEmpty ?? true {
            return nil  // nothing preferred: the group's own default stands
        }
        let wanted = preferredMediaCharacteristics ?? []
        func score(_ option: AVMediaSelectionOption) -> Int {
            wanted.enumerated().reduce(0) { total, entry in
                option.hasMediaCharacteristic(entry.element) ? total + (1 << (wanted.count - entry.offset)) : total
            }
        }
        if preferredLanguages?.isEmpty ?? true, !candidates.contains(where: { score($0) > 0 }) { return nil }
        return candidates.enumerated().max { lhs, rhs in
            let (left, right) = (score(lhs.element), score(rhs.element))
            return left != right ? left < right : lhs.offset > rhs.offset
        }?.element
    }
}

/// The player's criteria at the moment an item's selection is made.
struct SelectionCriteriaSnapshot: @unchecked Sendable {
    var criteria: [AVMediaCharacteristic: AVPlayerMediaSelectionCriteria] = [:]
    var appliesAutomatically = true
    /// Fall back on the option the container flags as default rather than `defaultOption`
    /// (the player's `showsFlaggedDefaultSubtitles`).
    var prefersFlaggedDefault = false

    /// The option automatic selection picks in `group`: the criteria's choice when they apply
    /// and fit, else ``fallbackOption(in:)``.
    func automaticOption(in group: AVMediaSelectionGroup) -> AVMediaSelectionOption? {
        if appliesAutomatically, let criteria = criteria[group.characteristic],
            let chosen = criteria.choose(in: group)
        {
            return chosen
        }
        return fallbackOption(in: group)
    }

    /// The group's default option; for subtitles on a player that shows flagged tracks, the
    /// track the container flags as default first.
    func fallbackOption(in group: AVMediaSelectionGroup) -> AVMediaSelectionOption? {
        prefersFlaggedDefault && group.characteristic == .legible ? group.flaggedDefaultOption : group.defaultOption
    }
}
