// Playhead example: the player controller iOS developers build from the AVPlayer articles,
// ported by changing only the import. UIKit is gone; the view layer is the delegate.
//
// The same file compiles against Apple's AVFoundation: it uses only Apple API names.
import Foundation

#if os(Linux)
    import OpenAVFoundation
#else
    import AVFoundation
#endif

/// Where playback stands, as the controller's play/pause button shows it.
enum PlaybackState: Int, CustomStringConvertible {
    case stopped = 0
    case playing
    case paused
    case failed

    var description: String {
        switch self {
        case .stopped: return "Stopped"
        case .playing: return "Playing"
        case .paused: return "Paused"
        case .failed: return "Failed"
        }
    }
}

/// Whether the buffer keeps up, as the loading spinner shows it.
enum BufferingState: Int, CustomStringConvertible {
    case unknown = 0
    case ready
    case delayed

    var description: String {
        switch self {
        case .unknown: return "Unknown"
        case .ready: return "Ready"
        case .delayed: return "Delayed"
        }
    }
}

/// What the controller tells its view layer. Every call arrives on the main queue.
@MainActor
protocol VideoPlayerControllerDelegate: AnyObject {
    /// The asset's keys loaded; the item is being prepared.
    func videoPlayerController(
        _ controller: VideoPlayerController, didLoadAssetWithDuration duration: TimeInterval,
        trackCount: Int)
    /// The item's status changed (the first call reports the initial `.unknown`).
    func videoPlayerController(
        _ controller: VideoPlayerController, didChangeItemStatus status: AVPlayerItem.Status)
    /// The item is ready and playback was started (if `isAutoPlay`).
    func videoPlayerControllerReadyToPlay(_ controller: VideoPlayerController)
    /// The duration became known (or changed): enable the slider, show the total time.
    func videoPlayerController(
        _ controller: VideoPlayerController, didUpdateDuration duration: TimeInterval,
        isValid: Bool)
    /// The periodic observer fired: move the slider and the current-time label.
    func videoPlayerController(
        _ controller: VideoPlayerController, didUpdateCurrentTime time: CMTime,
        duration: CMTime)
    /// Playback crossed 25 %, 50 % or 75 % of the item.
    func videoPlayerController(
        _ controller: VideoPlayerController, didReachPercentage percentage: Int, at time: CMTime)
    /// The buffered part of the item changed (0...1 of the duration).
    func videoPlayerController(
        _ controller: VideoPlayerController, didUpdateBufferProgress progress: Float)
    /// The loading spinner should show (`.delayed`) or hide (`.ready`).
    func videoPlayerController(
        _ controller: VideoPlayerController, didChangeBufferingState state: BufferingState)
    /// Buffer flags, for the debug overlay.
    func videoPlayerController(
        _ controller: VideoPlayerController, didChangeBufferFlag name: String, value: Bool)
    /// The player's desired rate changed.
    func videoPlayerController(_ controller: VideoPlayerController, didChangeRate rate: Float)
    /// The player started, paused or began waiting.
    func videoPlayerController(
        _ controller: VideoPlayerController,
        didChangeTimeControlStatus status: AVPlayer.TimeControlStatus,
        reason: AVPlayer.WaitingReason?)
    /// A seek requested with `seek(toTime:)` completed.
    func videoPlayerController(
        _ controller: VideoPlayerController, didSeekToTime time: CMTime, finished: Bool)
    /// Playback stalled because data did not arrive in time.
    func videoPlayerControllerPlaybackStalled(_ controller: VideoPlayerController)
    /// The play/pause button state changed.
    func videoPlayerController(
        _ controller: VideoPlayerController, didChangeStatus status: PlaybackState)
    /// Playback ended: `error` is nil at the normal end, else why it failed.
    func videoPlayerController(
        _ controller: VideoPlayerController, didCompletedPlayToEndWithError error: Error?)
}

/// Loads a URL, plays it, and reports everything a player screen shows.
@MainActor
final class VideoPlayerController {
    /// Keys loaded (and checked) before an item is made.
    static let assetKeysRequiredToPlay = ["playable", "duration", "tracks"]

    /// Start playing as soon as the item is ready.
    var isAutoPlay = true
    /// The view layer.
    weak var delegate: VideoPlayerControllerDelegate?

