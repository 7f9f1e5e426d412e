// Playhead: wakes a player window's event loop from other threads with a pushed SDL event.
//
// Concurrency: thread-safe. The picture and close flags are atomics; pushes happen under
// `pushing`, so once `shutDown()` returns no thread is inside SDL_PushEvent or will enter it.
internal import CSDL2
import OpenAVFoundation
import Synchronization

/// Wakes a window's loop from other threads with a pushed SDL event. At most one picture
/// wake-up is queued at a time.
final class WakeSignal: Sendable {
    /// The registered SDL event type (UInt32.max when SDL had none left: then the loop's
    /// timeout alone paces it).
    let eventType: UInt32
    private let picturePending = Atomic(false)
    private let closeRequested = Atomic(false)
    /// False after `shutDown()`: pushes are dropped.
    private let pushing = Locked(true)

    init() { eventType = SDL_RegisterEvents(1) }

    var isCloseRequested: Bool { closeRequested.load(ordering: .acquiring) }

    func requestClose() {
        closeRequested.store(true, ordering: .releasing)
        push()
    }

    /// A new picture is in the slot: wake the loop unless a wake-up is already queued.
    func pictureArrived() {
        guard picturePending.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged
        else { return }
        push()
    }

    /// The loop took the picture wake-up.
    func pictureHandled() { picturePending.store(false, ordering: .releasing) }

    /// Work was queued on the main queue that this loop drains: wake it (coalesced with a
    /// queued picture wake-up, which drains the queue too).
    func mainQueueWorkArrived() { pictureArrived() }

    /// Stops all pushes, waiting for one in progress on another thread to finish. Call before
    /// the window is destroyed: SDL sends a wake-up to the window its loop last waited on, and
    /// on X11 a send that reaches a destroyed window is a fatal BadWindow error.
    func shutDown() { pushing.withLock { $0 = false } }

    private func push() {
        guard eventType != UInt32.max else { return }
        pushing.withLock { isOpen in
            guard isOpen else { return }
            var event = SDL_Event()
            event.type = eventType
            SDL_PushEvent(&event)
        }
    }
}
