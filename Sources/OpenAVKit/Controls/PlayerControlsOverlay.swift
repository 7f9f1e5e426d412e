// Playhead: what an app implements to replace a player window's control overlay with its own.
//
// Concurrency: an overlay is used only on the thread that runs its window's event loop (the
// main thread in an app that calls `run()` there).
import Foundation

/// Input a `PlayerWindow` passes to a custom overlay, in drawable pixels from the top-left.
public enum PlayerInputEvent: Equatable, Sendable {
    /// The pointer moved.
    case pointerMoved(CGPoint)
    /// The left button went down; `clicks` is 2 for a double click.
    case pointerPressed(CGPoint, clicks: Int)
    /// The left button came up.
    case pointerReleased(CGPoint)
    /// A key the window knows (space, arrows, letters, …).
    case key(PlayerKeyInput)
    /// The wheel turned by `notches` (positive is away from the user).
    case wheel(notches: Int)
}

/// A control overlay of the app's own, shown by a `PlayerWindow` instead of the built-in one.
///
/// The overlay sees the player only through `PlaybackState` (player → controls, once per
/// drawn frame) and changes it only through the `PlaybackControlActions` it is given
/// (controls → player), the same two protocols the built-in overlay uses. See
/// `docs/custom-controls.md`.
///
/// ```swift
/// final class MinimalControls: PlayerControlsOverlay {
///     private var actions: (any PlaybackControlActions)?
///     private var state = PlaybackState()
///     func attach(to actions: any PlaybackControlActions) { self.actions = actions }
///     func playbackStateDidChange(_ state: PlaybackState) { self.state = state }
///     func handle(_ event: PlayerInputEvent) -> Bool {
///         guard case .pointerPressed = event else { return false }
///         state.isPlaying ? actions?.pause() : actions?.play()
///         return true
///     }
///     func draw(on canvas: OverlayCanvas) {
///         canvas.fill(CGRect(x: 0, y: canvas.size.height - 6, width: canvas.size.width, height: 6), .white)
///     }
/// }
/// window.controlsOverlay = MinimalControls()
/// ```
public protocol PlayerControlsOverlay: PlaybackStateObserving {
    /// Receives the window's actions once, when the overlay is installed.
    func attach(to actions: any PlaybackControlActions)
    /// Handles input; returns true when the overlay used it, false to let the window apply
    /// its default key and wheel bindings (space pauses, f toggles fullscreen, q quits, …).
    func handle(_ event: PlayerInputEvent) -> Bool
    /// Draws the overlay over the video. Called whenever the window redraws.
    func draw(on canvas: OverlayCanvas)
    /// True while the overlay animates and wants a redraw even though nothing else changed.
    var needsContinuousRedraw: Bool { get }
}

extension PlayerControlsOverlay {
    /// By default an overlay redraws only when the state, the picture or the input changes.
    public var needsContinuousRedraw: Bool { false }
}
