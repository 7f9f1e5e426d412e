// Playhead: loops an item (or a time range of it) on a queue player, without a gap.
//
// Concurrency: the looper's state is behind a lock; any thread may read it. Replicas are
// made and queued, and the published properties change, on the main queue (item-end
// notifications and status changes arrive there).
import Foundation
import Synchronization

/// Plays an item again and again on an `AVQueuePlayer`.
///
/// The looper fills the queue with copies (*replicas*) of the template item, each limited to
/// `timeRange`; as each replica ends, the queue moves to the next one, which was prerolled
/// (already open, sought to the range's start, first frame decoded), so the loop has no
/// black frame and no gap, and the looper adds a fresh replica at the back.
///
/// ```swift
/// let player = AVQueuePlayer()
/// let looper = AVPlayerLooper(player: player, templateItem: AVPlayerItem(url: url))
/// player.play()
/// ```
///
/// - Important: Keep the looper alive as long as it should loop. `status` and `loopCount`
///   are observable (`observe(_:options:changeHandler:)`), changing on the main queue.
open class AVPlayerLooper: NSObject, _KeyValueObservable, @unchecked Sendable {
    /// Whether looping works.
    public enum Status: Int, Sendable {
        /// Not known yet (the template's media is still loading).
        case unknown = 0
        /// Looping.
        case ready = 1
        /// The item cannot loop; see `error`.
        case failed = 2
        /// `disableLooping()` stopped it.
        case cancelled = 3
    }

    /// Where the replicas go relative to items already in the queue.
    public enum ItemOrdering: Int, Sendable {
        /// Replicas play before the items already queued.
        case loopingItemsPrecedeExistingItems = 0
        /// Replicas play after the items already queued.
        case loopingItemsFollowExistingItems = 1
    }

    /// Guarded by `state`'s mutex, which makes the non-Sendable members safe to share.
    private struct State: @unchecked Sendable {
        var status: Status = .unknown
        var error: (any Error)?
        var loopCount = 0
        var replicas: [AVPlayerItem] = []
        var tokens: [any NSObjectProtocol] = []
        var observations: [NSKeyValueObservation] = []
        var isLooping = true
    }

    /// How many replicas the looper keeps queued (the current one, a prerolled one, a spare).
    static let replicaCount = 3

    /// Change bookkeeping for observers.
    nonisolated public let _kvoRegistry = _KeyValueObservingRegistry()
    /// protected by its mutex; published fields change on the main queue only
    private let state = Locked(State())
    private weak var player: AVQueuePlayer?
    private let template: AVPlayerItem
    private let loopRange: CMTimeRange

    /// Loops all of `itemToLoop` on `player`.
    public convenience init(player: AVQueuePlayer, templateItem itemToLoop: AVPlayerItem) {
        self.init(player: player, templateItem: itemToLoop, timeRange: .invalid)
    }

    /// Loops `loopRange` of `itemToLoop` on `player` (an invalid range loops the whole item).
    public convenience init(
        player: AVQueuePlayer, templateItem itemToLoop: AVPlayerItem, timeRange loopRange: CMTimeRange
    ) {
        self.init(
            player: player, templateItem: itemToLoop, timeRange: loopRange,
            existingItemsOrdering: .loopingItemsPrecedeExistingItems)
    }

    /// Loops `loopRange` of `itemToLoop` on `player`, its replicas placed before or after the
    /// items already queued. The template itself is never played; replicas are made from its
    /// asset with its forward buffer and pitch settings.
    public init(
        player: AVQueuePlayer, templateItem itemToLoop: AVPlayerItem, timeRange loopRange: CMTimeRange,
        existingItemsOrdering itemOrdering: ItemOrdering
    ) {
        self.player = player
        template = itemToLoop
        self.loopRange = loopRange
        super.init()
        let looper = self
        MainQueue.perform { looper.start(ordering: itemOrdering) }
    }

    deinit {
        let (tokens, observations) = state.withLock { ($0.tokens, $0.observations) }
        tokens.forEach { NotificationCenter.default.removeObserver($0) }
        observations.forEach { $0.invalidate() }
    }

    // MARK: - Observable state

