// Playhead: a snapshot of which option is selected in each media selection group.
// Concurrency: an immutable snapshot.
import Foundation

/// Which option each of an asset's media selection groups has selected, as returned by
/// `AVPlayerItem.currentMediaSelection` and `AVAsset.preferredMediaSelection`.
///
/// - Important: Immutable snapshot; thread-safe.
open class AVMediaSelection: NSObject, @unchecked Sendable {
    /// The asset the selection belongs to.
    public private(set) weak var asset: AVAsset?
    let selected: [AVMediaCharacteristic: AVMediaSelectionOption]
    /// The groups whose option was picked automatically under the player's criteria.
    let automatic: Set<AVMediaCharacteristic>

    init(
        asset: AVAsset?, selected: [AVMediaCharacteristic: AVMediaSelectionOption],
        automatic: Set<AVMediaCharacteristic> = []
    ) {
        self.asset = asset
        self.selected = selected
        self.automatic = automatic
        super.init()
    }

    /// The option selected in `mediaSelectionGroup`; nil when none is (subtitles off).
    public func selectedMediaOption(in mediaSelectionGroup: AVMediaSelectionGroup)
        -> AVMediaSelectionOption?
    {
        guard let option = selected[mediaSelectionGroup.characteristic],
            mediaSelectionGroup.options.contains(option)
        else { return nil }
        return option
    }

    /// Whether the selection in `mediaSelectionGroup` is the player's automatic one (no
    /// explicit `select(_:in:)`, and the player applies its criteria automatically).
    public func mediaSelectionCriteriaCanBeAppliedAutomatically(
        to mediaSelectionGroup: AVMediaSelectionGroup
    )
        -> Bool
    {
        automatic.contains(mediaSelectionGroup.characteristic)
    }
}
