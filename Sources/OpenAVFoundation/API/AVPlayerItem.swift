// Playhead: the playback state of one asset: status, duration, buffering and position.
import FFmpegBridge
import Foundation

/// An asset prepared for playback by an `AVPlayer`: its status, duration, buffering state and
/// current time.
///
/// Create one with `AVPlayerItem(url:)` or `AVPlayerItem(asset:)` and give it to a player.
/// The item stays `.unknown` until a player loads it; then it becomes `.readyToPlay` or
/// `.failed` (with `error` saying why). Observe its properties with `observe(\.status)` etc.
///
/// - Important: Changes of observable properties, and the notifications the item posts,
///   arrive on the main queue. Reading properties is thread-safe.
@preconcurrency @MainActor
open class AVPlayerItem: NSObject, _KeyValueObservable {
    /// Whether the item can be played.
    public enum Status: Int, Sendable {
        /// Not loaded yet (or not attached to a player).
        case unknown = 0
        /// Loaded; the player can play it.
        case readyToPlay = 1
        /// Loading or playback failed; see `error`. A failed item cannot be played again.
        case failed = 2
    }

    /// The asset this item plays.
    nonisolated public let asset: AVAsset
    /// Asset keys loaded before the item reports `.readyToPlay`.
    nonisolated public let automaticallyLoadedAssetKeys: [String]
    /// Change bookkeeping for observers.
    nonisolated public let _kvoRegistry = _KeyValueObservingRegistry()
    /// protected by its mutex; changed only on the main queue (reads from any thread)
    nonisolated let state = Locked(ItemState())

    // MARK: - Creation

    /// An item for the media at `URL`.
    nonisolated public convenience init(url URL: URL) {
        self.init(asset: AVURLAsset(url: URL), automaticallyLoadedAssetKeys: nil)
    }

    /// An item for `asset`.
    nonisolated public convenience init(asset: AVAsset) {
        self.init(asset: asset, automaticallyLoadedAssetKeys: nil)
    }

    /// An item for `asset` that also loads `automaticallyLoadedAssetKeys` (typed asset
    /// properties such as `.duration` or `.tracks`) before it becomes ready. `duration` always
    /// loads.
    nonisolated public convenience init(asset: AVAsset, automaticallyLoadedAssetKeys: [AVPartialAsyncProperty<AVAsset>]) {
        self.init(asset: asset, automaticallyLoadedAssetKeys: automaticallyLoadedAssetKeys.map(\.key))
    }

    /// An item for `asset` that also loads `automaticallyLoadedAssetKeys` (asset property
    /// names such as "duration" or "tracks") before it becomes ready. `duration` always loads.
    nonisolated public init(asset: AVAsset, automaticallyLoadedAssetKeys: [String]?) {
        self.asset = asset
        self.automaticallyLoadedAssetKeys = automaticallyLoadedAssetKeys ?? ["duration"]
        super.init()
        // An item is made to be played: media the asset's loading opened waits for its engine.
        asset.inspection.noteInterest()
    }

    // MARK: - Observable state

    /// Whether the item is ready to play or failed. Observable.
    nonisolated open var status: Status { read(\AVPlayerItem.status) { $0.status } }
    /// Why the item failed, when `status` is `.failed`. Observable.
    nonisolated open var error: (any Error)? { read(\AVPlayerItem.error) { $0.error } }
    /// The item's duration: `.indefinite` until known (and for live streams). Observable.
    nonisolated open var duration: CMTime { read(\AVPlayerItem.duration) { $0.duration } }
    /// The size at which the video displays (rotation and pixel aspect applied); `.zero`
    /// until known and for audio-only items. Observable.
    nonisolated open var presentationSize: CGSize {
        read(\AVPlayerItem.presentationSize) { $0.presentationSize }
    }
    /// The item's tracks, empty until ready. Observable.
    nonisolated open var tracks: [AVPlayerItemTrack] { read(\AVPlayerItem.tracks) { $0.tracks } }
    /// Ranges of media that are buffered and can play without waiting, sorted and merged
    /// (`NSValue`s holding `CMTimeRange`s). Observable.
    nonisolated open var loadedTimeRanges: [NSValue] {
        read(\AVPlayerItem.loadedTimeRanges) { $0.loadedTimeRanges.map { NSValue(timeRange: $0) } }
    }
    /// Ranges the player can seek within (`NSValue`s holding `CMTimeRange`s). Observable.
    nonisolated open var seekableTimeRanges: [NSValue] {
        read(\AVPlayerItem.seekableTimeRanges) {
            $0.seekableTimeRanges.map { NSValue(timeRange: $0) }
        }
    }
    /// True when playback used up everything buffered and would stall (or end). Observable.
    nonisolated open var isPlaybackBufferEmpty: Bool {
        read(\AVPlayerItem.isPlaybackBufferEmpty) { $0.buffer.isEmpty }
    }
    /// True when the buffer reached its target and loading paused. Observable.
    nonisolated open var isPlaybackBufferFull: Bool {
        read(\AVPlayerItem.isPlaybackBufferFull) { $0.buffer.isFull }
    }
    /// True when enough is buffered to play on without stalling (or the rest of the item is
    /// buffered). Observable.
    nonisolated open var isPlaybackLikelyToKeepUp: Bool {
        read(\AVPlayerItem.isPlaybackLikelyToKeepUp) { $0.buffer.isLikelyToKeepUp }
    }

