// Playhead: the hand-off of the latest video picture from the engine to a render thread.
//
// Concurrency: `present` and `clear` run on the engine's presentation thread; `latest()` on
// the render thread. The slot keeps only the newest picture (older ones are dropped, never
// queued), guarded by `content`. Rendering never happens on the engine's thread.
import FFmpegBridge
import OpenAVFoundation

/// A one-picture mailbox between the presentation thread and whoever draws.
final class FrameSlot: VideoSink {
    struct Content {
        var picture: (any DisplayablePicture)?
        /// Increases with every new picture or clear, so a renderer can tell what changed.
        var generation = 0
        /// False once detached from its player: a picture that player's presentation thread
        /// was already handing over is dropped instead of showing again.
        var acceptsPresented = true
    }

    /// protected by its mutex
    private let content = Locked(Content())
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
            return true
        }
        if accepted { notify(true) }
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
        }
        notify(true)
    }

    /// The newest picture and its generation.
    func latest() -> Content { content.withLock { $0 } }

    private func notify(_ hasPicture: Bool) {
        let body = observer.withLock { $0 }
        body?(hasPicture)
    }
}
