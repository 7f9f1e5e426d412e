// Playhead: the callbacks a host app receives from a player window (ready to play, played to
// end, buffering, fullscreen, close and playlist buttons, drops, seeks, playback status).
//
// Concurrency: every method is called on the main queue. When the window runs on the main
// thread (the usual case), the window passed in may be used freely there; when it runs on a
// thread of its own, use only its thread-safe members (`player`, `playerLayer`,
// `closeHandle`).
import Foundation
import OpenAVFoundation

/// Receives a `PlayerWindow`'s events. Every method has an empty default, so implement only
/// the ones you need.
///
/// ```swift
/// final class Host: PlayerWindowDelegate {
///     func playerWindow(_ window: PlayerWindow, didPlayToEndWithError error: (any Error)?) {
///         print(error.map { "failed: \($0.localizedDescription)" } ?? "finished")
///     }
/// }
/// let host = Host()
/// window.delegate = host   // held weakly
/// ```
public protocol PlayerWindowDelegate: AnyObject {
    /// The current item became ready to play (once per item).
    func playerWindowIsReadyToPlay(_ window: PlayerWindow)
    /// The current item played to its end (`error` nil), or stopped early because playback
    /// failed (`error` says why).
    func playerWindow(_ window: PlayerWindow, didPlayToEndWithError error: (any Error)?)
    /// Playback started or stopped waiting for data.
    func playerWindow(_ window: PlayerWindow, bufferingDidChange isBuffering: Bool)
    /// The window entered or left fullscreen (by key, button, double click or the app).
    func playerWindow(_ window: PlayerWindow, didChangeFullscreen isFullscreen: Bool)
    /// The user pressed the close button or q; the window is closing.
    func playerWindowDidRequestClose(_ window: PlayerWindow)
    /// The window was minimised or hidden: what an iOS app hears as
    /// `UIApplication.didEnterBackgroundNotification`. Playback already paused if the player's
    /// `audiovisualBackgroundPlaybackPolicy` says so.
    func playerWindowDidEnterBackground(_ window: PlayerWindow)
    /// The window came back from the background (`willEnterForegroundNotification`); playback
    /// the window paused resumes right after.
    func playerWindowWillEnterForeground(_ window: PlayerWindow)
    /// The user asked for the playlist (the playlist button).
    func playerWindowDidRequestPlaylist(_ window: PlayerWindow)
    /// Files or URLs were dropped on the window (`drop.appends`: Shift was held, the usual
    /// sign for "add to the queue" rather than "play this instead"). The window plays nothing
    /// by itself: the app decides.
    func playerWindow(_ window: PlayerWindow, didReceive drop: PlayerWindowDrop)
    /// A seek the controls asked for completed (`finished` false when a later seek
    /// superseded it).
    func playerWindow(_ window: PlayerWindow, didSeekTo time: CMTime, finished: Bool)
    /// The playback status changed (loading, paused, playing, buffering, ended, failed).
    func playerWindow(_ window: PlayerWindow, playbackStatusDidChange status: PlaybackState.Status)
}

extension PlayerWindowDelegate {
    /// Does nothing unless implemented.
    public func playerWindowIsReadyToPlay(_ window: PlayerWindow) {}
    /// Does nothing unless implemented.
    public func playerWindow(_ window: PlayerWindow, didPlayToEndWithError error: (any Error)?) {}
    /// Does nothing unless implemented.
    public func playerWindow(_ window: PlayerWindow, bufferingDidChange isBuffering: Bool) {}
    /// Does nothing unless implemented.
    public func playerWindow(_ window: PlayerWindow, didChangeFullscreen isFullscreen: Bool) {}
    /// Does nothing unless implemented.
    public func playerWindowDidRequestClose(_ window: PlayerWindow) {}
    /// Does nothing unless implemented.
    public func playerWindowDidEnterBackground(_ window: PlayerWindow) {}
    /// Does nothing unless implemented.
    public func playerWindowWillEnterForeground(_ window: PlayerWindow) {}
    /// Does nothing unless implemented.
    public func playerWindowDidRequestPlaylist(_ window: PlayerWindow) {}
    /// Does nothing unless implemented.
    public func playerWindow(_ window: PlayerWindow, didReceive drop: PlayerWindowDrop) {}
    /// Does nothing unless implemented.
    public func playerWindow(_ window: PlayerWindow, didSeekTo time: CMTime, finished: Bool) {}
    /// Does nothing unless implemented.
    public func playerWindow(
        _ window: PlayerWindow, playbackStatusDidChange status: PlaybackState.Status
    ) {}
}