    /// The item's duration; zero before one is loaded.
    var duration: CMTime { playerItem?.duration ?? .zero }
    /// The player's current time.
    var currentTime: CMTime { player.currentTime() }
    /// Whether the player wants to play (it may still be waiting for data).
    var isPlaying: Bool { player.rate != 0 }

    /// Play/pause button state.
    private(set) var playbackState: PlaybackState = .stopped {
        didSet {
            guard playbackState != oldValue else { return }
            delegate?.videoPlayerController(self, didChangeStatus: playbackState)
        }
    }
    /// Loading spinner state.
    private(set) var bufferingState: BufferingState = .unknown {
        didSet {
            guard bufferingState != oldValue else { return }
            delegate?.videoPlayerController(self, didChangeBufferingState: bufferingState)
        }
    }

    private let player = AVPlayer()
    private var asset: AVURLAsset?
    private var playerItem: AVPlayerItem? { player.currentItem }

    /// A seek asked for before the item was ready; performed once it is.
    private var requestSeek: CMTime?
    /// Item observations; dropping a token stops its observation.
    private var itemObservations: [NSKeyValueObservation] = []
    /// Player observations.
    private var playerObservations: [NSKeyValueObservation] = []
    /// Notification center registrations for the current item.
    private var notificationTokens: [NSObjectProtocol] = []
    private var timeObserverToken: Any?
    private var boundaryObserverToken: Any?
    /// The 25/50/75 % times of the current item, ascending.
    private var boundaryTimes: [CMTime] = []

    init() {
        playerObservations = [
            player.observe(\.rate, options: [.new]) { [weak self] _, change in
                guard let self, let rate = change.newValue else { return }
                self.delegate?.videoPlayerController(self, didChangeRate: rate)
            },
            player.observe(\.timeControlStatus, options: [.new]) { [weak self] player, change in
                guard let self, let status = change.newValue else { return }
                self.delegate?.videoPlayerController(
                    self, didChangeTimeControlStatus: status, reason: player.reasonForWaitingToPlay)
            },
        ]
    }

    // MARK: - Loading

    /// Loads `url` and, once its keys are loaded, makes it the player's item.
    func load(url: URL) {
        let asset = AVURLAsset(
            url: url, options: [AVURLAssetPreferPreciseDurationAndTimingKey: true])
        self.asset = asset
        let keys = Self.assetKeysRequiredToPlay
        asset.loadValuesAsynchronously(forKeys: keys) { [weak self] in
            // Called on a background queue: come back to the main queue before touching UI.
            DispatchQueue.main.async {
                self?.assetDidLoad(asset, keys: keys)
            }
        }
    }

    private func assetDidLoad(_ asset: AVURLAsset, keys: [String]) {
        // A newer load replaced this asset while it was loading.
        guard asset === self.asset else { return }
        for key in keys {
            var error: NSError?
            if asset.statusOfValue(forKey: key, error: &error) == .failed {
                fail(with: error)
                return
            }
        }
        guard asset.isPlayable else {
            fail(with: nil)
            return
        }
        delegate?.videoPlayerController(
            self, didLoadAssetWithDuration: asset.duration.seconds, trackCount: asset.tracks.count)
        let item = AVPlayerItem(asset: asset, automaticallyLoadedAssetKeys: keys)
        replacePlayerItem(with: item)
    }

    private func replacePlayerItem(with item: AVPlayerItem?) {
        removeItemObservers()
        if let item { addObservers(to: item) }
        setupPlayerPeriodicTimeObserver(item != nil)
        player.replaceCurrentItem(with: item)
    }

    // MARK: - Observers

