// Playhead: the player's media selection criteria, applied to the groups of its items that
// the app left to automatic selection.
//
// Concurrency: any thread; the criteria live in the player's state (a lock). Changes reach
// the current item's engine at once and its notification is posted on the main queue.
import Foundation

extension AVPlayer {
    /// Whether the player picks options in groups the app did not choose in by the criteria
    /// set with `setMediaSelectionCriteria(_:forMediaCharacteristic:)` (true by default).
    nonisolated public var appliesMediaSelectionCriteriaAutomatically: Bool {
        get { state.withLock { $0.appliesMediaSelectionCriteriaAutomatically } }
        set {
            let changed = state.withLock { state -> Bool in
                defer { state.appliesMediaSelectionCriteriaAutomatically = newValue }
                return state.appliesMediaSelectionCriteriaAutomatically != newValue
            }
            if changed { reapplyAutomaticSelection() }
        }
    }

    /// Sets (nil: removes) the criteria for groups with `mediaCharacteristic` (`.audible`,
    /// `.legible`). The current item's automatic selection in such a group follows at once;
    /// later items start with it.
    nonisolated public func setMediaSelectionCriteria(
        _ criteria: AVPlayerMediaSelectionCriteria?,
        forMediaCharacteristic mediaCharacteristic: AVMediaCharacteristic
    ) {
        state.withLock { $0.selectionCriteria[mediaCharacteristic] = criteria }
        reapplyAutomaticSelection()
    }

    /// The criteria set for `mediaCharacteristic`, nil when none is.
    nonisolated public func mediaSelectionCriteria(
        forMediaCharacteristic mediaCharacteristic: AVMediaCharacteristic
    ) -> AVPlayerMediaSelectionCriteria? {
        state.withLock { $0.selectionCriteria[mediaCharacteristic] }
    }

    /// The criteria as they stand now.
    nonisolated var selectionCriteriaSnapshot: SelectionCriteriaSnapshot {
        state.withLock {
            SelectionCriteriaSnapshot(
                criteria: $0.selectionCriteria, appliesAutomatically: $0.appliesMediaSelectionCriteriaAutomatically,
                prefersFlaggedDefault: $0.showsFlaggedDefaultSubtitles)
        }
    }

    /// Whether items whose subtitles were left to automatic selection show the subtitle track
    /// the container (or the HLS playlist, `DEFAULT=YES`) flags as default, as desktop players
    /// do, instead of Apple's choice (off unless a track is forced). False by default; the
    /// `playhead` CLI sets it unless `--no-sub`. Criteria that fit still come first.
    nonisolated package var showsFlaggedDefaultSubtitles: Bool {
        get { state.withLock { $0.showsFlaggedDefaultSubtitles } }
        set {
            let changed = state.withLock { state -> Bool in
                defer { state.showsFlaggedDefaultSubtitles = newValue }
                return state.showsFlaggedDefaultSubtitles != newValue
            }
            if changed { reapplyAutomaticSelection() }
        }
    }

    /// Re-picks the current item's automatically selected groups.
    private nonisolated func reapplyAutomaticSelection() {
        state.withLock { $0.currentItem }?.reapplyAutomaticSelection()
    }
}

extension AVPlayerItem {
    /// The criteria of the player the item belongs to (none before it has one).
    nonisolated var selectionCriteria: SelectionCriteriaSnapshot {
        let player = state.withLock { $0.player }
        return player?.selectionCriteriaSnapshot ?? SelectionCriteriaSnapshot()
    }

    /// Applies the automatic choice again in every group the app did not choose in, telling
    /// the engine and posting the change when some choice moved.
    nonisolated func reapplyAutomaticSelection() {
        let criteria = selectionCriteria
        var moved: [(AVMediaCharacteristic, MediaOptionSource?)] = []
        let engine = state.withLock { state -> ItemPlayback? in
            for group in asset.loadedSelectionGroups where state.mediaSelection[group.characteristic] == nil {
                let source = criteria.automaticOption(in: group)?.source
                let previous: MediaOptionSource?
                if let known = state.automaticSelection[group.characteristic] {
                    previous = known
                } else if state.engine != nil, group.characteristic == .legible {
                    // The engine started before the asset's groups were known: it shows none.
                    previous = nil
                } else {
                    previous = criteria.fallbackOption(in: group)?.source
                }
                guard source != previous else { continue }
                state.automaticSelection[group.characteristic] = .some(source)
                moved.append((group.characteristic, source))
            }
            return state.engine
        }
        guard !moved.isEmpty else { return }
        for (characteristic, source) in moved { engine?.apply(source, for: characteristic) }
        let item = UncheckedBox(self)
        MainQueue.perform { item.value.post(AVPlayerItem.mediaSelectionDidChangeNotification) }
    }
}
