// Playhead: a player that plays a list of items one after another, gaplessly.
//
// Concurrency: the upcoming items and the prerolled next item live in `queue` (a lock); any
// thread may read or change the list (items() reflects a change at once), while everything
// that touches engines or published state (advancing, prerolling) runs on the main queue.
import Foundation
import Synchronization

/// Plays a queue of items in order. When the current item ends (`actionAtItemEnd` is
/// `.advance` by default), it is removed and the next one plays at the same rate.
///
/// ```swift
/// let queue = AVQueuePlayer(items: urls.map { AVPlayerItem(url: $0) })
/// queue.play()
/// ```
///
/// The next item is opened and its first frame decoded while the current one plays (it is
/// *prerolled*), so the switch shows the next picture at once, with no gap.
///
/// - Important: Same threading rules as `AVPlayer`.
open class AVQueuePlayer: AVPlayer {
    /// The list after the current item, and the engine prerolling its first entry.
    struct QueueState {
        var upcoming: [AVPlayerItem] = []
        var prerolled: PrerolledItem?
    }

    /// protected by its mutex; `prerolled` changes only on the main queue
    nonisolated let queue = Locked(QueueState())

    /// An empty queue.
    nonisolated public override init() {
        super.init()
        becomeQueue(items: [])
    }

    /// A queue that plays `items` in order (duplicates are left out).
    nonisolated public init(items: [AVPlayerItem]) {
        super.init()
        becomeQueue(items: items)
    }

    /// A queue holding `item`, or an empty queue.
    nonisolated public override init(playerItem item: AVPlayerItem?) {
        super.init()
        becomeQueue(items: item.map { [$0] } ?? [])
    }

    /// A queue with explicit outputs and clock (tests, the CLI).
    nonisolated package init(environment: PlaybackEnvironment, items: [AVPlayerItem]) {
        super.init(environment: environment, playerItem: nil)
        becomeQueue(items: items)
    }

    nonisolated package override init(environment: PlaybackEnvironment, playerItem item: AVPlayerItem?) {
        super.init(environment: environment, playerItem: nil)
        becomeQueue(items: item.map { [$0] } ?? [])
    }

    deinit {
        let prerolled = queue.withLock { $0.prerolled }
        prerolled?.engine.stop()
    }

    nonisolated private func becomeQueue(items: [AVPlayerItem]) {
        var unique: [AVPlayerItem] = []
        for item in items where !unique.contains(where: { $0 === item }) { unique.append(item) }
        state.withLock { $0.actionAtItemEnd = .advance }
        queue.withLock { $0.upcoming = unique }
        let player = self
        MainQueue.perform {
            player.handle(.setActionAtItemEnd(.advance))
            player.queueChanged()
        }
    }

    // MARK: - The queue

    /// The items in the queue: the current item first, then the ones that follow.
    nonisolated open func items() -> [AVPlayerItem] {
        let current = currentItem
        let upcoming = queue.withLock { $0.upcoming }
        return (current.map { [$0] } ?? []) + upcoming.filter { $0 !== current }
    }

    /// Ends the current item and plays the next one (at the same rate).
    nonisolated open func advanceToNextItem() {
        let player = self
        MainQueue.perform { player.advance() }
    }

    /// True when `item` may be inserted after `afterItem` (nil: at the end): it is not in
    /// this queue or another player yet, and `afterItem` is in the queue.
    nonisolated open func canInsert(_ item: AVPlayerItem, after afterItem: AVPlayerItem?) -> Bool {
        let current = currentItem
        let upcoming = queue.withLock { $0.upcoming }
        let inQueue = { (candidate: AVPlayerItem) in
            candidate === current || upcoming.contains { $0 === candidate }
        }
        if inQueue(item) { return false }
        if let owner = item.state.withLock({ $0.player }), owner !== self { return false }
        if let afterItem, !inQueue(afterItem) { return false }
        return true
    }

    /// Puts `item` after `afterItem` (nil: at the end). An item that cannot be inserted (see
    /// `canInsert(_:after:)`) is ignored. Inserting into an empty queue makes it current.
    nonisolated open func insert(_ item: AVPlayerItem, after afterItem: AVPlayerItem?) {
        guard canInsert(item, after: afterItem) else { return }
        let current = currentItem
        queue.withLock { queue in
            if let afterItem, afterItem !== current,
                let index = queue.upcoming.firstIndex(where: { $0 === afterItem })
            {
                queue.upcoming.insert(item, at: index + 1)
            } else if afterItem != nil {
                queue.upcoming.insert(item, at: 0)
            } else {
                queue.upcoming.append(item)
            }
        }
        let player = self
        MainQueue.perform { player.queueChanged() }
    }

    /// Takes `item` out of the queue; removing the current item advances to the next one.
    nonisolated open func remove(_ item: AVPlayerItem) {
        if item === currentItem {
            advanceToNextItem()
            return
        }
        queue.withLock { $0.upcoming.removeAll { $0 === item } }
        let player = self
        MainQueue.perform { player.queueChanged() }
    }

    /// Empties the queue; the current item stops and `currentItem` becomes nil.
    nonisolated open func removeAllItems() {
        queue.withLock { $0.upcoming.removeAll() }
        let player = self
        MainQueue.perform {
            player.installItem(nil)
            player.queueChanged()
        }
    }

    nonisolated open override func _advanceAfterItemEnd() { advance() }

    // MARK: - Main queue

    /// Makes the next item current (the prerolled engine, when it is the one).
    nonisolated func advance() {
        let (next, prerolled) = queue.withLock { queue -> (AVPlayerItem?, PrerolledItem?) in
            let next = queue.upcoming.isEmpty ? nil : queue.upcoming.removeFirst()
            let prerolled = queue.prerolled
            queue.prerolled = nil
            return (next, prerolled)
        }
        if let prerolled, prerolled.item !== next { prerolled.cancel() }
        installItem(next, prerolled: prerolled)
        queueChanged()
    }

    /// After any change: an idle queue starts its first item; the item after the current
    /// one is prerolled (and a preroll that is no longer next is cancelled).
    nonisolated func queueChanged() {
        if currentItem == nil, queue.withLock({ !$0.upcoming.isEmpty }) {
            advance()
            return
        }
        let environment = self.environment
        let hasCurrent = currentItem != nil
        let currentEngine = state.withLock { $0.engine }
        let (stale, fresh) = queue.withLock { queue -> (PrerolledItem?, PrerolledItem?) in
            let wanted = hasCurrent ? queue.upcoming.first : nil
            guard queue.prerolled?.item !== wanted else { return (nil, nil) }
            let stale = queue.prerolled
            let device = audioOutputDeviceUniqueID
            queue.prerolled = wanted.map {
                PrerolledItem(
                    item: $0, environment: environment, criteria: selectionCriteriaSnapshot, audioDevice: device,
                    predecessor: currentEngine)
            }
            return (stale, queue.prerolled)
        }
        stale?.cancel()
        // The next item plays with the player's volume, audio delay and tempo from its first
        // sound.
        if let fresh {
            applyAudioSettings()
            let rate = state.withLock { $0.machine.rate }
            fresh.engine.setUpcomingRate(Double(rate > 0 ? rate : defaultRate))
        }
    }

    /// The prerolled next item's engine.
    nonisolated override var upcomingEngine: ItemPlayback? { queue.withLock { $0.prerolled?.engine } }

    /// True when the next item's engine has its media open and first frame decoded (tests).
    nonisolated var isNextItemPrerolled: Bool {
        queue.withLock { $0.prerolled }?.engine.isFirstFrameReady ?? false
    }
}
