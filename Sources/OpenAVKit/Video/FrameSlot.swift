// Playhead: the hand-off of the latest video picture from the engine to a render thread.
//
// Concurrency: `present` and `clear` run on the engine's presentation thread; `latest()` on
// the render thread. The slot keeps only the newest picture (older ones are dropped, never
// queued), guarded by `content`. Rendering never happens on the engine's thread. The drawing
// thread reports when a picture reached the screen (`noteOnScreen`); the smoothed delay is an
// atomic the presentation thread reads as the sink's `displayDelay`.
import FFmpegBridge
import OpenAVFoundation
import Synchronization

/// A one-picture mailbox between the presentation thread and whoever draws.
final class FrameSlot: VideoSink {
    struct Content {
        var picture: (any DisplayablePicture)?
        /// Increases with every new picture or clear, so a renderer can tell what changed.
        var generation = 0
        /// False once detached from its player: a picture that player's presentation thread
        /// was already handing over is dropped instead of showing again.
        var acceptsPresented = true
        /// Host time the presentation thread handed the picture over (nil: not from it).
        var handedAt: Double?
    }

    /// protected by its mutex
    private let content = Locked(Content())
    /// The smoothed display delay, written by the drawing thread, read by the presentation thread.
    private let delayBits = Atomic<UInt64>(Double(0).bitPattern)
    /// protected by its mutex: called (outside the content lock) after each change, with
    /// whether a picture is now available.
    private let observer = Locked<(@Sendable (Bool) -> Void)?>(nil)

    /// Sets what runs after each change (on the changing thread), e.g. a wake-up of a render
    /// loop and the layer's readiness update.
    func setObserver(_ body: (@Sendable (Bool) -> Void)?) { observer.withLock { $0 = body } }

    func present(_ frame: VideoFrame, itemTime: CMTime) {
        let accepted = content.withLock { state -> Bool in
            guard state.acceptsPresented else { return false }
            state.picture = frame
            state.generation += 1
            state.handedAt = SystemHostClock.shared.now
            return true
        }
        if accepted { notify(true) }
    }

    /// Seconds from a hand-over to the picture being on screen, smoothed over recent pictures
    /// (0 until whoever draws reports one).
    var displayDelay: Double { Double(bitPattern: delayBits.load(ordering: .relaxed)) }

    /// Whoever draws put `content`'s picture on screen at host time `shown` (just after the
    /// swap): the delay since its hand-over joins the smoothed `displayDelay`.
    func noteOnScreen(_ content: Content, at shown: Double) {
        guard let handed = content.handedAt, content.picture != nil else { return }
        let sample = min(max(shown - handed, 0), 0.1)
        let old = displayDelay
        // The first reading counts whole; then each new one a fifth.
        delayBits.store((old == 0 ? sample : old * 0.8 + sample * 0.2).bitPattern, ordering: .relaxed)
    }

    /// Takes pictures from a player again (before the slot is added to one).
    func attach() { content.withLock { $0.acceptsPresented = true } }

    /// Stops taking pictures from the player it was removed from, and clears.
    func detach() {
        content.withLock { $0.acceptsPresented = false }
        clear()
    }

    func clear() {
        content.withLock { state in
            state.picture = nil
            state.generation += 1
        }
        notify(false)
    }

    /// Stores `picture` as the newest one.
    func put(_ picture: any DisplayablePicture) {
        content.withLock { state in
            state.picture = picture
            state.generation += 1
            state.handedAt = nil
        }
        notify(true)
    }

    /// The newest picture and its generation.
    func latest() -> Content { content.withLock { $0 } }

    /// Tells the observer; internal so tests can deliver news late, as a presentation thread
    /// that left the lock before a clear does.
    func notify(_ hasPicture: Bool) {
        let body = observer.withLock { $0 }
        body?(hasPicture)
    }
}