    // MARK: - Settings

    /// How far ahead to buffer, in seconds; 0 lets the player choose.
    nonisolated open var preferredForwardBufferDuration: TimeInterval {
        get { state.withLock { $0.preferredForwardBufferDuration } }
        set { state.withLock { $0.preferredForwardBufferDuration = max(0, newValue) } }
    }
    /// Where forward playback ends; `.invalid` means the item's end.
    nonisolated open var forwardPlaybackEndTime: CMTime {
        get { state.withLock { $0.forwardPlaybackEndTime } }
        set { state.withLock { $0.forwardPlaybackEndTime = newValue } }
    }
    /// Where reverse playback (a negative rate) ends; `.invalid` means the start. Like
    /// `forwardPlaybackEndTime`, it is read when the item starts playing in a player.
    nonisolated open var reversePlaybackEndTime: CMTime {
        get { state.withLock { $0.reversePlaybackEndTime } }
        set { state.withLock { $0.reversePlaybackEndTime = newValue } }
    }
    /// How audio is stretched when the rate is not 1. `.varispeed` changes pitch with speed;
    /// the others keep pitch.
    nonisolated open var audioTimePitchAlgorithm: AVAudioTimePitchAlgorithm {
        get { state.withLock { $0.audioTimePitchAlgorithm } }
        set { state.withLock { $0.audioTimePitchAlgorithm = newValue } }
    }

    /// Whether rates above 2 play: true once ready. An HLS stream with I-frame playlists (above
    /// 2) and a local file whose container indexes its keyframes (above 4) step through their
    /// keyframes, silently; other items play every frame (Apple reports false for HLS streams
    /// without I-frame playlists, which still play at 1 to 2).
    nonisolated open var canPlayFastForward: Bool { status == .readyToPlay }
    /// Whether slow forward (rates between 0 and 1) is available: true once ready.
    nonisolated open var canPlaySlowForward: Bool { status == .readyToPlay }
    /// Whether negative rates play backward: true once ready, for items with video and a known
    /// duration. Backward play is silent and shows the keyframes as time passes them (I-frame
    /// stepping), as AVFoundation does for media without an I-frame playlist at high rates.
    nonisolated open var canPlayReverse: Bool {
        status == .readyToPlay && stepFrameDuration != nil && duration.isNumeric
    }
    /// Whether rates below -1 play backward: as `canPlayReverse`.
    nonisolated open var canPlayFastReverse: Bool { canPlayReverse }
    /// Whether rates between -1 and 0 play backward: as `canPlayReverse`.
    nonisolated open var canPlaySlowReverse: Bool { canPlayReverse }
    /// Whether `step(byCount:)` can move forward: true once ready, for items with video.
    nonisolated open var canStepForward: Bool { status == .readyToPlay && stepFrameDuration != nil }
    /// Whether `step(byCount:)` can move backward: true once ready, for items with video.
    nonisolated open var canStepBackward: Bool { canStepForward }

    /// The item's current time; the target of a seek in progress while seeking.
    nonisolated open func currentTime() -> CMTime {
        let (engine, time) = state.withLock { ($0.engine, $0.lastTime) }
        return engine?.currentTime() ?? time
    }

    // MARK: - Helpers

    nonisolated func read<Value>(
        _ keyPath: KeyPath<AVPlayerItem, Value>, _ body: (ItemState) -> Value
    ) -> Value {
        _kvoRegistry.access(keyPath, on: self)
        return state.withLock { body($0) }
    }

    /// Changes state behind `keyPath`, notifying observers. Main queue only.
    nonisolated func publish<Value>(
        _ keyPath: KeyPath<AVPlayerItem, Value>, _ change: (inout ItemState) -> Void
    ) {
        _kvoRegistry.withMutation(keyPath, on: self) { state.withLock { change(&$0) } }
    }
}
