// Playhead: the control overlay's decisions: what shows in each state, when the bars hide,
// and how a slider drag turns into seeks. No drawing and no SDL: it reads the player's state
// through `PlaybackStateObserving` and acts through `PlaybackControlActions`, so tests drive it
// with a fake player and a manual clock.
//
// Concurrency: confined to the thread that runs the window's event loop.
import Foundation
import OpenAVFoundation

/// The logic behind the player controls.
final class PlayerControlsController: PlaybackStateObserving {
    /// Seconds without input after which the bars hide while playing.
    static let hideDelay = 3.0
    /// The speeds the speed button cycles through.
    static let speeds = SpeedLadder.button

    private struct Scrub {
        var wasPlaying: Bool
        var fraction: Double
    }

    private let actions: any PlaybackControlActions
    let clock: any HostClock
    private(set) var state = PlaybackState()
    private(set) var layout: ControlsLayout
    private var lastActivity: Double
    private var scrub: Scrub?
    /// When the volume or mute last changed by command (the volume indicator's timer).
    private(set) var volumeChangedAt: Double?
    /// When the audio delay last changed (for its indicator).
    private(set) var audioDelayChangedAt: Double?
    /// Seconds the window shows subtitles later than their times (z and x; negative: earlier).
    var subtitleDelay: Double = 0
    /// When z or x last changed the subtitle delay (for its indicator).
    private(set) var subtitleDelayChangedAt: Double?

    /// A controller acting on `actions`, timing the auto-hide with `clock`, for a window of
    /// `size`.
    init(actions: any PlaybackControlActions, clock: any HostClock, size: CGSize) {
        self.actions = actions
        self.clock = clock
        self.layout = ControlsLayout(size: size)
        self.lastActivity = clock.now
    }

    // MARK: - Player state → controls

    func playbackStateDidChange(_ state: PlaybackState) { self.state = state }

    /// The window changed size.
    func resize(to size: CGSize) {
        if layout.size != size { layout = ControlsLayout(size: size) }
    }

    // MARK: - Visibility

    /// True while the bars show: always when not simply playing (paused, loading, failed, at
    /// the end, slider held), else for `hideDelay` seconds after the last input.
    var barsVisible: Bool {
        if scrub != nil || !state.isPlaying || state.isAtEnd { return true }
        if state.phase != .ready { return true }
        return clock.now - lastActivity < Self.hideDelay
    }

    /// True while the slider is held.
    var isScrubbing: Bool { scrub != nil }

    /// What the middle of the window shows.
    var center: CenterContent {
        if case .failed(let reason) = state.phase { return .error(reason) }
        if state.isAtEnd { return .replay }
        if state.phase == .loading || (state.isPlaying && state.isWaiting) {
            return .spinner(step: Int(clock.now * 12) % 12)
        }
        return state.isPlaying ? .none : .play
    }

    /// The scene to draw now.
    var scene: ControlsScene {
        let duration = state.duration.flatMap { $0 > 0 ? $0 : nil }
        let shownTime = scrub.map { $0.fraction * (duration ?? 0) } ?? state.currentTime
        let labels = TimeText.labels(current: shownTime, duration: duration)
        var played = 0.0
        var buffered: [ClosedRange<Double>] = []
        if let duration {
            played = min(1, max(0, shownTime / duration))
            buffered = state.loadedRanges.compactMap { range in
                let lower = min(1, max(0, range.lowerBound / duration))
                let upper = min(1, max(0, range.upperBound / duration))
                return upper > lower ? lower...upper : nil
            }
        }
        return ControlsScene(
            barsVisible: barsVisible, title: state.title, center: center,
            showsPause: state.isPlaying && !state.isAtEnd, currentTimeText: labels.current,
            durationText: labels.duration, playedFraction: played, bufferedFractions: buffered,
            isMuted: state.isMuted, volume: state.volume, speedText: Self.speedText(state.speed),
            isFullscreen: state.isFullscreen, isScrubbing: scrub != nil, volumeIndicator: volumeIndicator,
            audioDelayText: audioDelayText, subtitleDelayText: subtitleDelayText)
    }

    // MARK: - Input

    /// The pointer moved: the bars come back; a held slider seeks (fast) to the pointer.
    func pointerMoved(to point: CGPoint) {
        noteActivity()
        guard var held = scrub, let duration = state.duration, duration > 0 else { return }
        let fraction = layout.sliderFraction(atX: point.x)
        guard fraction != held.fraction else { return }
        held.fraction = fraction
        scrub = held
        actions.seek(to: fraction * duration, exact: false)
    }

