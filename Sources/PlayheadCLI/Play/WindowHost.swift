// Playhead: runs `playhead play`'s window on a thread of its own.
//
// Concurrency: the CLI's main thread is parked by the async entry point (the main queue is
// drained by Dispatch's workers), so the SDL window, which needs one thread for its whole
// life, gets a dedicated thread that creates it, runs its loop and destroys it. `close()` and
// `onClosed` cross threads through the window's close handle and the main queue.
import Foundation
import OpenAVFoundation
import OpenAVKit

/// A `PlayerWindow` running on its own thread.
final class WindowHost: Sendable {
    private struct State {
        var handle: PlayerWindow.CloseHandle?
        var finished = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    /// protected by its mutex
    private let state = Locked(State())
    /// The window's delegate (held here: the window holds it weakly).
    private let drops: DropForwarder

    private init(onDrop: @escaping @Sendable (PlayerWindowDrop) -> Void) {
        drops = DropForwarder(onDrop: onDrop)
    }

    /// True when the environment names a display ($DISPLAY or $WAYLAND_DISPLAY).
    static var displayMayExist: Bool {
        let environment = ProcessInfo.processInfo.environment
        return [environment["DISPLAY"], environment["WAYLAND_DISPLAY"]].contains { !($0 ?? "").isEmpty }
    }

    /// Opens a window for `player` on a new thread.
    ///
    /// - Parameters:
    ///   - subtitleStyle: the subtitle delay, font and scale the window starts with.
    ///   - onDrop: runs on the main queue when files or URLs are dropped on the window.
    ///   - onClosed: runs on the main queue when the window closes by itself (the user quit).
    /// - Returns: the running window, or the reason it could not open.
    static func open(
        player: AVPlayer, options: PlayerWindow.Options, subtitleStyle: PlaySubtitleStyle = PlaySubtitleStyle(),
        onDrop: @escaping @Sendable (PlayerWindowDrop) -> Void = { _ in },
        onClosed: @escaping @Sendable () -> Void
    ) async -> Result<WindowHost, SDLError> {
        let host = WindowHost(onDrop: onDrop)
        return await withCheckedContinuation { opened in
            let thread = Thread {
                do throws(SDLError) {
                    let window = try PlayerWindow(player: player, options: options)
                    window.subtitleDelay = subtitleStyle.delay
                    window.subtitleAppearance = subtitleStyle.appearance
                    window.delegate = host.drops
                    // The session's NowPlayingBridge tells the desktop of the whole queue.
                    window.updatesNowPlayingInfoCenter = false
                    host.state.withLock { $0.handle = window.closeHandle }
                    opened.resume(returning: .success(host))
                    window.run()
                } catch {
                    opened.resume(returning: .failure(error))
                }
                // The window was destroyed on this thread when the `do` scope ended.
                let (waiters, closedByUs) = host.state.withLock { state in
                    defer { state.waiters = []; state.finished = true }
                    return (state.waiters, state.handle == nil)
                }
                waiters.forEach { $0.resume() }
                if !closedByUs { DispatchQueue.main.async(execute: onClosed) }
            }
            thread.name = "playhead.window"
            thread.start()
        }
    }

    /// Shows a short note in the window (nothing once it is closing).
    func showMessage(_ text: String) {
        state.withLock { $0.handle }?.showMessage(text)
    }

    /// Closes the window (if the user has not already) and waits until it is gone.
    func close() async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            let handle: PlayerWindow.CloseHandle? = state.withLock { state in
                if state.finished { return nil }
                state.waiters.append(done)
                defer { state.handle = nil }
                return state.handle
            }
            guard let handle else {
                if state.withLock({ $0.finished }) { done.resume() }
                return
            }
            handle.close()
        }
    }
}

/// Passes the window's drops on (the only delegate call `playhead play` needs).
private final class DropForwarder: PlayerWindowDelegate, Sendable {
    private let onDrop: @Sendable (PlayerWindowDrop) -> Void
    init(onDrop: @escaping @Sendable (PlayerWindowDrop) -> Void) { self.onDrop = onDrop }
    func playerWindow(_ window: PlayerWindow, didReceive drop: PlayerWindowDrop) { onDrop(drop) }
}
