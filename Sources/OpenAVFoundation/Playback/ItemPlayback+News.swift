// Playhead: news from the engine to its player: queued in the order it was decided and
// delivered on the main queue, every piece that arrived meanwhile in one hop. News that only
// restates a value (buffer flags over the same ranges, the playing time) replaces its own
// unsent predecessor, so what the player applies is the engine's latest word, not a replay.
//
// Concurrency: `outbox` (a lock) holds the queued news; any thread queues (the coordinator's
// section included: queuing never blocks and never calls out while the lock is held). The main
// queue alone delivers, one batch at a time, to `events`.
import FFmpegBridge
import Foundation

/// News waiting for its hop to the main queue.
struct NewsOutbox {
    /// Queued, oldest first.
    var pending: [PlaybackEvent] = []
    /// True while a main-queue hop that will deliver `pending` is on its way.
    var hopScheduled = false
    /// Main-queue hops made so far.
    var hops = 0
    /// Pieces of news queued so far.
    var queued = 0
    /// Pieces that replaced an unsent predecessor instead of queuing behind it.
    var coalesced = 0

    /// Queues `event`: a buffer report over the same loaded ranges, or a playing time of the
    /// same generation, replaces the same kind of news when that is the last one waiting
    /// (nothing was decided in between).
    mutating func append(_ event: PlaybackEvent) {
        queued += 1
        if let last = pending.last, Self.supersedes(event, last) {
            pending[pending.count - 1] = event
            coalesced += 1
        } else {
            pending.append(event)
        }
    }

    /// True when `newer` makes `older` worth nothing once both wait in the outbox.
    static func supersedes(_ newer: PlaybackEvent, _ older: PlaybackEvent) -> Bool {
        switch (newer, older) {
        // Loaded ranges that grew are kept step by step (observers watch them grow); flags
        // restated over the same ranges are not.
        case (.buffer(let a), .buffer(let b)): a.loadedRanges == b.loadedRanges
        case (.timeAdvanced(_, let a), .timeAdvanced(_, let b)): a == b
        default: false
        }
    }
}

extension ItemPlayback {
    /// Queues `event` for the player; the first piece of a burst schedules the one main-queue
    /// hop that delivers the whole burst.
    func send(_ event: PlaybackEvent) {
        let schedules = outbox.withLock { box -> Bool in
            box.append(event)
            guard !box.hopScheduled else { return false }
            box.hopScheduled = true
            box.hops += 1
            return true
        }
        if schedules { MainQueue.async { self.deliverNews() } }
    }

    /// Hands everything queued to `events`, in order (main queue).
    private func deliverNews() {
        let news = outbox.withLock { box -> [PlaybackEvent] in
            box.hopScheduled = false
            defer { box.pending.removeAll(keepingCapacity: true) }
            return box.pending
        }
        for event in news { events(self, event) }
    }

    /// How many pieces of news were queued, how many replaced an unsent predecessor, and how
    /// many main-queue hops carried them.
    var newsDelivery: (queued: Int, coalesced: Int, hops: Int) {
        outbox.withLock { ($0.queued, $0.coalesced, $0.hops) }
    }
}
