// Playhead: the player: transport (play, pause, rate), the current item, volume and status.
import Foundation

/// Plays one item at a time: starts, pauses and seeks it, and reports its transport state.
///
/// ```swift
/// let player = AVPlayer(url: URL(fileURLWithPath: "movie.mp4"))
/// let observation = player.observe(\.timeControlStatus, options: [.new]) { player, _ in
///     print(player.timeControlStatus)
/// }
/// player.play()
/// ```
///
/// - Important: Property changes, observer callbacks, time observers (queue `nil`) and
///   notifications arrive on the main queue, so a program must keep the main queue running
///   (an app's event loop, `dispatchMain()`, `RunLoop.main.run()`, or an async `main`).
///   Methods may be called from any thread; they never block on I/O or decoding.
@preconcurrency @MainActor
open class AVPlayer: NSObject, _KeyValueObservable {
    /// Whether the player can play at all.
    public enum Status: Int, Sendable {
        /// Not yet ready.
        case unknown = 0
        /// Ready; items can play. (An item can still fail: check the item's status.)
        case readyToPlay = 1
        /// The player cannot play anymore; create a new one.
        case failed = 2
    }

    /// Whether time is advancing, paused, or waiting to advance.
    public enum TimeControlStatus: Int, Sendable {
        /// Paused: `rate` is 0.
        case paused = 0
        /// `rate` is not 0 but playback waits (for data, or for an item); see
        /// `reasonForWaitingToPlay`.
        case waitingToPlayAtSpecifiedRate = 1
        /// Time advances at `rate`.
        case playing = 2
    }

    /// What happens when the current item reaches its end.
    public enum ActionAtItemEnd: Int, Sendable {
        /// Move to the next item (queue players only).
        case advance = 0
        /// Pause: rate becomes 0 and the item stays at its end.
        case pause = 1
        /// Nothing: the item's time keeps advancing past its end.
        case none = 2
    }

    /// Change bookkeeping for observers.
    nonisolated public let _kvoRegistry = _KeyValueObservingRegistry()
    /// protected by its mutex; published fields change only on the main queue
    nonisolated let state = Locked(PlayerState())
    /// The outputs and clock this player plays through.
    nonisolated let environment: PlaybackEnvironment

    // MARK: - Creation

    /// A player with no item.
    nonisolated public override init() {
        environment = PlaybackEnvironment.makeDefault().withSharedAudioDevice()
        super.init()
        becomeReady()
        followSoundServerRequests()
    }

    /// A player for the media at `URL`.
    nonisolated public convenience init(url URL: URL) {
        self.init(playerItem: AVPlayerItem(url: URL))
    }

    /// A player whose current item is `item`.
    nonisolated public init(playerItem item: AVPlayerItem?) {
        environment = PlaybackEnvironment.makeDefault().withSharedAudioDevice()
        super.init()
        becomeReady()
        followSoundServerRequests()
        if let item { replaceCurrentItem(with: item) }
    }

    /// A player with explicit outputs and clock (tests, the CLI, custom front ends).
    nonisolated package init(environment: PlaybackEnvironment, playerItem item: AVPlayerItem? = nil) {
        self.environment = environment.withSharedAudioDevice()
        super.init()
        becomeReady()
        followSoundServerRequests()
        if let item { replaceCurrentItem(with: item) }
    }

    deinit {
        let engine = state.withLock { $0.engine }
        engine?.stop()
    }

    nonisolated private func becomeReady() {
        let player = self
        MainQueue.perform { player.publish(\AVPlayer.status) { $0.status = .readyToPlay } }
    }

    // MARK: - Observable state

    /// Whether the player can play. Observable.
    nonisolated open var status: Status { read(\AVPlayer.status) { $0.status } }
    /// Why the player failed, when `status` is `.failed`. Observable.
    nonisolated open var error: (any Error)? { read(\AVPlayer.error) { $0.error } }
    /// The item being played. Observable.
    nonisolated open var currentItem: AVPlayerItem? { read(\AVPlayer.currentItem) { $0.currentItem } }
    /// Whether time advances, is paused, or waits. Observable.
    nonisolated open var timeControlStatus: TimeControlStatus {
        read(\AVPlayer.timeControlStatus) { $0.timeControlStatus }
    }
    /// Why the player waits, when `timeControlStatus` is `.waitingToPlayAtSpecifiedRate`;
    /// nil otherwise. Observable.
    nonisolated open var reasonForWaitingToPlay: WaitingReason? {
        read(\AVPlayer.reasonForWaitingToPlay) { $0.reasonForWaitingToPlay }
    }

