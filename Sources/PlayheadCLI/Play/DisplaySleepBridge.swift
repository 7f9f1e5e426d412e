// Playhead: `playhead play`'s window keeps the display awake through the desktop's screensaver
// service (OpenMediaPlayer's `ScreenSaverInhibitor`) instead of SDL: OpenAVKit's
// `DisplaySleep` protocols, met by the D-Bus inhibitor.
//
// Concurrency: the conformances only forward; `ScreenSaverInhibitor` and its holds are
// thread-safe and never block the caller on the bus.
import OpenAVKit
import OpenMediaPlayer

extension ScreenSaverInhibitor: DisplaySleepInhibitor {
    /// A hold for one window (nil without a session bus: SDL's behaviour).
    public func makeHold(reason: String) -> (any DisplaySleepHold)? { hold(reason: reason) }
}

extension ScreenSaverHold: DisplaySleepHold {}

enum DisplaySleepBridge {
    /// Makes player windows hold the screensaver off through the session bus while video plays
    /// (when there is a session bus; else SDL holds it off while a window is open).
    static func install() {
        DisplaySleep.use(ScreenSaverInhibitor.shared)
    }

    /// Sends the last UnInhibit before the process exits (waits up to a second, off the main queue).
    static func flush() {
        ScreenSaverInhibitor.shared.flush(timeout: 1)
    }
}
