// Playhead: where each part of the control overlay sits in a window of a given size.
//
// Concurrency: an immutable value.
import Foundation

/// A part of the overlay the pointer can act on.
enum ControlsTarget: Equatable, Sendable {
    case close, playPause, slider, mute, speed, fullscreen, centerButton
}

/// The overlay's geometry for one window size, in pixels from the top-left corner.
struct ControlsLayout: Equatable, Sendable {
    static let topBarHeight: CGFloat = 44
    static let bottomBarHeight: CGFloat = 56
    static let buttonSize: CGFloat = 40
    static let centerButtonSize: CGFloat = 88

    let size: CGSize
    let topBar: CGRect
    let closeButton: CGRect
    let titleArea: CGRect
    let bottomBar: CGRect
    let playPauseButton: CGRect
    let currentTimeArea: CGRect
    /// The visible slider track (thin); `sliderHitArea` is the taller area that grabs it.
    let sliderTrack: CGRect
    let sliderHitArea: CGRect
    let durationArea: CGRect
    let muteButton: CGRect
    let speedButton: CGRect
    let fullscreenButton: CGRect
    let centerButton: CGRect

    /// The layout for a window `size` wide and high.
    init(size: CGSize) {
        self.size = size
        let width = size.width, height = size.height
        let button = Self.buttonSize
        topBar = CGRect(x: 0, y: 0, width: width, height: Self.topBarHeight)
        closeButton = CGRect(x: width - Self.topBarHeight, y: 0, width: Self.topBarHeight, height: Self.topBarHeight)
        titleArea = CGRect(x: 12, y: 0, width: max(0, closeButton.minX - 20), height: Self.topBarHeight)
        bottomBar = CGRect(
            x: 0, y: height - Self.bottomBarHeight, width: width, height: Self.bottomBarHeight)
        let rowY = bottomBar.midY - button / 2
        playPauseButton = CGRect(x: 8, y: rowY, width: button, height: button)
        currentTimeArea = CGRect(x: playPauseButton.maxX + 6, y: rowY, width: 72, height: button)
        fullscreenButton = CGRect(x: width - 8 - button, y: rowY, width: button, height: button)
        speedButton = CGRect(x: fullscreenButton.minX - 56, y: rowY, width: 52, height: button)
        muteButton = CGRect(x: speedButton.minX - 4 - button, y: rowY, width: button, height: button)
        durationArea = CGRect(x: muteButton.minX - 4 - 72, y: rowY, width: 72, height: button)
        let trackX = currentTimeArea.maxX + 8
        let trackWidth = max(0, durationArea.minX - 8 - trackX)
        sliderTrack = CGRect(x: trackX, y: bottomBar.midY - 3, width: trackWidth, height: 6)
        sliderHitArea = sliderTrack.insetBy(dx: -8, dy: -14)
        let center = Self.centerButtonSize
        centerButton = CGRect(x: width / 2 - center / 2, y: height / 2 - center / 2, width: center, height: center)
    }

    /// What the pointer at `point` would act on, with the bars shown.
    func target(at point: CGPoint) -> ControlsTarget? {
        if closeButton.contains(point) { return .close }
        if sliderHitArea.contains(point) { return .slider }
        if playPauseButton.contains(point) { return .playPause }
        if muteButton.contains(point) { return .mute }
        if speedButton.contains(point) { return .speed }
        if fullscreenButton.contains(point) { return .fullscreen }
        if centerButton.contains(point) { return .centerButton }
        return nil
    }

    /// True when `point` falls on the top or bottom bar.
    func isOnBars(_ point: CGPoint) -> Bool { topBar.contains(point) || bottomBar.contains(point) }

    /// The slider position (0 to 1) under horizontal coordinate `x`.
    func sliderFraction(atX x: CGFloat) -> Double {
        guard sliderTrack.width > 0 else { return 0 }
        return Double(min(1, max(0, (x - sliderTrack.minX) / sliderTrack.width)))
    }
}