    private func addObservers(to item: AVPlayerItem) {
        itemObservations = [
            item.observe(\.status, options: [.initial, .new]) { [weak self] item, change in
                guard let self, let status = change.newValue else { return }
                self.itemStatusDidChange(item, to: status)
            },
            item.observe(\.duration, options: [.new]) { [weak self] _, change in
                guard let self, let duration = change.newValue else { return }
                self.durationDidChange(duration)
            },
            item.observe(\.isPlaybackBufferEmpty, options: [.new]) { [weak self] item, _ in
                guard let self else { return }
                // Show the spinner.
                if item.isPlaybackBufferEmpty { self.bufferingState = .delayed }
                self.delegate?.videoPlayerController(
                    self, didChangeBufferFlag: "isPlaybackBufferEmpty",
                    value: item.isPlaybackBufferEmpty)
            },
            item.observe(\.isPlaybackLikelyToKeepUp, options: [.new]) { [weak self] item, _ in
                guard let self else { return }
                // Hide the spinner.
                if item.isPlaybackLikelyToKeepUp { self.bufferingState = .ready }
                self.delegate?.videoPlayerController(
                    self, didChangeBufferFlag: "isPlaybackLikelyToKeepUp",
                    value: item.isPlaybackLikelyToKeepUp)
            },
            item.observe(\.isPlaybackBufferFull, options: [.new]) { [weak self] item, _ in
                guard let self else { return }
                self.delegate?.videoPlayerController(
                    self, didChangeBufferFlag: "isPlaybackBufferFull",
                    value: item.isPlaybackBufferFull)
            },
            item.observe(\.loadedTimeRanges, options: [.new]) { [weak self] item, _ in
                self?.loadedTimeRangesDidChange(item)
            },
        ]

        let center = NotificationCenter.default
        notificationTokens = [
            center.addObserver(
                forName: .AVPlayerItemDidPlayToEndTime, object: item, queue: .main
            ) { [weak self] _ in
                MainActor.assumeIsolated { self?.playerItemDidPlayToEndTime() }
            },
            center.addObserver(
                forName: .AVPlayerItemFailedToPlayToEndTime, object: item, queue: .main
            ) { [weak self] notification in
                let error =
                    notification.userInfo?[AVPlayerItemFailedToPlayToEndTimeErrorKey] as? NSError
                MainActor.assumeIsolated { self?.playerItemFailedToPlayToEndTime(error) }
            },
            center.addObserver(
                forName: .AVPlayerItemPlaybackStalled, object: item, queue: .main
            ) { [weak self] _ in
                MainActor.assumeIsolated { self?.playerItemPlaybackStalled() }
            },
        ]
    }

    private func removeItemObservers() {
        for observation in itemObservations { observation.invalidate() }
        itemObservations = []
        for token in notificationTokens { NotificationCenter.default.removeObserver(token) }
        notificationTokens = []
        if let boundaryObserverToken {
            player.removeTimeObserver(boundaryObserverToken)
            self.boundaryObserverToken = nil
        }
        boundaryTimes = []
    }

    /// Adds the once-a-second observer that drives the slider, or removes it.
    private func setupPlayerPeriodicTimeObserver(_ isValid: Bool) {
        if isValid && timeObserverToken == nil {
            timeObserverToken = player.addPeriodicTimeObserver(
                forInterval: CMTime(value: 1, timescale: 1), queue: .main
            ) { [weak self] time in
                MainActor.assumeIsolated {
                    guard let self else { return }
                    self.delegate?.videoPlayerController(
                        self, didUpdateCurrentTime: time, duration: self.duration)
                }
            }
        } else if !isValid, let timeObserverToken {
            player.removeTimeObserver(timeObserverToken)
            self.timeObserverToken = nil
        }
    }

    /// Adds a boundary observer at 25 %, 50 % and 75 % of `duration`.
    private func setupBoundaryTimeObserver(duration: CMTime) {
        guard boundaryObserverToken == nil else { return }
        let quarter = CMTimeMultiplyByFloat64(duration, multiplier: 0.25)
        var times: [CMTime] = []
        var time = quarter
        while time < duration {
            times.append(time)
            time = time + quarter
        }
        boundaryTimes = times
        boundaryObserverToken = player.addBoundaryTimeObserver(
            forTimes: times.map { NSValue(time: $0) }, queue: .main
        ) { [weak self] in
            // The block does not say which time was crossed: work it out from the current time.
            MainActor.assumeIsolated { self?.boundaryTimeCrossed() }
        }
    }

    // MARK: - Observer callbacks

    private func itemStatusDidChange(_ item: AVPlayerItem, to status: AVPlayerItem.Status) {
        delegate?.videoPlayerController(self, didChangeItemStatus: status)
        switch status {
        case .readyToPlay:
            // Only now may the item seek.
            if isAutoPlay { play() }
            if let seekTime = requestSeek {
                requestSeek = nil
                seek(toTime: seekTime)
            }
            delegate?.videoPlayerControllerReadyToPlay(self)
        case .failed:
            fail(with: item.error)
        case .unknown:
            break
        @unknown default:
            break
        }
    }

