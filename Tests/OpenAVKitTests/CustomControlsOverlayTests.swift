// Playhead: a custom control overlay replaces the built-in one: it is attached to the window's
// actions, gets the state every frame, draws on the canvas, and its drawing lands in pixels.
import Foundation
import OpenAVFoundation
import PlayheadTestSupport
import Testing

@testable import OpenAVKit

/// An overlay that records what the window does with it and paints a green bar.
final class RecordingOverlay: PlayerControlsOverlay, @unchecked Sendable {
    struct Record {
        var attached = false
        var states: [PlaybackState] = []
        var draws = 0
        var canvasSize = CGSize.zero
    }

    let record = Locked(Record())
    private var actions: (any PlaybackControlActions)?

    func attach(to actions: any PlaybackControlActions) {
        self.actions = actions
        record.withLock { $0.attached = true }
    }

    func playbackStateDidChange(_ state: PlaybackState) {
        record.withLock { $0.states.append(state) }
    }

    func handle(_ event: PlayerInputEvent) -> Bool { false }

    func draw(on canvas: OverlayCanvas) {
        canvas.fill(
            CGRect(x: 0, y: canvas.size.height - 10, width: canvas.size.width, height: 10),
            OverlayColor(red: 0, green: 255, blue: 0))
        canvas.text("custom", size: 14, .white, in: CGRect(x: 10, y: 10, width: 100, height: 20))
        record.withLock {
            $0.draws += 1
            $0.canvasSize = canvas.size
        }
    }
}

@Suite(.serialized) struct CustomControlsOverlayTests {
    @Test func aWindowFeedsAndDrawsItsCustomOverlay() async throws {
        let player = AVPlayer(
            environment: PlaybackEnvironment(
                makeAudioOutput: nil, videoSinks: VideoSinks(), untimed: true))
        // The dummy driver's window may report itself hidden or minimised late, and video pauses
        // in the background by default: this run once stood for good (the policy has tests of
        // its own).
        player.audiovisualBackgroundPlaybackPolicy = .continuesIfPossible
        let overlay = RecordingOverlay()
        let delegate = RecordingWindowDelegate()
        guard
            let window = await PlayerWindowDelegateTests.openWindow(
                player, delegate: delegate,
                before: { window in
                    window.controlsOverlay = overlay
                    #expect(window.controlActions === window.bridge)
                })
        else { return }
        defer { window.close() }
        player.replaceCurrentItem(with: AVPlayerItem(url: try Fixture.url(.mp4)))
        player.play()
        // (Generous: beside the whole parallel pass on two cores this window's untimed run has
        // taken over a minute.)
        #expect(await waitOnMainQueue(timeout: 90) { delegate.names.contains("end") })
        #expect(
            await waitOnMainQueue(timeout: 30) { overlay.record.withLock { $0.states.last?.isAtEnd == true } })
        let record = overlay.record.withLock { $0 }
        #expect(record.attached)
        #expect(record.draws > 0)
        #expect(record.canvasSize.width > 0 && record.canvasSize.height > 0)
        #expect(record.states.contains { $0.phase == .ready && $0.duration != nil })
    }

    @Test func whatAnOverlayDrawsOnItsCanvasLandsInThePixels() throws {
        let target = try RenderTarget(offscreenWidth: 200, height: 100)
        let canvas = OverlayCanvas(target: target, size: CGSize(width: 200, height: 100))
        canvas.fill(CGRect(x: 0, y: 0, width: 200, height: 100), .black)
        RecordingOverlay().draw(on: canvas)
        let bar = target.pixel(x: 100, y: 95)
        let above = target.pixel(x: 100, y: 80)
        #expect(bar.green > 240 && bar.red < 10 && bar.blue < 10)
        #expect(above.green < 10)
        let blend = OverlayColor(red: 255, green: 0, blue: 0, alpha: 128)
        canvas.fill(CGRect(x: 0, y: 0, width: 10, height: 10), blend)
        let half = target.pixel(x: 5, y: 5)
        #expect(half.red > 100 && half.red < 160, "alpha blends over what is drawn")
    }
}
