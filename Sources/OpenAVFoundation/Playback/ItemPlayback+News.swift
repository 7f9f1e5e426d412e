// Playhead: news from the engine to its player: queued in the order it was decided and
// delivered on the main queue, every piece that arrived meanwhile in one hop.
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
}

extension ItemPlayback {
    /// Queues `event` for the player; the first piece of a burst schedules the one main-queue
    /// hop that delivers the whole burst.
    func send(_ event: PlaybackEvent) {
        let schedules = outbox.withLock { box -> Bool in
            box.pending.append(event)
            box.queued += 1
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

    /// How many pieces of news were queued and how many main-queue hops carried them.
    var newsDelivery: (queued: Int, hops: Int) { outbox.withLock { ($0.queued, $0.hops) } }
}
