// Playhead: the control overlay's logic, driven with a fake player and a manual clock.
import Foundation
import OpenAVFoundation
import OpenAVKit
import Testing

@testable import OpenAVKit

@Suite struct PlayerControlsControllerTests {
    let player = FakePlayer()
    let clock = ManualClock(now: 100)
    let controller: PlayerControlsController
    let layout = ControlsLayout(size: CGSize(width: 800, height: 450))

    init() {
        controller = PlayerControlsController(
            actions: player, clock: clock, size: CGSize(width: 800, height: 450))
    }

    /// A ready item of 100 s playing at 20 s with 0–60 s loaded.
    static let playing = PlaybackState(
        title: "clip", phase: .ready, isPlaying: true, currentTime: 20, duration: 100,
        loadedRanges: [0...60], frameDuration: 0.04)

    static var paused: PlaybackState {
        var state = playing
        state.isPlaying = false
        return state
    }

    /// The point on the slider track at `fraction`.
    func slider(_ fraction: Double) -> CGPoint {
        CGPoint(x: layout.sliderTrack.minX + layout.sliderTrack.width * fraction, y: layout.sliderTrack.midY)
    }

    // MARK: - Auto-hide

    @Test func barsHideAfterThreeIdleSecondsWhilePlaying() async {
        controller.playbackStateDidChange(Self.playing)
        #expect(controller.barsVisible)
        clock.advance(by: 2.9)
        #expect(controller.barsVisible)
        clock.advance(by: 0.2)
        #expect(!controller.barsVisible)
        #expect(!controller.scene.barsVisible)
    }

    @Test func pointerMovementClickAndKeysBringTheBarsBack() async {
        controller.playbackStateDidChange(Self.playing)
        clock.advance(by: 5)
        controller.pointerMoved(to: CGPoint(x: 400, y: 200))
        #expect(controller.barsVisible)
        clock.advance(by: 5)
        controller.pointerPressed(at: CGPoint(x: 400, y: 200))
        controller.pointerReleased(at: CGPoint(x: 400, y: 200))
        #expect(controller.barsVisible)
        clock.advance(by: 5)
        controller.perform(.changeVolume(by: 0.1))
        #expect(controller.barsVisible)
    }

    @Test func barsStayWhilePausedLoadingFailedOrAtTheEnd() async {
        var states = [Self.paused, PlaybackState(phase: .loading, isPlaying: true)]
        states.append(PlaybackState(phase: .failed("bad"), isPlaying: true))
        var ended = Self.paused
        ended.isAtEnd = true
        states.append(ended)
        for state in states {
            controller.playbackStateDidChange(state)
            clock.advance(by: 60)
            #expect(controller.barsVisible, "\(state)")
        }
    }

    @Test func barsStayWhileTheSliderIsHeld() async {
        controller.playbackStateDidChange(Self.playing)
        controller.pointerPressed(at: slider(0.5))
        controller.playbackStateDidChange(Self.paused)
        clock.advance(by: 10)
        controller.playbackStateDidChange(Self.paused)
        #expect(controller.barsVisible)
        #expect(controller.isScrubbing)
    }

    @Test func aClickOnHiddenBarsOnlyRevealsThem() async {
        controller.playbackStateDidChange(Self.playing)
        clock.advance(by: 4)
        controller.pointerPressed(at: CGPoint(x: layout.playPauseButton.midX, y: layout.playPauseButton.midY))
        #expect(player.calls.isEmpty)
        #expect(controller.barsVisible)
    }

    // MARK: - Centre content

    @Test func centreShowsWhatTheStateCallsFor() async {
        controller.playbackStateDidChange(Self.playing)
        #expect(controller.center == .none)
        controller.playbackStateDidChange(Self.paused)
        #expect(controller.center == .play)
        var waiting = Self.playing
        waiting.isWaiting = true
        controller.playbackStateDidChange(waiting)
        guard case .spinner = controller.center else {
            Issue.record("expected a spinner, got \(controller.center)")
            return
        }
        controller.playbackStateDidChange(PlaybackState(phase: .loading))
        guard case .spinner = controller.center else {
            Issue.record("expected a spinner while loading")
            return
        }
        controller.playbackStateDidChange(PlaybackState(phase: .failed("unsupported codec")))
        #expect(controller.center == .error("unsupported codec"))
        var ended = Self.paused
        ended.isAtEnd = true
        controller.playbackStateDidChange(ended)
        #expect(controller.center == .replay)
    }

