// Playhead: a desktop window that plays an AVPlayer: video, control overlay, keys and mouse.
//
// Concurrency: a `PlayerWindow` is confined to the thread that creates it, which must also
// call `run()` (SDL windows and renderers are single-threaded). On the main thread `run()`
// drains the main queue every iteration, so the player's observers, notifications and
// main-actor tasks keep running; on another thread (the main queue is then drained elsewhere,
// e.g. by `dispatchMain()`) it leaves the main queue alone. `closeHandle` may be used from any
// thread. Video pictures arrive from the engine's presentation thread through the layer's
// frame slot and a pushed SDL event wakes the loop.
internal import CSDL2
import Foundation
import OpenAVFoundation

/// A resizable window showing a player's video with playback controls.
///
/// ```swift
/// let player = AVPlayer(url: URL(fileURLWithPath: "movie.mp4"))
/// let window = try PlayerWindow(player: player)
/// player.play()
/// window.run()  // returns when the user closes the window or presses q
/// ```
///
/// Keys: space or k play/pause, ←/→ seek 5 s, j/l seek 10 s, ↑/↓ volume, m mute,
/// f fullscreen, Esc leave fullscreen, [ and ] speed, `.` and `,` step a frame while paused,
/// `-` and `=` the audio delay in 50 ms steps, z and x the subtitle delay in 0.1 s steps,
/// q quit, PageDown/PageUp next/previous chapter, a next audio language, s next subtitles
/// (then off). The mouse wheel changes the volume; a double click toggles fullscreen. Files
/// and URLs dropped on the window go to the delegate (`playerWindow(_:didReceive:)`).
///
/// A host app hears what happens through `delegate` and may replace the control overlay with
/// its own (`controlsOverlay`); see docs/custom-controls.md.
public final class PlayerWindow {
    /// The player shown.
    public let player: AVPlayer
    /// The layer that draws the player's video; change its `videoGravity` at will.
    public let playerLayer: AVPlayerLayer
    /// Closes the window from any thread.
    public let closeHandle: CloseHandle
    /// True while the window covers the screen.
    public private(set) var isFullscreen = false
    /// Whether the window tells the desktop what it plays and takes the desktop's transport
    /// commands (media keys, GNOME's and KDE's media controls, playerctl: play, pause, seek,
    /// speed) while it runs, through a now-playing session of its own (MPRIS on the session
    /// bus), as AVPlayerViewController does. True by default; set it false before `run()` to
    /// wire `MPNowPlayingInfoCenter` and `MPRemoteCommandCenter` yourself.
    public var updatesNowPlayingInfoCenter = true
    /// The window's now-playing session while it runs (WindowNowPlaying.swift).
    private let nowPlaying = NowPlayingSlot()
    /// An overlay of the app's own, drawn and fed input instead of the built-in controls
    /// (nil: the built-in overlay). See docs/custom-controls.md.
    public var controlsOverlay: (any PlayerControlsOverlay)? {
        didSet {
            controlsOverlay?.attach(to: bridge)
            needsRedraw = true
        }
    }

    private let options: Options
    /// owned by this object; destroyed in deinit
    private let window: OpaquePointer
    let target: RenderTarget
    private let video: VideoRenderer
    private let controlsRenderer: ControlsRenderer
    let controller: PlayerControlsController
    let bridge: AVPlayerControlsBridge
    let events: PlayerWindowEvents
    let callbacks = PlayerWindowCallbacks()
    /// made on first use by a custom overlay
    var overlayCanvas: OverlayCanvas?
    /// The state a custom overlay last drew.
    var lastOverlayState: PlaybackState?
    let mediaSelection: WindowMediaSelection
    /// The look subtitles are drawn with (PlayerWindow+Subtitles.swift).
    var subtitleLook = SubtitleAppearance()
    private let wake: WakeSignal
    /// The playlist panel and the slider preview (WindowExtras.swift).
    private var extras: WindowExtras!
    private var running = false
    var needsRedraw = true
    private var lastScene: ControlsScene?
    private var lastGeneration = -1
    /// Generation of the last picture whose arrival on screen was reported (main thread).
    private var drawnGeneration = -1
    private var shownTitle = ""
    private var userResized = false
    private var fittedItem: ObjectIdentifier?
    private var cursorShown = true
    /// The items of the drop in progress (PlayerWindow+Drop.swift).
    var droppedURLs: [URL] = []
    /// Keeps the display awake through the installed `DisplaySleep` inhibitor (nil: SDL's way).
    private let displaySleepHold: (any DisplaySleepHold)?
    /// Minimised or hidden: pauses and resumes by the player's policy (WindowBackground.swift).
    private(set) lazy var background = WindowBackground(player: player, events: events, hold: displaySleepHold) {
        [weak self] in self?.playerLayer.displaySize() != nil
    }

