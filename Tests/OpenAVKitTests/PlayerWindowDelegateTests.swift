// Playhead: a real `PlayerWindow` (SDL's dummy video driver, no display) tells its delegate
// what happens, on the main queue.
import Foundation
import OpenAVFoundation
import PlayheadTestSupport
import Testing

@testable import OpenAVKit

/// Records delegate calls as words, and whether each came on the main queue.
final class RecordingWindowDelegate: PlayerWindowDelegate, Sendable {
    private let calls = Locked<[(String, onMain: Bool)]>([])

    private func record(_ call: String) {
        let onMain = MainQueue.isCurrent
        calls.withLock { $0.append((call, onMain)) }
    }

    var names: [String] { calls.withLock { $0.map(\.0) } }
    var allOnMain: Bool { calls.withLock { $0.allSatisfy(\.onMain) } }

    func playerWindowIsReadyToPlay(_ window: PlayerWindow) { record("ready") }
    func playerWindow(_ window: PlayerWindow, didPlayToEndWithError error: (any Error)?) {
        record(error == nil ? "end" : "end-error")
    }
    func playerWindow(_ window: PlayerWindow, didChangeFullscreen isFullscreen: Bool) {
        record("fullscreen \(isFullscreen)")
    }
    func playerWindow(_ window: PlayerWindow, playbackStatusDidChange status: PlaybackState.Status)
    {
        record("status \(status)")
    }
    func playerWindowDidEnterBackground(_ window: PlayerWindow) { record("background") }
    func playerWindowWillEnterForeground(_ window: PlayerWindow) { record("foreground") }
}

@Suite(.serialized) struct PlayerWindowDelegateTests {
    /// A window (on a thread of its own, as `playhead` runs it) for `player`; nil when SDL
    /// cannot make one here.
    static func openWindow(
        _ player: AVPlayer, delegate: RecordingWindowDelegate,
        before run: @escaping @Sendable (PlayerWindow) -> Void
    ) async -> PlayerWindow.CloseHandle? {
        final class Handoff: @unchecked Sendable {
            var continuation: CheckedContinuation<PlayerWindow.CloseHandle?, Never>?
        }
        return await withCheckedContinuation { continuation in
            let handoff = Handoff()
            handoff.continuation = continuation
            Thread {
                guard let window = try? PlayerWindow(player: player) else {
                    handoff.continuation?.resume(returning: nil)
                    return
                }
                window.delegate = delegate
                run(window)
                handoff.continuation?.resume(returning: window.closeHandle)
                window.run()
            }.start()
        }
    }

    @Test func theDelegateHearsReadinessFullscreenStatusAndTheEndOnTheMainQueue() async throws {
        let player = AVPlayer(
            environment: PlaybackEnvironment(
                makeAudioOutput: nil, videoSinks: VideoSinks(), untimed: true))
        // Once in CI the run paused for good after it started, as video does by default when
        // its window goes to the background: the dummy driver's window may report itself
        // hidden or minimised late. The background policy has tests of its own.
        player.audiovisualBackgroundPlaybackPolicy = .continuesIfPossible
        let delegate = RecordingWindowDelegate()
        guard
            let window = await Self.openWindow(
                player, delegate: delegate, before: { $0.setFullscreen(true) })
        else {
            return  // no SDL video here (the dummy driver is set by `make test`)
        }
        defer { window.close() }
        player.replaceCurrentItem(with: AVPlayerItem(url: try Fixture.url(.mp4)))
        player.play()
        // (Generous: beside the whole parallel pass on two cores a window's untimed run has
        // taken over a minute to reach its end.)
        #expect(
            await waitOnMainQueue(timeout: 90) {
                delegate.names.contains("end") && delegate.names.contains("status ended")
            })
        let names = delegate.names
        #expect(names.first == "fullscreen true")
        #expect(names.contains("ready"), "\(names)")
        #expect(names.filter { $0 == "ready" }.count == 1)
        // The end notification comes first; the window's next frame shows the end status.
        let end = try #require(names.firstIndex(of: "end"))
        let ended = try #require(names.firstIndex(of: "status ended"))
        #expect(end < ended)
        #expect(delegate.allOnMain)
    }
}
