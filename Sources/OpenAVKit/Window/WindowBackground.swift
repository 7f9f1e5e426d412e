// Playhead: a player window in the background (minimised or hidden) and the display's sleep.
// Apple's apps pause video when they go to the background (by `audiovisualBackgroundPlaybackPolicy`)
// and keep the screen awake while video plays (`preventsDisplaySleepDuringVideoPlayback`); a
// window pauses and resumes by the policy and tells its delegate as iOS apps hear
// `didEnterBackground` / `willEnterForeground`. The display: with a `DisplaySleepHold` (an
// installed `DisplaySleep` inhibitor, e.g. the screensaver service on the session bus) the
// window holds it awake only while video plays and can be seen, and lets go on pause, at the
// end and on close; the hold makes its calls off this thread. Without one (or once the hold
// falls back) SDL holds the screensaver off for as long as the window is open: SDL's own calls
// may be synchronous D-Bus calls, so they are not made at every play/pause from this thread.
//
// Concurrency: confined to the window's event-loop thread; AVPlayer's members it uses are
// callable from any thread.
internal import CSDL2
internal import CSDL2Loader
import OpenAVFoundation

/// What a player window does while it cannot be seen, and whether it keeps the display awake.
final class WindowBackground {
    private let player: AVPlayer
    private let events: PlayerWindowEvents
    private let hasVideo: () -> Bool
    /// True while the window is minimised or hidden.
    private(set) var isInBackground = false
    /// The window paused playback when it went to the background (and resumes it on return).
    private var pausedByBackground = false
    /// Whether the hold is asked to keep the display awake now (nil: not decided yet).
    private var displayKeptAwake: Bool?
    /// The window's hold on the display (nil: SDL's behaviour).
    private let hold: (any DisplaySleepHold)?
    /// The hold gave up and SDL holds the screensaver off instead.
    private var fellBack = false

    /// Watches `player` for a window whose picture `hasVideo` tells about; `hold` keeps the
    /// display awake while video plays (nil: SDL does, while the window is open).
    init(player: AVPlayer, events: PlayerWindowEvents, hold: (any DisplaySleepHold)?, hasVideo: @escaping () -> Bool) {
        self.player = player
        self.events = events
        self.hold = hold
        self.hasVideo = hasVideo
    }

    /// The window was minimised or hidden: pause if the policy says so, then tell the delegate.
    func enter() {
        guard !isInBackground else { return }
        isInBackground = true
        if player.rate != 0, player.pausesInBackground(hasVideo: hasVideo()) {
            player.pause()
            pausedByBackground = true
        }
        events.note(.backgroundChanged(true))
    }

    /// The window is back: tell the delegate, then resume what going away paused.
    func leave() {
        guard isInBackground else { return }
        isInBackground = false
        events.note(.backgroundChanged(false))
        if pausedByBackground {
            pausedByBackground = false
            player.play()
        }
    }

    /// True while the hold is asked to keep the display awake.
    var isKeepingDisplayAwake: Bool { displayKeptAwake == true }

    /// Asks the hold to keep the display awake while video plays in a window that can be seen
    /// (and the player allows it), and to let go otherwise. Cheap: called every loop, it tells
    /// the hold only of changes, and the hold returns at once.
    func updateDisplaySleep() {
        guard let hold, !fellBack else { return }
        if hold.isFallingBack {
            // No screensaver service after all: SDL's behaviour, as without a hold.
            fellBack = true
            if player.preventsDisplaySleepDuringVideoPlayback { SDL_DisableScreenSaver() }
            return
        }
        let awake = player.preventsDisplaySleepDuringVideoPlayback && !isInBackground
            && player.timeControlStatus == .playing && hasVideo()
        guard awake != displayKeptAwake else { return }
        displayKeptAwake = awake
        hold.setActive(awake)
    }

    /// The window closes: the hold lets go at once, and the screensaver runs again.
    func release() {
        hold?.release()
        if hold == nil || fellBack { SDL_EnableScreenSaver() }
        displayKeptAwake = nil
    }
}