    /// Opens a window for `player`.
    ///
    /// - Throws: `SDLError` when there is no display or SDL cannot make a window or renderer.
    /// - Important: Create and `run()` the window on the same thread.
    public init(player: AVPlayer, options: Options = Options()) throws(SDLError) {
        let hold = DisplaySleep.makeHold(reason: "Playing video")
        // With a hold of our own SDL must not hold the screensaver off by itself.
        if hold != nil { SDL_SetHint(SDL_HINT_VIDEO_ALLOW_SCREENSAVER, "1") }
        try SDLSubsystem.startVideo()
        var flags = SDL_WINDOW_RESIZABLE.rawValue | SDL_WINDOW_SHOWN.rawValue | SDL_WINDOW_ALLOW_HIGHDPI.rawValue
        if options.fullscreen { flags |= SDL_WINDOW_FULLSCREEN_DESKTOP.rawValue }
        let centered = Int32(bitPattern: SDL_WINDOWPOS_CENTERED_MASK)
        guard
            let window = SDL_CreateWindow(
                options.title ?? "Playhead", centered, centered, Int32(options.width),
                Int32(options.height), flags)
        else {
            let error = SDLError("cannot open a window: \(SDLSubsystem.lastError)")
            SDLSubsystem.stopVideo()
            throw error
        }
        let target: RenderTarget
        do {
            target = try RenderTarget(window: window)
        } catch {
            SDL_DestroyWindow(window)
            SDLSubsystem.stopVideo()
            throw error
        }
        SDL_SetWindowMinimumSize(window, 320, 180)
        // Without a hold, SDL holds the screensaver off while a window is open (a player that
        // allows display sleep lets it run); with one, the hold keeps it off while video plays.
        if hold != nil || !player.preventsDisplaySleepDuringVideoPlayback {
            SDL_EnableScreenSaver()
        } else {
            SDL_DisableScreenSaver()
        }
        displaySleepHold = hold
        self.window = window
        // The size asked for, shrunk to fit the screen before the first picture.
        if !options.fullscreen, let usable = Self.usableScreenArea(of: window) {
            let fitted = WindowFit.size(
                for: CGSize(width: options.width, height: options.height), usable: usable)
            if fitted.width < Double(options.width) { Self.resize(window, to: fitted) }
        }
        self.target = target
        self.player = player
        self.options = options
        isFullscreen = options.fullscreen
        wake = WakeSignal()
        closeHandle = CloseHandle(wake: wake)
        playerLayer = AVPlayerLayer(player: player)
        playerLayer.videoGravity = options.videoGravity
        video = VideoRenderer(target: target)
        controlsRenderer = ControlsRenderer(target: target)
        mediaSelection = WindowMediaSelection(player: player, renderer: target.renderer)
        bridge = AVPlayerControlsBridge(player: player)
        let size = target.scaleToPoints(of: window)
        controller = PlayerControlsController(
            actions: bridge, clock: SystemHostClock.shared,
            size: CGSize(width: size.width, height: size.height))
        let callbacks = self.callbacks
        events = PlayerWindowEvents(player: player) { callbacks.send($0) }
        bridge.events = events
        bridge.fullscreenHandler = { [unowned self] in setFullscreen($0) }
        callbacks.setWindow(self)
        bridge.closeHandler = { [unowned self] in running = false }
        let wake = self.wake
        playerLayer.setPictureHook { wake.pictureArrived() }
        extras = WindowExtras(player: player, target: target) { wake.pictureArrived() }
        extras.playlistButtonPressed = { [weak self] in self?.bridge.showPlaylist() }
    }

    deinit {
        // No wake-up may be pushed once the window starts going: SDL sends it to the window
        // that last waited, and a send racing SDL_DestroyWindow ends the process with an X
        // BadWindow error.
        wake.shutDown()
        playerLayer.setPictureHook(nil)
        playerLayer.player = nil
        SDL_DestroyWindow(window)
        SDLSubsystem.stopVideo()
    }

    /// The renderer SDL picked ("opengl", "software", …) and whether it waits for vsync.
    public var rendererDescription: String {
        target.name + (target.isVSynced ? " (vsync)" : "")
    }

    // MARK: - Event loop