    /// The desired playback rate: 0 pauses, 1 is normal speed. While waiting for data it is the
    /// rate playback will start at. Rates from 0.25 to 32 keep the audio's pitch (depending on
    /// the item's `audioTimePitchAlgorithm`). A negative rate plays backward, silently, when
    /// the item `canPlayReverse` (the picture steps from keyframe to keyframe), and pauses
    /// otherwise. Above 2, an HLS stream with I-frame playlists steps forward through its
    /// keyframes, silently, as Apple's players do; above 4 so does a local file whose container
    /// indexes its keyframes (MP4, MOV, Matroska, AVI and others), and other video shows only
    /// its keyframes while its sound plays at the rate. Observable.
    nonisolated open var rate: Float {
        get { read(\AVPlayer.rate) { $0.machine.rate } }
        set { let player = self; MainQueue.perform { player.applyRate(newValue, immediately: false) } }
    }

    /// The rate `play()` uses. Default 1.
    nonisolated open var defaultRate: Float {
        get { state.withLock { $0.defaultRate } }
        set { state.withLock { $0.defaultRate = newValue > 0 ? newValue : 1 } }
    }

    /// Output volume from 0 (silent) to 1 (full). Observable.
    nonisolated open var volume: Float {
        get { read(\AVPlayer.volume) { $0.volume } }
        set {
            let player = self, value = min(1, max(0, newValue))
            MainQueue.perform {
                player.publish(\AVPlayer.volume) { $0.volume = value }
                player.applyAudioSettings()
            }
        }
    }

    /// Whether audio is muted. Observable.
    nonisolated open var isMuted: Bool {
        get { read(\AVPlayer.isMuted) { $0.isMuted } }
        set {
            let player = self
            MainQueue.perform {
                player.publish(\AVPlayer.isMuted) { $0.isMuted = newValue }
                player.applyAudioSettings()
            }
        }
    }

    /// Whether the player waits for enough data before starting or resuming (default true).
    nonisolated open var automaticallyWaitsToMinimizeStalling: Bool {
        get { state.withLock { $0.machine.automaticallyWaits } }
        set {
            let player = self
            MainQueue.perform { player.handle(.setAutomaticallyWaits(newValue)) }
        }
    }

    /// What happens at the end of an item. Default `.pause` (`.advance` for queue players).
    nonisolated open var actionAtItemEnd: ActionAtItemEnd {
        get { state.withLock { $0.actionAtItemEnd } }
        set {
            let player = self
            MainQueue.perform {
                player.state.withLock { $0.actionAtItemEnd = newValue }
                player.handle(.setActionAtItemEnd(PlayerState.machineAction(newValue)))
            }
        }
    }

    // MARK: - Transport

    /// Starts playback at `defaultRate` (same as setting `rate`).
    nonisolated open func play() {
        let player = self
        MainQueue.perform { player.applyRate(player.defaultRate, immediately: false) }
    }

    /// Pauses playback (same as setting `rate` to 0).
    nonisolated open func pause() {
        let player = self
        MainQueue.perform { player.applyRate(0, immediately: false) }
    }

    /// Plays at `rate` at once, even if the buffer may not keep up.
    nonisolated open func playImmediately(atRate rate: Float) {
        let player = self
        MainQueue.perform { player.applyRate(rate, immediately: true) }
    }

    /// The current item's time; `.zero` with no item.
    nonisolated open func currentTime() -> CMTime {
        currentItem?.currentTime() ?? .zero
    }

    /// Called on the main queue when the current item ended with `actionAtItemEnd ==
    /// .advance`. Queue players override it; a plain player has nothing to advance to.
    /// Not API: a leading underscore marks Playhead's internal hooks.
    nonisolated open func _advanceAfterItemEnd() {}

    /// The engine prerolled to play next (queue players); nil for a plain player.
    nonisolated var upcomingEngine: ItemPlayback? { nil }

    // MARK: - Helpers

    nonisolated func read<Value>(_ keyPath: KeyPath<AVPlayer, Value>, _ body: (PlayerState) -> Value)
        -> Value
    {
        _kvoRegistry.access(keyPath, on: self)
        return state.withLock { body($0) }
    }

    /// Changes state behind `keyPath`, notifying observers. Main queue only.
    nonisolated func publish<Value>(_ keyPath: KeyPath<AVPlayer, Value>, _ change: (inout PlayerState) -> Void) {
        _kvoRegistry.withMutation(keyPath, on: self) { state.withLock { change(&$0) } }
    }
}