    /// Whether looping works. Observable.
    open var status: Status { read(\AVPlayerLooper.status) { $0.status } }
    /// Why looping failed, when `status` is `.failed`. Observable.
    open var error: (any Error)? { read(\AVPlayerLooper.error) { $0.error } }
    /// How many times playback went from the end of the range back to its start. Observable.
    open var loopCount: Int { read(\AVPlayerLooper.loopCount) { $0.loopCount } }
    /// The replicas in the queue now.
    open var loopingPlayerItems: [AVPlayerItem] { state.withLock { $0.replicas } }

    /// Stops adding replicas and takes the ones not yet playing out of the queue: the current
    /// replica plays to its end, then the queue moves on past the loop. `status` becomes
    /// `.cancelled`.
    open func disableLooping() {
        let looper = self
        MainQueue.perform { looper.stop(status: .cancelled, error: nil) }
    }

    // MARK: - Main queue

    /// Queues the first replicas: right after the current item (before the items already
    /// waiting) or after the last item, as `ordering` says.
    private func start(ordering: ItemOrdering) {
        guard let player else { return }
        var anchor: AVPlayerItem? =
            ordering == .loopingItemsFollowExistingItems ? player.items().last : player.currentItem
        for _ in 0..<Self.replicaCount {
            let replica = makeReplica()
            player.insert(replica, after: anchor)
            anchor = replica
        }
    }

    private func makeReplica() -> AVPlayerItem {
        let replica = AVPlayerItem(asset: template.asset, automaticallyLoadedAssetKeys: nil)
        replica.preferredForwardBufferDuration = template.preferredForwardBufferDuration
        replica.audioTimePitchAlgorithm = template.audioTimePitchAlgorithm
        if loopRange.isValid, loopRange.start.isNumeric {
            if loopRange.start > .zero {
                replica.seek(to: loopRange.start, toleranceBefore: .zero, toleranceAfter: .zero, completionHandler: nil)
            }
            if loopRange.end.isNumeric { replica.forwardPlaybackEndTime = loopRange.end }
        }
        let center = NotificationCenter.default
        let looper = WeakReference(self), weakReplica = WeakReference(replica)
        let token = center.addObserver(
            forName: AVPlayerItem.didPlayToEndTimeNotification, object: replica, queue: nil
        ) { _ in
            MainQueue.perform {
                guard let replica = weakReplica.value else { return }
                looper.value?.replicaEnded(replica)
            }
        }
        let observation = replica.observe(\.status) { _, _ in
            MainQueue.perform {
                guard let replica = weakReplica.value else { return }
                looper.value?.replicaStatusChanged(replica)
            }
        }
        state.withLock { state in
            state.replicas.append(replica)
            state.tokens.append(token)
            state.observations.append(observation)
        }
        return replica
    }

    private func replicaEnded(_ replica: AVPlayerItem) {
        let looping = state.withLock { state -> Bool in
            state.replicas.removeAll { $0 === replica }
            return state.isLooping
        }
        guard looping, let player else { return }
        publish(\AVPlayerLooper.loopCount) { $0.loopCount += 1 }
        let last = state.withLock { $0.replicas.last }
        player.insert(makeReplica(), after: last)
    }

    private func replicaStatusChanged(_ replica: AVPlayerItem) {
        switch replica.status {
        case .readyToPlay where status == .unknown:
            publish(\AVPlayerLooper.status) { $0.status = .ready }
        case .failed:
            stop(status: .failed, error: replica.error)
        default:
            break
        }
    }

    private func stop(status newStatus: Status, error: (any Error)?) {
        let (replicas, wasLooping) = state.withLock { state -> ([AVPlayerItem], Bool) in
            defer { state.isLooping = false }
            return (state.replicas, state.isLooping)
        }
        guard wasLooping else { return }
        if let player {
            for replica in replicas where replica !== player.currentItem { player.remove(replica) }
        }
        if let error { publish(\AVPlayerLooper.error) { $0.error = error } }
        publish(\AVPlayerLooper.status) { $0.status = newStatus }
    }

    private func read<Value>(_ keyPath: KeyPath<AVPlayerLooper, Value>, _ body: (State) -> Value) -> Value {
        _kvoRegistry.access(keyPath, on: self)
        return state.withLock { body($0) }
    }

    private func publish<Value>(_ keyPath: KeyPath<AVPlayerLooper, Value>, _ change: (inout State) -> Void) {
        _kvoRegistry.withMutation(keyPath, on: self) { state.withLock { change(&$0) } }
    }
}