    /// Runs the window until the user closes it (q, the close button, the window manager) or
    /// `closeHandle.close()` is called. Draws at the display's rate while something changes.
    public func run() {
        running = true
        if updatesNowPlayingInfoCenter { nowPlaying.start(player: player) }
        defer { nowPlaying.end() }
        var event = SDL_Event()
        // The library's own hops to the main queue wake this loop, which drains that queue.
        let wake = self.wake
        let hook = Thread.isMainThread ? MainQueue.WakeUpHook { wake.mainQueueWorkArrived() } : nil
        if let hook { MainQueue.setWakeUpHook(hook) }
        defer { if let hook { MainQueue.clearWakeUpHook(hook) } }
        var lastBusy = SystemHostClock.shared.now
        while running {
            if SDL_WaitEventTimeout(&event, waitMilliseconds(sinceBusy: lastBusy)) != 0 {
                repeat { handle(event) } while running && SDL_PollEvent(&event) != 0
                lastBusy = SystemHostClock.shared.now
            }
            if wake.isCloseRequested { running = false }
            guard running else { break }
            if let text = closeHandle.pendingMessage.withLock({ text in defer { text = nil }; return text }) {
                mediaSelection.note(text)
                needsRedraw = true
            }
            if Thread.isMainThread {
                _ = RunLoop.main.run(mode: .default, before: .distantPast)
            }
            if drawIfNeeded() || player.timeControlStatus != .paused { lastBusy = SystemHostClock.shared.now }
            background.updateDisplaySleep()
        }
        background.release()
        SDL_HideWindow(window)
        SDL_ShowCursor(SDL_ENABLE)
    }

    private func handle(_ event: SDL_Event) {
        let type = event.type
        if type == wake.eventType {
            wake.pictureHandled()
            return
        }
        if extras.handle(event, controls: controller.layout, barsVisible: lastScene?.barsVisible ?? false) {
            needsRedraw = true
            return
        }
        switch SDL_EventType(type) {
        case SDL_QUIT:
            running = false
        case SDL_KEYDOWN where isScreenshotKey(event.key.keysym):
            takeScreenshot()
        case SDL_KEYDOWN:
            if let key = Self.keyInput(event.key.keysym.sym), !overlayTook(.key(key)), !mediaSelection.handle(key),
                let command = ControlCommand.bound(to: key)
            {
                controller.perform(command)
            }
        case SDL_MOUSEMOTION:
            let point = CGPoint(x: Int(event.motion.x), y: Int(event.motion.y))
            if !overlayTook(.pointerMoved(point)) { controller.pointerMoved(to: point) }
        case SDL_MOUSEBUTTONDOWN where event.button.button == UInt8(SDL_BUTTON_LEFT):
            let point = CGPoint(x: Int(event.button.x), y: Int(event.button.y))
            let clicks = Int(event.button.clicks)
            if !overlayTook(.pointerPressed(point, clicks: clicks)) { controller.pointerPressed(at: point, clicks: clicks) }
        case SDL_MOUSEBUTTONUP where event.button.button == UInt8(SDL_BUTTON_LEFT):
            let point = CGPoint(x: Int(event.button.x), y: Int(event.button.y))
            if !overlayTook(.pointerReleased(point)) { controller.pointerReleased(at: point) }
        case SDL_MOUSEWHEEL:
            var notches = Int(event.wheel.y)
            if event.wheel.direction == SDL_MOUSEWHEEL_FLIPPED.rawValue { notches = -notches }
            if !overlayTook(.wheel(notches: notches)), let command = ControlCommand.wheel(notches: notches) {
                controller.perform(command)
            }
        case SDL_DROPBEGIN, SDL_DROPFILE, SDL_DROPTEXT, SDL_DROPCOMPLETE:
            handleDrop(event)
        case SDL_WINDOWEVENT:
            let kind = UInt32(event.window.event)
            if kind == SDL_WINDOWEVENT_RESIZED.rawValue, !isFullscreen {
                userResized = true
            }
            if kind == SDL_WINDOWEVENT_MINIMIZED.rawValue || kind == SDL_WINDOWEVENT_HIDDEN.rawValue {
                background.enter()
            } else if kind == SDL_WINDOWEVENT_RESTORED.rawValue || kind == SDL_WINDOWEVENT_SHOWN.rawValue
                || kind == SDL_WINDOWEVENT_MAXIMIZED.rawValue
            {
                background.leave()
            }
            needsRedraw = true
        default:
            break
        }
    }

    /// Seconds without input, drawing or playback after which the window sleeps until woken.
    static let idleAfter = 5.0

    /// How long the loop may wait for an event: a frame's time while anything moves (playing,
    /// bars or messages fading, animations), five seconds once everything has been still for
    /// `idleAfter` (events, pictures and the library's main-queue work wake it sooner).
    private func waitMilliseconds(sinceBusy lastBusy: Double) -> Int32 {
        SystemHostClock.shared.now - lastBusy > Self.idleAfter ? 5_000 : 15
    }

    // MARK: - Drawing