    /// A button went down at `point`; `clicks` is 2 for a double click.
    func pointerPressed(at point: CGPoint, clicks: Int = 1) {
        let wasVisible = barsVisible
        noteActivity()
        let target = layout.target(at: point)
        let onBars = layout.isOnBars(point)
        if !wasVisible, onBars || target == nil {
            // A click on hidden bars only brings them back; on the video it may still zoom.
            if clicks == 2, !onBars { perform(.toggleFullscreen) }
            return
        }
        switch target {
        case .close: actions.close()
        case .playPause: perform(.togglePlayPause)
        case .mute: perform(.toggleMute)
        case .speed: cycleSpeed()
        case .fullscreen: perform(.toggleFullscreen)
        case .slider: beginScrub(at: point)
        case .centerButton where center == .play || center == .replay: perform(.togglePlayPause)
        case .centerButton, nil:
            if clicks == 2, !onBars { perform(.toggleFullscreen) }
        }
    }

    /// The button came up at `point`: a held slider seeks exactly there and playback resumes
    /// if the drag paused it.
    func pointerReleased(at point: CGPoint) {
        noteActivity()
        guard let held = scrub else { return }
        scrub = nil
        let fraction = layout.sliderFraction(atX: point.x)
        if let duration = state.duration, duration > 0 {
            actions.seek(to: fraction * duration, exact: true)
        }
        if held.wasPlaying { actions.play() }
    }

    /// Runs a key, wheel or button command.
    func perform(_ command: ControlCommand) {
        noteActivity()
        switch command {
        case .togglePlayPause:
            if state.isAtEnd {
                actions.seek(to: 0, exact: true)
                actions.play()
            } else if state.isPlaying {
                actions.pause()
            } else {
                actions.play()
            }
        case .seek(let offset):
            var target = max(0, state.currentTime + offset)
            if let duration = state.duration, duration > 0 { target = min(target, duration) }
            actions.seek(to: target, exact: true)
        case .changeVolume(let change):
            actions.setVolume(min(1, max(0, state.volume + change)))
            if state.isMuted, change > 0 { actions.setMuted(false) }
            volumeChangedAt = clock.now
        case .toggleMute:
            actions.setMuted(!state.isMuted)
            volumeChangedAt = clock.now
        case .changeAudioDelay(let change):
            // Whole milliseconds, so steps add up without drifting.
            let delay = ((state.audioDelay + change) * 1000).rounded() / 1000
            actions.setAudioDelay(min(5, max(-5, delay)))
            state.audioDelay = min(5, max(-5, delay))
            audioDelayChangedAt = clock.now
        case .changeSubtitleDelay(let change):
            subtitleDelay = SubtitleDelay.adjusted(subtitleDelay, by: change)
            subtitleDelayChangedAt = clock.now
        case .toggleFullscreen:
            actions.setFullscreen(!state.isFullscreen)
        case .leaveFullscreen:
            if state.isFullscreen { actions.setFullscreen(false) }
        case .slower, .faster:
            actions.setSpeed(Self.nextSpeed(from: state.speed, faster: command == .faster))
        case .stepFrame(let forward):
            guard !state.isPlaying, let step = state.frameDuration, step > 0 else { return }
            var target = max(0, state.currentTime + (forward ? step : -step))
            if let duration = state.duration, duration > 0 { target = min(target, duration) }
            actions.seek(to: target, exact: true)
        case .quit:
            actions.close()
        }
    }

    // MARK: - Helpers

    private func noteActivity() { lastActivity = clock.now }

    private func beginScrub(at point: CGPoint) {
        guard let duration = state.duration, duration > 0 else { return }
        let fraction = layout.sliderFraction(atX: point.x)
        let wasPlaying = state.isPlaying && !state.isAtEnd
        if wasPlaying { actions.pause() }
        scrub = Scrub(wasPlaying: wasPlaying, fraction: fraction)
        actions.seek(to: fraction * duration, exact: false)
    }

    private func cycleSpeed() {
        let speeds = Self.speeds
        let index = speeds.firstIndex { $0 > state.speed + 0.001 } ?? 0
        actions.setSpeed(speeds[index])
    }

    /// The next speed up or down the ladder from `speed`, staying at the ends.
    static func nextSpeed(from speed: Float, faster: Bool) -> Float {
        SpeedLadder.next(from: speed, faster: faster)
    }

    /// "1×", "1.5×", "0.25×".
    static func speedText(_ speed: Float) -> String {
        let rounded = (Double(speed) * 100).rounded() / 100
        let text = rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
        return text + "×"
    }
}
