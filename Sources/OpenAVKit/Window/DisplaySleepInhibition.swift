// Playhead: how a player window keeps the display awake through the desktop (the screensaver
// service on the session bus) instead of through SDL. OpenAVKit does not talk to D-Bus itself:
// an app (or `playhead`) installs an inhibitor, e.g. OpenMediaPlayer's `ScreenSaverInhibitor`,
// and every window opened afterwards asks it for a hold of its own. Without one, SDL holds
// the screensaver off for as long as a window is open.
//
// Concurrency: the installed factory sits behind a mutex; windows read it on their own thread
// when they open. A hold's `setActive` is called on the window's thread and must return at
// once (the inhibitor does its bus calls elsewhere); `isFallingBack` is read there every loop.
import Foundation
import OpenAVFoundation

/// One window's claim on the display staying awake, made by a `DisplaySleepInhibitor`.
public protocol DisplaySleepHold: AnyObject, Sendable {
    /// Asks for the display to stay awake (true: video plays) or to be let go (false). Called
    /// on the window's thread at every change; must not block (do the asking elsewhere, and
    /// coalesce quick changes).
    func setActive(_ active: Bool)
    /// Lets go at once (the window closes); the hold is not used afterwards.
    func release()
    /// True once the hold found it cannot work (no screensaver service, the bus went away):
    /// the window then leaves the display to SDL, as it does without an inhibitor.
    var isFallingBack: Bool { get }
}

/// Makes the holds player windows use to keep the display awake.
public protocol DisplaySleepInhibitor: AnyObject, Sendable {
    /// A new hold for one window, or nil when the inhibitor cannot work at all (no session
    /// bus): the window then lets SDL hold the screensaver off.
    func makeHold(reason: String) -> (any DisplaySleepHold)?
}

/// The inhibitor player windows use (none by default: SDL's own behaviour).
public enum DisplaySleep {
    private static let installed = Locked<(any DisplaySleepInhibitor)?>(nil)

    /// Makes windows opened from now on keep the display awake through `inhibitor` while video
    /// plays (and let it sleep while paused); nil goes back to SDL's behaviour (held off for
    /// as long as a window is open).
    public static func use(_ inhibitor: (any DisplaySleepInhibitor)?) {
        installed.withLock { $0 = inhibitor }
    }

    /// A hold for a new window, or nil for SDL's behaviour.
    static func makeHold(reason: String) -> (any DisplaySleepHold)? {
        installed.withLock { $0 }?.makeHold(reason: reason)
    }
}
