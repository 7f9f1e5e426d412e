// Playhead: the next item of a queue, opened and decoded ahead so the switch has no gap.
//
// Concurrency: created, activated and cancelled on the main queue. `buffered`, `target` and
// `isActive` are touched only on the main queue (engine events hop there before they are
// delivered). The engine is thread-safe (see ItemPlayback).
import Foundation

/// An item whose engine runs ahead, held: it opens the media and decodes the first frames
/// but shows nothing until the queue makes it current. Its events wait here until then.
final class PrerolledItem: @unchecked Sendable {
    /// Forwards engine events: to the prerolled item while held, straight to the player once
    /// active. The engine's callback keeps it alive, so events keep flowing after the queue
    /// lets go of the `PrerolledItem`. Fields are touched on the main queue only.
    private final class Relay: @unchecked Sendable {
        weak var target: PrerolledItem?
        weak var player: AVPlayer?
        var isActive = false
    }

    /// The item being prerolled.
    let item: AVPlayerItem
    /// Its engine, held until `activate(for:)`.
    let engine: ItemPlayback
    /// main queue only: events received while held, replayed on activation
    private var buffered: [PlaybackEvent] = []
    /// Routes the engine's events (main queue only).
    private let relay: Relay

    /// Starts prerolling `item` with `environment`'s outputs (main queue).
    init(
        item: AVPlayerItem, environment: PlaybackEnvironment, criteria: SelectionCriteriaSnapshot,
        audioDevice: String? = nil
    ) {
        let relay = Relay()
        self.relay = relay
        self.item = item
        engine = ItemPlayback(
            asset: item.asset, settings: ItemPlayback.Settings(item: item, criteria: criteria, audioDevice: audioDevice),
            environment: environment
        ) { engine, event in
            MainQueue.perform {
                if relay.isActive {
                    PrerolledItem.clearPictureIfAudioOnly(event, engine)
                    relay.player?.receive(event, from: engine)
                } else {
                    relay.target?.hold(event)
                }
            }
        }
        // The item's pending seek (a looper's replica starting at its range) starts on the held
        // engine so it lands before the switch; it stays the item's, and completes through the
        // player once the item is current.
        let seek = item.state.withLock { state -> SeekRequest? in
            guard let pending = state.pendingSeek, !state.pendingSeekIsRunning else { return nil }
            state.pendingSeekIsRunning = true
            return pending
        }
        relay.target = self
        engine.setHeld(true)
        engine.start()
        if let seek { engine.seek(seek) }
    }

    /// Hands the engine to `player` (which just made the item current): presentation starts
    /// and the events received so far are replayed in order (main queue).
    func activate(for player: AVPlayer) {
        relay.player = player
        relay.isActive = true
        engine.setHeld(false)
        let pending = buffered
        buffered = []
        for event in pending {
            Self.clearPictureIfAudioOnly(event, engine)
            player.receive(event, from: engine)
        }
    }

    /// The previous item's last picture stays up until this item's first frame replaces it;
    /// an item without video replaces it with nothing, so it is cleared when that is known.
    private static func clearPictureIfAudioOnly(_ event: PlaybackEvent, _ engine: ItemPlayback) {
        guard case .opened = event, !engine.hasVideoStream else { return }
        for sink in engine.environment.videoSinks.all { sink.clear() }
    }

    /// True when the held engine already reported that the media opened (main queue).
    var hasOpened: Bool {
        buffered.contains { if case .opened = $0 { return true } else { return false } }
    }

    /// Stops the engine of an item that will not play after all (main queue).
    func cancel() {
        guard !relay.isActive else { return }
        engine.stop()
        // The item may be queued again later: its pending seek waits for that.
        item.state.withLock { $0.pendingSeekIsRunning = false }
    }

    /// Keeps an event of the held engine for `activate(for:)`.
    private func hold(_ event: PlaybackEvent) {
        // Only the latest buffer report matters.
        if case .buffer = event, let last = buffered.last, case .buffer = last {
            buffered[buffered.count - 1] = event
        } else {
            buffered.append(event)
        }
    }
}
