// Playhead: the timed metadata groups an item's demux thread has read (ID3 frames of a
// `timed_id3` stream, ICY titles of a Shoutcast stream, samples of an MP4 'mebx' track),
// kept for the subtitle thread to deliver as playback reaches them.
//
// Concurrency: all state is behind `groups` (a lock). The demux thread adds; the subtitle
// thread reads and is woken through `changed` (the cue store's signal, since it waits on one).
import Foundation

final class TimedMetadataStore: Sendable {
    /// The most groups kept; the oldest go first.
    static let limit = 512

    private let groups = Locked<[AVTimedMetadataGroup]>([])
    /// Wakes the delivering thread after an add.
    let changed: WakeupSignal

    init(changed: WakeupSignal) {
        self.changed = changed
    }

    /// Adds `items` starting at `time`, unless the same items were already added at that time
    /// (a stretch read again after a seek).
    func add(_ items: [AVMetadataItem], at time: CMTime, duration: CMTime = .invalid) {
        guard !items.isEmpty, time.isNumeric else { return }
        let group = AVTimedMetadataGroup(items: items, timeRange: CMTimeRange(start: time, duration: duration))
        let added = groups.withLock { groups -> Bool in
            if groups.contains(where: { $0.timeRange.start == time && Self.sameItems($0.items, items) }) { return false }
            let index = groups.firstIndex { $0.timeRange.start > time } ?? groups.count
            groups.insert(group, at: index)
            if groups.count > Self.limit { groups.removeFirst(groups.count - Self.limit) }
            return true
        }
        if added { changed.wake() }
    }

    /// The groups starting after `after` and at or before `time`, in time order.
    func groups(after: CMTime, through time: CMTime) -> [AVTimedMetadataGroup] {
        groups.withLock { groups in
            groups.filter { $0.timeRange.start > after && $0.timeRange.start <= time }
        }
    }

    /// The last group starting at or before `time` (what applies then), if any.
    func latest(atOrBefore time: CMTime) -> AVTimedMetadataGroup? {
        groups.withLock { groups in groups.last { $0.timeRange.start <= time } }
    }

    /// The start of the first group after `time`, if any.
    func nextStart(after time: CMTime) -> CMTime? {
        groups.withLock { groups in groups.first { $0.timeRange.start > time }?.timeRange.start }
    }

    private static func sameItems(_ lhs: [AVMetadataItem], _ rhs: [AVMetadataItem]) -> Bool {
        lhs.count == rhs.count
            && zip(lhs, rhs).allSatisfy { $0.identifier == $1.identifier && $0.value?.isEqual($1.value) == true }
    }
}

/// What of the store the delivering thread has handed out: each group once, as the item time
/// reaches its start. A group that turns up after its start has passed (read late, or the
/// one in force where a seek landed) is delivered when it is the one that applies now. A new
/// generation (a seek) reports a flush first.
///
/// Concurrency: a value owned by the subtitle thread.
struct MetadataDelivery {
    let store: TimedMetadataStore
    private var generation = -1
    private var deliveredThrough: CMTime = .negativeInfinity
    /// The start of the last group delivered since the last flush.
    private var lastStart: CMTime?

    init(store: TimedMetadataStore) {
        self.store = store
    }

    /// How far time may step back without a seek before delivery starts over.
    static let backStepTolerance = CMTime(value: 1, timescale: 1)

    /// The groups to report at item `time`, and whether a flush comes first; nil when nothing
    /// is due.
    mutating func due(at time: CMTime, generation: Int) -> ([AVTimedMetadataGroup], flushed: Bool)? {
        guard time.isNumeric else { return nil }
        var flushed = false
        if generation != self.generation {
            flushed = self.generation >= 0
            self.generation = generation
            deliveredThrough = time
            lastStart = nil
        }
        if time < deliveredThrough {
            // A small step back is the clock handing over to the audio clock (which may trail
            // it after an underrun): nothing new is due. A large one is time going back without
            // a seek (a looped range): deliver afresh from there.
            guard deliveredThrough - time > Self.backStepTolerance else { return nil }
            deliveredThrough = time
            lastStart = nil
        }
        var groups = store.groups(after: deliveredThrough, through: time)
        if groups.isEmpty, let current = store.latest(atOrBefore: time),
            lastStart.map({ current.timeRange.start > $0 }) ?? true
        {
            groups = [current]
        }
        deliveredThrough = time
        if let last = groups.last { lastStart = last.timeRange.start }
        return groups.isEmpty && !flushed ? nil : (groups, flushed: flushed)
    }

    /// The start of the next group after `time`.
    func nextStart(after time: CMTime) -> CMTime? { store.nextStart(after: time) }
}
