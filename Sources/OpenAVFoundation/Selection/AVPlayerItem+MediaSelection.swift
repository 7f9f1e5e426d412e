// Playhead: choosing an item's audio language and subtitles: select(_:in:), currentMediaSelection.
//
// Concurrency: callable from any thread. The choice is stored in the item's state (a lock)
// and forwarded to the engine, which switches on its own threads; the change notification
// is posted from the main queue.
import Foundation

extension AVPlayerItem {
    /// Posted (on the main queue) when the item's media selection changes.
    nonisolated public static let mediaSelectionDidChangeNotification = NSNotification.Name(
        "AVPlayerItemMediaSelectionDidChangeNotification")

    /// Selects `mediaSelectionOption` in `mediaSelectionGroup`: another audio language plays
    /// from the current time on (spliced in without a gap), or subtitles from the option show
    /// from now on. `nil` turns subtitles off; it is ignored for groups that do not allow an
    /// empty selection (audio). Options not in the group are ignored.
    nonisolated public func select(
        _ mediaSelectionOption: AVMediaSelectionOption?,
        in mediaSelectionGroup: AVMediaSelectionGroup
    ) {
        if let option = mediaSelectionOption {
            guard mediaSelectionGroup.options.contains(option) else { return }
        } else if !mediaSelectionGroup.allowsEmptySelection {
            return
        }
        let source = mediaSelectionOption?.source
        let characteristic = mediaSelectionGroup.characteristic
        let engine = state.withLock { state -> ItemPlayback? in
            state.mediaSelection[characteristic] = .some(source)
            return state.engine
        }
        engine?.apply(source, for: characteristic)
        let item = UncheckedBox(self)
        MainQueue.perform { item.value.post(AVPlayerItem.mediaSelectionDidChangeNotification) }
    }

    /// The option selected in `mediaSelectionGroup`, nil when none is (subtitles off).
    /// Apple deprecated it in favour of `currentMediaSelection.selectedMediaOption(in:)`,
    /// which it forwards to; ported code still calls it.
    @available(*, deprecated, message: "Use currentMediaSelection.selectedMediaOption(in:)")
    nonisolated public func selectedMediaOption(in mediaSelectionGroup: AVMediaSelectionGroup) -> AVMediaSelectionOption? {
        currentMediaSelection.selectedMediaOption(in: mediaSelectionGroup)
    }

    /// Goes back to the group's automatic choice: the player's criteria for the group when
    /// they fit (`setMediaSelectionCriteria(_:forMediaCharacteristic:)`), else its default option.
    nonisolated public func selectMediaOptionAutomatically(
        in mediaSelectionGroup: AVMediaSelectionGroup
    ) {
        let characteristic = mediaSelectionGroup.characteristic
        let option = selectionCriteria.automaticOption(in: mediaSelectionGroup)
        let engine = state.withLock { state -> ItemPlayback? in
            state.mediaSelection[characteristic] = nil
            state.automaticSelection[characteristic] = .some(option?.source)
            return state.engine
        }
        engine?.apply(option?.source, for: characteristic)
        let item = UncheckedBox(self)
        MainQueue.perform { item.value.post(AVPlayerItem.mediaSelectionDidChangeNotification) }
    }

    /// The option selected in each of the asset's groups: what was chosen with `select(_:in:)`,
    /// else the automatic choice (the player's criteria when they fit, else the group's
    /// default option). Empty while the asset is not loaded; never blocks.
    nonisolated public var currentMediaSelection: AVMediaSelection {
        let choices = state.withLock { $0.mediaSelection }
        let criteria = selectionCriteria
        var selected: [AVMediaCharacteristic: AVMediaSelectionOption] = [:]
        var automatic: Set<AVMediaCharacteristic> = []
        for group in asset.loadedSelectionGroups {
            if let choice = choices[group.characteristic] {
                if let source = choice {
                    selected[group.characteristic] = group.options.first { $0.source == source }
                }
            } else {
                selected[group.characteristic] = criteria.automaticOption(in: group)
                if criteria.appliesAutomatically { automatic.insert(group.characteristic) }
            }
        }
        return AVMediaSelection(asset: asset, selected: selected, automatic: automatic)
    }

    /// The selection the engine starts with: explicit choices, else the automatic choice under
    /// `criteria` (the player's, taken when the engine is made).
    nonisolated func engineSelection(criteria: SelectionCriteriaSnapshot) -> EngineSelection {
        let choices = state.withLock { $0.mediaSelection }
        let groups = asset.loadedSelectionGroups
        var automatic: [AVMediaCharacteristic: MediaOptionSource?] = [:]
        func source(_ characteristic: AVMediaCharacteristic) -> MediaOptionSource? {
            if let choice = choices[characteristic] { return choice }
            guard let group = groups.first(where: { $0.characteristic == characteristic }) else { return nil }
            let source = criteria.automaticOption(in: group)?.source
            automatic[characteristic] = .some(source)
            return source
        }
        var result = EngineSelection()
        result.audioStream = source(.audible)?.streamIndex
        result.legible = source(.legible)
        state.withLock { $0.automaticSelection = automatic }
        return result
    }
}

extension ItemPlayback {
    /// Forwards a selection to the engine's audio or subtitle side.
    func apply(_ source: MediaOptionSource?, for characteristic: AVMediaCharacteristic) {
        switch characteristic {
        case .audible: if let index = source?.streamIndex { selectAudio(streamIndex: index) }
        case .legible: selectLegible(source)
        default: break
        }
    }
}