    private func durationDidChange(_ duration: CMTime) {
        let hasValidDuration = duration.isNumeric && duration.value != 0
        let seconds = hasValidDuration ? duration.seconds : 0
        delegate?.videoPlayerController(self, didUpdateDuration: seconds, isValid: hasValidDuration)
        if hasValidDuration { setupBoundaryTimeObserver(duration: duration) }
    }

    private func loadedTimeRangesDidChange(_ item: AVPlayerItem) {
        let duration = item.duration
        guard let timeRange = item.loadedTimeRanges.first?.timeRangeValue,
            duration.isNumeric, duration.value != 0
        else { return }
        let startSeconds = CMTimeGetSeconds(timeRange.start)
        let durationSeconds = CMTimeGetSeconds(timeRange.duration)
        let totalBuffer = startSeconds + durationSeconds
        let totalSeconds = CMTimeGetSeconds(duration)
        let progress = Float(totalBuffer / totalSeconds)
        delegate?.videoPlayerController(self, didUpdateBufferProgress: min(1, progress))
        // The buffer fell behind the playhead: show the spinner until it catches up.
        if totalBuffer <= CMTimeGetSeconds(currentTime) && totalBuffer < totalSeconds {
            bufferingState = .delayed
        }
    }

    private func boundaryTimeCrossed() {
        let now = currentTime
        guard let index = boundaryTimes.lastIndex(where: { $0 <= now }) else { return }
        delegate?.videoPlayerController(self, didReachPercentage: (index + 1) * 25, at: now)
    }

    private func playerItemDidPlayToEndTime() {
        stop()
        delegate?.videoPlayerController(self, didCompletedPlayToEndWithError: nil)
    }

    private func playerItemFailedToPlayToEndTime(_ error: NSError?) {
        playbackState = .failed
        delegate?.videoPlayerController(self, didCompletedPlayToEndWithError: error)
    }

    private func playerItemPlaybackStalled() {
        bufferingState = .delayed
        delegate?.videoPlayerControllerPlaybackStalled(self)
    }

    private func fail(with error: Error?) {
        playbackState = .failed
        delegate?.videoPlayerController(self, didCompletedPlayToEndWithError: error)
    }

    // MARK: - Playback

    /// Starts or resumes playback.
    func play() {
        player.play()
        playbackState = .playing
    }

    /// Pauses playback.
    func pause() {
        player.pause()
        playbackState = .paused
    }

    /// Stops playback and rewinds to the start.
    func stop() {
        player.pause()
        player.seek(to: .zero, toleranceBefore: .zero, toleranceAfter: .zero)
        playbackState = .stopped
    }

    /// Moves to `time` exactly. Before the item is ready the seek waits until it is.
    func seek(
        toTime time: CMTime, toleranceBefore: CMTime = .zero, toleranceAfter: CMTime = .zero,
        completionHandler: (@MainActor (Bool) -> Void)? = nil
    ) {
        guard let playerItem, playerItem.status == .readyToPlay else {
            requestSeek = time
            return
        }
        player.seek(to: time, toleranceBefore: toleranceBefore, toleranceAfter: toleranceAfter) {
            [weak self] finished in
            DispatchQueue.main.async {
                guard let self else { return }
                completionHandler?(finished)
                self.delegate?.videoPlayerController(self, didSeekToTime: time, finished: finished)
            }
        }
    }

    /// Tears everything down: observers, notifications, the item.
    func destroy() {
        player.pause()
        for observation in playerObservations { observation.invalidate() }
        playerObservations = []
        replacePlayerItem(with: nil)
        asset?.cancelLoading()
        asset = nil
    }
}

extension Int {
    /// "MM:SS", or "HH:MM:SS" from one hour on: the labels under the slider.
    var timeString: String {
        let hours = self / 3600
        let minutes = (self % 3600) / 60
        let seconds = self % 60
        if hours > 0 {
            return String(format: "%02d:%02d:%02d", hours, minutes, seconds)
        }
        return String(format: "%02d:%02d", minutes, seconds)
    }
}

extension CMTime {
    /// The time as a slider label; "--:--" while unknown.
    var timeString: String {
        guard isNumeric else { return "--:--" }
        return Int(seconds).timeString
    }
}
