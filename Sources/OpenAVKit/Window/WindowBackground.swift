// Playhead: a player window in the background (minimised or hidden) and the display's sleep.
// Apple's apps pause video when they go to the background (by `audiovisualBackgroundPlaybackPolicy`)
// and keep the screen awake while video plays (`preventsDisplaySleepDuringVideoPlayback`); a
// window pauses and resumes by the policy and tells its delegate as iOS apps hear
// `didEnterBackground` / `willEnterForeground`. The display: SDL holds the screensaver off for
// as long as a window is open (`updateDisplaySleep`, which would narrow that to "while video
// plays", is not called from the window loop yet: each change is a synchronous D-Bus call on
// the window thread, not yet shown harmless to the picture's timing).
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
    /// Whether the screensaver is held off now (nil: not decided yet).
    private var displayKeptAwake: Bool?

    /// Watches `player` for a window whose picture `hasVideo` tells about.
    init(player: AVPlayer, events: PlayerWindowEvents, hasVideo: @escaping () -> Bool) {
        self.player = player
        self.events = events
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

    /// True while the display is held awake.
    var isKeepingDisplayAwake: Bool { displayKeptAwake == true }

    /// Holds the screensaver off while video plays in a window that can be seen (and the player
    /// allows it); lets it run otherwise. Cheap: SDL is called only when that changes.
    func updateDisplaySleep() {
        let awake = player.preventsDisplaySleepDuringVideoPlayback && !isInBackground
            && player.timeControlStatus == .playing && hasVideo()
        guard awake != displayKeptAwake else { return }
        displayKeptAwake = awake
        if awake { SDL_DisableScreenSaver() } else { SDL_EnableScreenSaver() }
    }

    /// The window closes: the screensaver runs again.
    func release() {
        if displayKeptAwake != false { SDL_EnableScreenSaver() }
        displayKeptAwake = nil
    }
}
