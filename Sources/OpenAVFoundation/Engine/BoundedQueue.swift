// Playhead: the blocking, generation-aware queue between engine threads (packets and frames).

// Concurrency: producers (e.g. the demux thread) and consumers (e.g. a decode thread) may be any
// threads, any number of each. Every mutable field is protected by `condition`; each operation
// holds it only for O(1) bookkeeping (plus dropping stale entries) and never calls out while
// holding it. Blocking calls sleep on `condition` and are released by `abort()`. Never used from
// the real-time audio callback.

/// A thread-safe FIFO bounded by element count, total cost (bytes) and total duration.
///
/// One generic type serves both packet queues and frame queues. Each entry carries the
/// generation it was produced under; ``flush(newGeneration:)`` drops every entry and raises the
/// queue's generation, and any entry tagged with an older generation that still shows up (a
/// producer that was blocked during the flush) is discarded instead of delivered.
///
/// The queue is *full* as soon as any limit is reached; a single entry larger than a limit is
/// still accepted into an otherwise empty queue, so oversized items cannot deadlock it.
///
/// Thread-safe.
package final class BoundedQueue<Element: Sendable>: @unchecked Sendable {
    /// Limits that make the queue full; `nil` means unlimited.
    package struct Limits: Sendable, Equatable {
        /// Maximum number of entries.
        package var count: Int?
        /// Maximum sum of entry costs (typically bytes).
        package var cost: Int?
        /// Maximum sum of entry durations.
        package var duration: CMTime?
        /// How far below ``duration`` the queued duration must fall before a producer that found
        /// the queue full puts again (zero: as soon as it is not full). A gap lets a producer
        /// refill in bursts instead of waking for every entry taken.
        package var refillGap: CMTime

        /// Creates limits; omitted ones are unlimited, and a producer resumes as soon as the
        /// queue is not full unless `refillGap` says otherwise.
        package init(count: Int? = nil, cost: Int? = nil, duration: CMTime? = nil, refillGap: CMTime = .zero) {
            self.count = count
            self.cost = cost
            self.duration = duration
            self.refillGap = refillGap
        }
    }

    /// An entry with the bookkeeping it was queued with.
    package struct Item: Sendable {
        /// The queued value.
        package var element: Element
        /// Its cost (typically bytes) as given to `put`.
        package var cost: Int
        /// Its duration as given to `put` (`.invalid` counts as zero).
        package var duration: CMTime
        /// The generation it was produced under.
        package var generation: Int
    }

    /// What happened to a `put`.
    package enum PutResult: Sendable, Equatable {
        /// The element was queued.
        case enqueued
        /// The element's generation is older than the queue's; it was dropped.
        case stale
        /// The queue was aborted; the element was dropped.
        case aborted
    }

    /// A consistent snapshot of the queue's fill level, for buffering decisions.
    package struct Statistics: Sendable, Equatable {
        /// Number of queued entries.
        package var count: Int
        /// Sum of queued costs.
        package var cost: Int
        /// Sum of queued durations.
        package var duration: CMTime
        /// Whether any limit is reached, or a producer waits for the queue to drain by the
        /// refill gap (a `put` would block).
        package var isFull: Bool
        /// Whether nothing is queued.
        package var isEmpty: Bool { count == 0 }
        /// Whether end of stream was marked and every entry has been taken.
        package var endOfStreamReached: Bool
        /// Whether end of stream was marked (entries may remain).
        package var endOfStreamMarked: Bool
        /// The queue's current generation.
        package var generation: Int
        /// Whether ``BoundedQueue/abort()`` was called.
        package var isAborted: Bool
        /// Producers blocked in `put` (waiting for room, or for the refill gap to drain).
        package var waitingProducers = 0
    }

    /// The limits this queue was created with.
    package let limits: Limits

    private let condition = ThreadCondition()
    private var items: [Item?] = []  // protected by condition; ring storage, nil = free slot
    private var head = 0  // protected by condition; index of the oldest entry in `items`
    private var itemCount = 0  // protected by condition
    private var totalCost = 0  // protected by condition
    private var totalDuration = CMTime.zero  // protected by condition
    private var generation: Int  // protected by condition
    private var endOfStreamMarked = false  // protected by condition
    private var aborted = false  // protected by condition
    private var waitingProducers = 0  // protected by condition; producers blocked in `put`
    private var admittedProducers = 0  // protected by condition; waiting producers let in over the limit

    /// Creates an empty queue.
    /// - Parameters:
    ///   - limits: when the queue counts as full.
    ///   - generation: the initial generation.
    package init(limits: Limits, generation: Int = 0) {
        self.limits = limits
        self.generation = generation
    }

    // MARK: - Producing

    /// Appends an element, blocking while the queue is full. A producer that blocked resumes
    /// once the queue is not full and its duration lies ``Limits/refillGap`` below the limit.
    ///
    /// Returns at once with `.aborted` after ``abort()``, and with `.stale` when `generation` is
    /// older than the queue's (also when a flush happened while this call was blocked). A
    /// `generation` newer than the queue's acts as ``flush(newGeneration:)`` first.
    /// - Parameters:
    ///   - element: the value to queue.
    ///   - cost: its weight against ``Limits/cost`` (for example its size in bytes).
    ///   - duration: its weight against ``Limits/duration``; `.invalid` counts as zero.
    ///   - generation: the generation it was produced under.
    @discardableResult
    package func put(
        _ element: Element, cost: Int = 0, duration: CMTime = .zero, generation: Int
    ) -> PutResult {
        condition.withLock {
            var blocked = false
            while true {
                if aborted { return .aborted }
                if generation < self.generation { return .stale }
                if generation > self.generation { flushLocked(newGeneration: generation) }
                if blocked ? hasRoomAfterWaitLocked : !isFullLocked { break }
                if blocked, admittedProducers > 0 {
                    admittedProducers -= 1
                    break
                }
                blocked = true
                waitingProducers += 1
                condition.wait()
                waitingProducers -= 1
            }
            // Admissions are for the producers waiting when they were given, never later ones.
            if waitingProducers == 0 { admittedProducers = 0 }
            append(Item(element: element, cost: cost, duration: duration, generation: generation))
            condition.broadcast()
            return .enqueued
        }
    }

    /// Lets the producers blocked in `put` right now append their element over the limit and
    /// return (the demux thread, which must come round to act on a change, such as starting an
    /// audio track read on demand, while a queue stays full: paused, or on a clock that stands
    /// still). A producer that is not waiting is not affected.
    package func admitWaitingProducers() {
        condition.withLock {
            guard waitingProducers > 0 else { return }
            admittedProducers = waitingProducers
            condition.broadcast()
        }
    }

    /// Records that no more elements will be put (until the next flush). Consumers drain what is
    /// queued, then `take()` returns `nil`.
    package func markEndOfStream() {
        condition.withLock {
            endOfStreamMarked = true
            condition.broadcast()
        }
    }

    /// Takes back the end of stream marked while entries are still queued, so more may follow
    /// them (more of the stream is being read after all: an audio track read on demand that
    /// starts once everything else was read). True when it did; false when no end was marked
    /// or the consumer may already have met it (nothing is queued).
    package func reopenEnd() -> Bool {
        condition.withLock {
            guard endOfStreamMarked, itemCount > 0 else { return false }
            endOfStreamMarked = false
            return true
        }
    }

    // MARK: - Consuming

    /// Removes and returns the oldest current-generation entry, blocking while the queue is empty.
    /// - Returns: `nil` after ``abort()``, or once end of stream is marked and nothing is left.
    package func take() -> Item? {
        condition.withLock {
            while true {
                if aborted { return nil }
                dropStaleLocked()
                if let item = removeFirstLocked() {
                    wakeProducersWithRoomLocked()
                    return item
                }
                if endOfStreamMarked { return nil }
                condition.wait()
            }
        }
    }

    /// Removes and returns the oldest current-generation entry without blocking.
    package func tryTake() -> Item? {
        condition.withLock {
            guard !aborted else { return nil }
            dropStaleLocked()
            let item = removeFirstLocked()
            if item != nil { wakeProducersWithRoomLocked() }
            return item
        }
    }

    /// Returns the oldest current-generation entry without removing it or blocking.
    package func peek() -> Item? {
        condition.withLock {
            guard !aborted else { return nil }
            if dropStaleLocked() { condition.broadcast() }
            return itemCount > 0 ? items[head] : nil
        }
    }

    // MARK: - Control

    /// Drops every entry, clears end of stream and moves to `newGeneration`. Blocked producers
    /// holding older-generation elements return `.stale`.
    /// A generation the queue already reached (a producer's `put` of a newer generation
    /// flushes by itself, and may win the race with the seek that asked for the flush) leaves
    /// the queue alone.
    package func flush(newGeneration: Int) {
        condition.withLock {
            guard newGeneration > generation else { return }
            flushLocked(newGeneration: newGeneration)
        }
    }

    /// Releases every blocked producer and consumer; afterwards `put` fails and `take` returns
    /// `nil`. Irreversible: used for teardown.
    package func abort() {
        condition.withLock {
            aborted = true
            condition.broadcast()
        }
    }

    /// A consistent snapshot of the fill level.
    package var statistics: Statistics {
        condition.withLock {
            Statistics(
                count: itemCount, cost: totalCost, duration: totalDuration,
                isFull: isFullLocked || waitingProducers > 0,
                endOfStreamReached: endOfStreamMarked && itemCount == 0,
                endOfStreamMarked: endOfStreamMarked, generation: generation, isAborted: aborted,
                waitingProducers: waitingProducers)
        }
    }

    // MARK: - Storage (call with `condition` held)

    private var isFullLocked: Bool {
        if let maximum = limits.count, itemCount >= maximum { return true }
        if let maximum = limits.cost, totalCost >= maximum { return true }
        if let maximum = limits.duration, maximum.isValid, totalDuration >= maximum { return true }
        return false
    }

    /// Whether a producer that found the queue full may put now: not full, and the refill gap
    /// drained.
    private var hasRoomAfterWaitLocked: Bool {
        guard !isFullLocked else { return false }
        guard let maximum = limits.duration, maximum.isValid, limits.refillGap > .zero, itemCount > 0 else {
            return true
        }
        return totalDuration <= maximum - limits.refillGap
    }

    /// Wakes blocked producers when one of them may put now (a consumer took an entry). Only
    /// producers wait while entries are queued, so no consumer misses this wake.
    private func wakeProducersWithRoomLocked() {
        if waitingProducers > 0 && hasRoomAfterWaitLocked { condition.broadcast() }
    }

    private func flushLocked(newGeneration: Int) {
        generation = newGeneration
        items = []
        head = 0
        itemCount = 0
        totalCost = 0
        totalDuration = .zero
        endOfStreamMarked = false
        condition.broadcast()
    }

    private func append(_ item: Item) {
        if itemCount == items.count {
            // Grow by unrolling the ring into a larger array that starts at index 0.
            var grown: [Item?] = []
            grown.reserveCapacity(max(8, items.count * 2))
            for offset in 0..<itemCount { grown.append(items[(head + offset) % items.count]) }
            grown.append(contentsOf: repeatElement(nil, count: max(8, items.count * 2) - itemCount))
            items = grown
            head = 0
        }
        items[(head + itemCount) % items.count] = item
        itemCount += 1
        totalCost += item.cost
        if item.duration.isNumeric { totalDuration = totalDuration + item.duration }
    }

    private func removeFirstLocked() -> Item? {
        guard itemCount > 0, let item = items[head] else { return nil }
        items[head] = nil
        head = (head + 1) % items.count
        itemCount -= 1
        if itemCount == 0 {
            totalCost = 0
            totalDuration = .zero
        } else {
            totalCost -= item.cost
            if item.duration.isNumeric { totalDuration = totalDuration - item.duration }
        }
        return item
    }

    /// Drops entries at the head tagged with an older generation. Returns whether any were.
    @discardableResult
    private func dropStaleLocked() -> Bool {
        var dropped = false
        while itemCount > 0, let first = items[head], first.generation < generation {
            _ = removeFirstLocked()
            dropped = true
        }
        return dropped
    }
}