    /// Draws when something changed; true when it drew.
    @discardableResult
    private func drawIfNeeded() -> Bool {
        let size = target.scaleToPoints(of: window)
        let bounds = CGRect(x: 0, y: 0, width: size.width, height: size.height)
        if playerLayer.frame != bounds { playerLayer.frame = bounds }
        controller.resize(to: bounds.size)
        let state = bridge.snapshot(isFullscreen: isFullscreen)
        controller.playbackStateDidChange(state)
        events.stateDidChange(state, item: player.currentItem)
        updateTitle(options.title ?? (state.title.isEmpty ? "Playhead" : state.title))
        let scene = options.showsControls && controlsOverlay == nil ? controller.scene : nil
        let content = playerLayer.slot.latest()
        let generation = content.generation
        if extras.takeNeedsRedraw() { needsRedraw = true }
        let overlayChanged = overlayNeedsDrawing(state)
        let subtitleLook = subtitleRendering
        mediaSelection.text.delay = subtitleLook.delay
        mediaSelection.text.appearance = subtitleLook.appearance
        // Always brought up to date (not only when nothing else asks for a redraw): it feeds
        // and renders libass, whose picture must follow every new video frame.
        let subtitlesChanged = mediaSelection.needsRedraw(over: playerLayer)
        guard needsRedraw || overlayChanged || scene != lastScene || generation != lastGeneration
            || subtitlesChanged
        else { return false }
        fitWindowToVideo()
        needsRedraw = false
        lastScene = scene
        lastGeneration = generation
        SDL_SetRenderDrawColor(target.renderer, 0, 0, 0, 255)
        SDL_RenderClear(target.renderer)
        video.draw(playerLayer)
        mediaSelection.drawSubtitles(
            over: playerLayer, bottomInset: scene?.barsVisible == true ? ControlsLayout.bottomBarHeight : 0)
        mediaSelection.drawMessage(over: playerLayer)
        if let scene {
            controlsRenderer.draw(scene, layout: controller.layout)
            if scene.barsVisible { mediaSelection.drawChapterTicks(on: controller.layout.sliderTrack) }
            extras.draw(controls: controller.layout, barsVisible: scene.barsVisible)
        }
        drawOverlay(size: bounds.size)
        SDL_RenderPresent(target.renderer)
        // How long a picture takes from the engine to the screen: the engine hands the next
        // ones over that much early.
        if generation != drawnGeneration {
            drawnGeneration = generation
            playerLayer.slot.noteOnScreen(content, at: SystemHostClock.shared.now)
        }
        let showCursor = scene?.barsVisible ?? true
        if showCursor != cursorShown {
            cursorShown = showCursor
            SDL_ShowCursor(showCursor ? SDL_ENABLE : SDL_DISABLE)
        }
        return true
    }

    private func updateTitle(_ title: String) {
        guard title != shownTitle else { return }
        shownTitle = title
        SDL_SetWindowTitle(window, title)
    }

    /// Once per item, gives the window the video's aspect (unless the user sized it or it is
    /// fullscreen), sized by `WindowFit` for the screen it is on, and centres it there.
    private func fitWindowToVideo() {
        guard !userResized, !isFullscreen, let item = player.currentItem,
            ObjectIdentifier(item) != fittedItem, let size = playerLayer.displaySize(),
            item.status == .readyToPlay
        else { return }
        fittedItem = ObjectIdentifier(item)
        Self.resize(window, to: WindowFit.size(for: size, usable: Self.usableScreenArea(of: window)))
        needsRedraw = true
    }

    /// The usable area (without panels) of the screen `window` is on, nil when SDL cannot say.
    private static func usableScreenArea(of window: OpaquePointer) -> CGSize? {
        let display = SDL_GetWindowDisplayIndex(window)
        var bounds = SDL_Rect()
        guard display >= 0, SDL_GetDisplayUsableBounds(display, &bounds) == 0 else { return nil }
        return CGSize(width: Double(bounds.w), height: Double(bounds.h))
    }

    /// Sets `window`'s size and centres it on its screen.
    private static func resize(_ window: OpaquePointer, to size: CGSize) {
        SDL_SetWindowSize(window, Int32(size.width), Int32(size.height))
        let centered = Int32(bitPattern: SDL_WINDOWPOS_CENTERED_MASK)
        SDL_SetWindowPosition(window, centered, centered)
    }

    /// Enters or leaves fullscreen (as the f key does); the delegate hears of the change.
    public func setFullscreen(_ fullscreen: Bool) {
        guard fullscreen != isFullscreen else { return }
        let flags = fullscreen ? SDL_WINDOW_FULLSCREEN_DESKTOP.rawValue : 0
        if SDL_SetWindowFullscreen(window, flags) == 0 {
            isFullscreen = fullscreen
            events.note(.fullscreenChanged(fullscreen))
        }
        needsRedraw = true
    }
}
