// Playhead: the next item of a queue, opened and decoded ahead so the switch has no gap.
//
// Concurrency: created, activated and cancelled on the main queue. `held`, `target` and
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
    private var held = HeldEvents()
    /// Routes the engine's events (main queue only).
    private let relay: Relay

    /// Starts prerolling `item` with `environment`'s outputs (main queue), to follow the item
    /// whose engine is `predecessor` (the current item's, when known).
    init(
        item: AVPlayerItem, environment: PlaybackEnvironment, criteria: SelectionCriteriaSnapshot,
        audioDevice: String? = nil, predecessor: ItemPlayback? = nil
    ) {
        let relay = Relay()
        self.relay = relay
        self.item = item
        var settings = ItemPlayback.Settings(item: item, criteria: criteria, audioDevice: audioDevice)
        settings.predecessor = predecessor.map(WeakReference.init)
        engine = ItemPlayback(
            asset: item.asset, settings: settings,
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
        // Caps the app sets while the item waits reach this engine's loader.
        item.state.withLock { [engine] in $0.waitingEngine = WeakReference(engine) }
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
        let pending = held.replay
        held = HeldEvents()
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
    var hasOpened: Bool { held.hasOpened }

    /// Stops the engine of an item that will not play after all (main queue).
    func cancel() {
        guard !relay.isActive else { return }
        engine.stop()
        // The item may be queued again later: its pending seek waits for that.
        item.state.withLock { $0.pendingSeekIsRunning = false }
    }

    /// Keeps an event of the held engine for `activate(for:)` (main queue; the engine's
    /// callback calls it, tests too).
    func hold(_ event: PlaybackEvent) {
        held.hold(event)
    }
}

/// The events of a held engine, kept until its item becomes current: every event in the order
/// it came, except buffer reports, of which only the latest is kept, and replayed last. The
/// engine reads before its open is reported (the asset's keys load meanwhile), so an older
/// report, such as the empty buffer before the first packet, could come before `.opened`
/// and replay as a stall of the item that takes over playing.
struct HeldEvents {
    /// Events other than buffer reports, in order.
    private var events: [PlaybackEvent] = []
    /// The newest buffer report.
    private var latestBuffer: BufferReport?

    /// Keeps `event`.
    mutating func hold(_ event: PlaybackEvent) {
        if case .buffer(let report) = event {
            latestBuffer = report
        } else {
            events.append(event)
        }
    }

    /// The events to deliver on activation, in order: the rest as they came, then the newest
    /// buffer report.
    var replay: [PlaybackEvent] {
        events + (latestBuffer.map { [.buffer($0)] } ?? [])
    }

    /// True when the engine reported that the media opened.
    var hasOpened: Bool {
        events.contains { if case .opened = $0 { return true } else { return false } }
    }
}
