// Playhead: a player window's start-up options, and the handle other threads use to close it
// or show a note in it.
//
// Concurrency: `Options` is a value; `CloseHandle` is thread-safe (an atomic flag and a
// mutex-guarded note, both read by the window's loop).
import OpenAVFoundation

extension PlayerWindow {
    /// How the window starts.
    public struct Options: Sendable {
        /// Start fullscreen.
        public var fullscreen = false
        /// How the video fits the window.
        public var videoGravity: AVLayerVideoGravity = .resizeAspect
        /// Draw the control overlay.
        public var showsControls = true
        /// The window title; nil names it after the item (metadata title, else file name).
        public var title: String?
        /// The initial width in pixels (the window adopts the video's aspect once it plays).
        public var width = 960
        /// The initial height in pixels.
        public var height = 540

        /// The default options.
        public init() {}
    }

    /// Lets other threads close a window, or show a short note in it.
    public final class CloseHandle: Sendable {
        let wake: WakeSignal
        /// protected by its mutex: the note to show next
        let pendingMessage = Locked<String?>(nil)
        init(wake: WakeSignal) { self.wake = wake }

        /// Asks the window's loop to stop; `run()` returns soon after. Thread-safe.
        public func close() { wake.requestClose() }

        /// Shows `text` at the top left of the window for two seconds, as the window's own
        /// key notes ("Resuming at 12:34"). Thread-safe.
        public func showMessage(_ text: String) {
            pendingMessage.withLock { $0 = text }
            wake.pictureArrived()
        }
    }
}
