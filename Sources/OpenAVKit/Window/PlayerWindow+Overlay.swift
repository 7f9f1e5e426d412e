// Playhead: a player window's host-app side: its delegate, its actions, and a custom control
// overlay (input offered first, state each frame, drawing over the video).
//
// Concurrency: like `PlayerWindow`, confined to the thread that runs its loop; `delegate` is
// thread-safe (held weakly behind a mutex) and called on the main queue.
import Foundation
import OpenAVFoundation

extension PlayerWindow {
    /// Hears about readiness, the end, buffering, fullscreen, the close and playlist buttons,
    /// seeks and status changes, on the main queue. Held weakly.
    public var delegate: (any PlayerWindowDelegate)? {
        get { callbacks.delegate }
        set { callbacks.delegate = newValue }
    }

    /// What the controls act through: play, pause, seek, volume, mute, speed, fullscreen,
    /// close, playlist. Custom controls receive the same object in `attach(to:)`.
    public var controlActions: any PlaybackControlActions { bridge }

    /// Offers `event` to the custom overlay; true when it took it. Pointer input never
    /// reaches the built-in controls while a custom overlay is installed (they are not drawn).
    func overlayTook(_ event: PlayerInputEvent) -> Bool {
        guard let overlay = controlsOverlay else { return false }
        needsRedraw = true
        if overlay.handle(event) { return true }
        switch event {
        case .pointerMoved, .pointerPressed, .pointerReleased: return true
        case .key, .wheel: return false
        }
    }

    /// Gives the custom overlay the latest state; true when it should be drawn again.
    func overlayNeedsDrawing(_ state: PlaybackState) -> Bool {
        guard let overlay = controlsOverlay else { return false }
        overlay.playbackStateDidChange(state)
        defer { lastOverlayState = state }
        return state != lastOverlayState || overlay.needsContinuousRedraw
    }

    /// Lets the custom overlay draw over the video.
    func drawOverlay(size: CGSize) {
        guard let overlay = controlsOverlay else { return }
        let canvas = overlayCanvas ?? OverlayCanvas(target: target, size: size)
        canvas.size = size
        overlayCanvas = canvas
        overlay.draw(on: canvas)
    }
}