    @Test func theSpinnerTurnsWithTheClock() async {
        controller.playbackStateDidChange(PlaybackState(phase: .loading))
        let first = controller.center
        clock.advance(by: 0.1)
        #expect(controller.center != first)
    }

    // MARK: - Slider

    @Test func draggingTheSliderPausesSeeksLiveThenSeeksExactlyAndResumes() async {
        controller.playbackStateDidChange(Self.playing)
        controller.pointerPressed(at: slider(0.5))
        controller.playbackStateDidChange(Self.paused)
        controller.pointerMoved(to: slider(0.7))
        #expect(controller.scene.playedFraction == controller.layout.sliderFraction(atX: slider(0.7).x))
        controller.pointerReleased(at: slider(0.75))
        let half = layout.sliderFraction(atX: slider(0.5).x) * 100
        let seventy = layout.sliderFraction(atX: slider(0.7).x) * 100
        let end = layout.sliderFraction(atX: slider(0.75).x) * 100
        #expect(
            player.calls == [
                .pause, .seek(half, exact: false), .seek(seventy, exact: false),
                .seek(end, exact: true), .play,
            ])
        #expect(!controller.isScrubbing)
    }

    @Test func draggingWhilePausedStaysPaused() async {
        controller.playbackStateDidChange(Self.paused)
        controller.pointerPressed(at: slider(0.2))
        controller.pointerReleased(at: slider(0.3))
        #expect(!player.calls.contains(.play))
        #expect(!player.calls.contains(.pause))
        #expect(player.calls.last == .seek(layout.sliderFraction(atX: slider(0.3).x) * 100, exact: true))
    }

    @Test func aClickOnTheTrackJumpsThere() async {
        controller.playbackStateDidChange(Self.paused)
        controller.pointerPressed(at: slider(0.9))
        controller.pointerReleased(at: slider(0.9))
        let target = layout.sliderFraction(atX: slider(0.9).x) * 100
        #expect(player.calls == [.seek(target, exact: false), .seek(target, exact: true)])
    }

    @Test func theSliderIgnoresItemsWithoutADuration() async {
        var live = Self.playing
        live.duration = nil
        controller.playbackStateDidChange(live)
        controller.pointerPressed(at: slider(0.5))
        controller.pointerReleased(at: slider(0.5))
        #expect(player.calls.isEmpty)
    }

    @Test func theSceneShowsPlayedAndBufferedFractionsAndLabels() async {
        controller.playbackStateDidChange(Self.playing)
        let scene = controller.scene
        #expect(scene.playedFraction == 0.2)
        #expect(scene.bufferedFractions == [0...0.6])
        #expect(scene.currentTimeText == "00:20")
        #expect(scene.durationText == "01:40")
        #expect(scene.showsPause)
        #expect(scene.speedText == "1×")
    }

    // MARK: - Buttons and keys

    @Test func buttonsActOnThePlayer() async {
        controller.playbackStateDidChange(Self.playing)
        let press = { (rect: CGRect) in
            controller.pointerPressed(at: CGPoint(x: rect.midX, y: rect.midY))
            controller.pointerReleased(at: CGPoint(x: rect.midX, y: rect.midY))
        }
        press(layout.playPauseButton)
        press(layout.muteButton)
        press(layout.speedButton)
        press(layout.fullscreenButton)
        press(layout.closeButton)
        #expect(player.calls == [.pause, .muted(true), .speed(1.25), .fullscreen(true), .close])
    }

    @Test func theBigPlayButtonPlaysWhilePaused() async {
        controller.playbackStateDidChange(Self.paused)
        controller.pointerPressed(at: CGPoint(x: layout.centerButton.midX, y: layout.centerButton.midY))
        #expect(player.calls == [.play])
    }

    @Test func playAtTheEndReplaysFromTheStart() async {
        var ended = Self.paused
        ended.isAtEnd = true
        ended.currentTime = 100
        controller.playbackStateDidChange(ended)
        controller.perform(.togglePlayPause)
        #expect(player.calls == [.seek(0, exact: true), .play])
    }

    @Test func aDoubleClickOnTheVideoTogglesFullscreen() async {
        controller.playbackStateDidChange(Self.playing)
        controller.pointerPressed(at: CGPoint(x: 200, y: 150), clicks: 2)
        #expect(player.calls == [.fullscreen(true)])
    }

    @Test func seekKeysMoveByFiveAndTenSecondsWithinTheItem() async {
        controller.playbackStateDidChange(Self.playing)
        for key in [PlayerKeyInput.left, .right, .letter("j"), .letter("l")] {
            controller.perform(ControlCommand.bound(to: key)!)
        }
        #expect(
            player.calls == [
                .seek(15, exact: true), .seek(25, exact: true), .seek(10, exact: true),
                .seek(30, exact: true),
            ])
        var nearEnd = Self.playing
        nearEnd.currentTime = 97
        controller.playbackStateDidChange(nearEnd)
        controller.perform(.seek(by: 10))
        #expect(player.calls.last == .seek(100, exact: true))
    }

    @Test func frameSteppingWorksOnlyWhilePaused() async {
        controller.playbackStateDidChange(Self.playing)
        controller.perform(.stepFrame(forward: true))
        #expect(player.calls.isEmpty)
        controller.playbackStateDidChange(Self.paused)
        controller.perform(.stepFrame(forward: true))
        controller.perform(.stepFrame(forward: false))
        #expect(player.calls == [.seek(20.04, exact: true), .seek(19.96, exact: true)])
    }

    @Test func volumeMuteSpeedFullscreenAndQuit() async {
        var state = Self.playing
        state.volume = 0.95
        state.isMuted = true
        controller.playbackStateDidChange(state)
        controller.perform(.changeVolume(by: 0.1))
        controller.perform(.toggleMute)
        controller.perform(.faster)
        controller.perform(.slower)
        controller.perform(.leaveFullscreen)
        controller.perform(.toggleFullscreen)
        controller.perform(.quit)
        #expect(
            player.calls == [
                .volume(1), .muted(false), .muted(false), .speed(1.25), .speed(0.75),
                .fullscreen(true), .close,
            ])
        state.isFullscreen = true
        controller.playbackStateDidChange(state)
        controller.perform(.leaveFullscreen)
        #expect(player.calls.last == .fullscreen(false))
    }

    @Test func speedStepsStopAtTheEnds() async {
        #expect(PlayerControlsController.nextSpeed(from: 4, faster: true) == 8)
        #expect(PlayerControlsController.nextSpeed(from: 16, faster: true) == 16)
        #expect(PlayerControlsController.nextSpeed(from: 0.25, faster: false) == 0.25)
        #expect(PlayerControlsController.nextSpeed(from: 1, faster: true) == 1.25)
        #expect(PlayerControlsController.speedText(1.5) == "1.5×")
        #expect(PlayerControlsController.speedText(0.25) == "0.25×")
    }
}

@Suite struct ControlBindingTests {
    @Test func keysMapToTheDocumentedCommands() async {
        let expected: [(PlayerKeyInput, ControlCommand)] = [
            (.space, .togglePlayPause), (.letter("k"), .togglePlayPause), (.up, .changeVolume(by: 0.1)),
            (.down, .changeVolume(by: -0.1)), (.letter("m"), .toggleMute), (.letter("f"), .toggleFullscreen),
            (.escape, .leaveFullscreen), (.leftBracket, .slower), (.rightBracket, .faster),
            (.period, .stepFrame(forward: true)), (.comma, .stepFrame(forward: false)), (.letter("q"), .quit),
            (.letter("z"), .changeSubtitleDelay(by: -0.1)), (.letter("x"), .changeSubtitleDelay(by: 0.1)),
        ]
        for (key, command) in expected { #expect(ControlCommand.bound(to: key) == command, "\(key)") }
        #expect(ControlCommand.bound(to: .letter("y")) == nil)
        #expect(ControlCommand.wheel(notches: 2) == .changeVolume(by: 0.1))
        #expect(ControlCommand.wheel(notches: 0) == nil)
    }

    @Test func timeLabelsUseHoursFromOneHour() async {
        #expect(TimeText.labels(current: 61.9, duration: 3599) == ("01:01", "59:59"))
        #expect(TimeText.labels(current: 61, duration: 3600) == ("00:01:01", "01:00:00"))
        #expect(TimeText.labels(current: 5, duration: nil) == ("00:05", "--:--"))
    }
}
