// Playhead: a client written the way open-source AVPlayer wrappers are (an audio player core of
// the kind a React Native library ships, a KVO-driven video player with text tracks), ported
// as docs/porting.md says: only the import changes. It must type-check with no errors in the
// Swift 5 and Swift 6 language modes (scripts/check-ported-clients.sh, run by `make test`).
//
// It imports only OpenAVFoundation and uses Foundation and Dispatch freely (URL, NSObject,
// NotificationCenter, DispatchQueue, TimeInterval, NSError, Locale), extends AVPlayer and
// AVPlayerItem, and calls those extensions from nonisolated classes.
#if os(Linux)
    import OpenAVFoundation
#else
    import AVFoundation
#endif

// MARK: - Extensions on the player classes, as wrappers write them

extension AVPlayer {
    /// True while the player is playing or trying to.
    var isPlaying: Bool { rate != 0 && error == nil }

    /// Seeks by `seconds` from the current time.
    func skip(by seconds: TimeInterval, completion: @escaping @Sendable (Bool) -> Void) {
        let target = CMTimeAdd(currentTime(), CMTime(seconds: seconds, preferredTimescale: 600))
        seek(to: target, toleranceBefore: .zero, toleranceAfter: .zero, completionHandler: completion)
    }
}

extension AVPlayerItem {
    /// The duration in seconds, nil while unknown or live.
    var durationInSeconds: TimeInterval? {
        duration.isNumeric ? CMTimeGetSeconds(duration) : nil
    }

    /// The selected subtitle option's display name, through the deprecated accessor that
    /// older wrappers still call.
    var selectedSubtitleName: String? {
        guard let group = asset.mediaSelectionGroup(forMediaCharacteristic: .legible) else { return nil }
        return selectedMediaOption(in: group)?.displayName
    }
}

// MARK: - A nonisolated wrapper class

enum AudioPlayerState: String {
    case idle, loading, ready, playing, paused, failed
}

protocol AudioPlayerCoreDelegate: AnyObject {
    func audioPlayer(_ core: AudioPlayerCore, didChangeState state: AudioPlayerState)
    func audioPlayer(_ core: AudioPlayerCore, didUpdateTime seconds: TimeInterval)
    func audioPlayer(_ core: AudioPlayerCore, didFail error: NSError)
}

/// The wrapper: a plain (nonisolated) class that owns a player, as such libraries do. Its
/// state is touched on the main queue only, which Swift 6-mode wrappers state this way
/// (Apple's callbacks are `@Sendable` there too).
final class AudioPlayerCore: NSObject, @unchecked Sendable {
    let player = AVPlayer()
    weak var delegate: AudioPlayerCoreDelegate?
    private(set) var state: AudioPlayerState = .idle
    private var observations: [NSKeyValueObservation] = []
    private var timeToken: Any?
    private var notificationTokens: [NSObjectProtocol] = []
    private let queue = DispatchQueue(label: "audio-player-core")
    var bufferDuration: TimeInterval = 0
    var automaticallyWaitsToMinimizeStalling = true

    override init() {
        super.init()
        player.allowsExternalPlayback = false
        player.automaticallyWaitsToMinimizeStalling = automaticallyWaitsToMinimizeStalling
        let token = NotificationCenter.default.addObserver(
            forName: AVPlayer.rateDidChangeNotification, object: player, queue: .main
        ) { [weak self] note in
            let reason = note.userInfo?[AVPlayer.rateDidChangeReasonKey] as? AVPlayer.RateDidChangeReason
            if reason == .setRateFailed { self?.setState(.failed) }
        }
        notificationTokens.append(token)
    }

    func load(from url: URL, playWhenReady: Bool, headers: [String: String] = [:]) {
        setState(.loading)
        let asset = AVURLAsset(url: url, options: ["AVURLAssetHTTPHeaderFieldsKey": headers])
        asset.loadValuesAsynchronously(forKeys: ["playable", "duration"]) { [weak self] in
            var error: NSError?
            let status = asset.statusOfValue(forKey: "playable", error: &error)
            DispatchQueue.main.async {
                guard let self else { return }
                if status == .failed, let error {
                    self.delegate?.audioPlayer(self, didFail: error)
                    self.setState(.failed)
                    return
                }
                let item = AVPlayerItem(asset: asset)
                item.preferredForwardBufferDuration = self.bufferDuration
                self.observe(item)
                self.player.replaceCurrentItem(with: item)
                if playWhenReady { self.player.play() }
            }
        }
    }

    private func observe(_ item: AVPlayerItem) {
        observations = [
            item.observe(\.status, options: [.new]) { [weak self] item, _ in
                guard let self else { return }
                switch item.status {
                case .readyToPlay: self.setState(self.player.isPlaying ? .playing : .ready)
                case .failed: self.setState(.failed)
                default: break
                }
            },
            player.observe(\.timeControlStatus, options: [.new]) { [weak self] player, _ in
                self?.setState(player.timeControlStatus == .playing ? .playing : .paused)
            },
        ]
        let interval = CMTime(seconds: 0.5, preferredTimescale: 1000)
        timeToken = player.addPeriodicTimeObserver(forInterval: interval, queue: .main) { [weak self] time in
            guard let self else { return }
            self.delegate?.audioPlayer(self, didUpdateTime: time.seconds)
        }
    }

    func togglePlaying() {
        if player.isPlaying { player.pause() } else { player.play() }
    }

    func seekForward(completion: @escaping @Sendable (Bool) -> Void) {
        player.skip(by: 15, completion: completion)
    }

    var duration: TimeInterval { player.currentItem?.durationInSeconds ?? 0 }

    var subtitleName: String? { player.currentItem?.selectedSubtitleName }

    /// The languages of the item's audio options, as a track picker lists them.
    var audioLanguages: [String] {
        guard let group = player.currentItem?.asset.mediaSelectionGroup(forMediaCharacteristic: .audible)
        else { return [] }
        return group.options.compactMap { $0.locale.map { Locale.current.localizedString(forIdentifier: $0.identifier) ?? $0.identifier } }
    }

    /// ID3 or iTunes tags of the asset, where the container has them.
    func tags(of asset: AVAsset) -> [AVMetadataItem] {
        asset.availableMetadataFormats.flatMap { asset.metadata(forFormat: $0) }
    }

    var isExternal: Bool { player.isExternalPlaybackActive || player.usesExternalPlaybackWhileExternalScreenIsActive }

    func stop() {
        player.pause()
        if let timeToken { player.removeTimeObserver(timeToken) }
        timeToken = nil
        observations.removeAll()
        player.replaceCurrentItem(with: nil)
        setState(.idle)
    }

    private func setState(_ new: AudioPlayerState) {
        guard new != state else { return }
        state = new
        delegate?.audioPlayer(self, didChangeState: new)
    }

    deinit {
        notificationTokens.forEach(NotificationCenter.default.removeObserver)
    }
}

/// A second nonisolated user: a queue manager that reads the extensions from a background queue.
final class QueueManager {
    private let core: AudioPlayerCore
    private var urls: [URL] = []
    private let work = DispatchQueue(label: "queue-manager")

    init(core: AudioPlayerCore) { self.core = core }

    func add(_ paths: [String]) {
        urls += paths.map { URL(fileURLWithPath: $0) }
    }

    func report(done: @escaping @Sendable (String) -> Void) {
        let playing = core.player.isPlaying
        let duration = core.duration
        work.async {
            done("playing: \(playing), duration: \(String(format: "%.1f", duration)) s")
        }
    }

    func next() {
        guard !urls.isEmpty else { return core.stop() }
        core.load(from: urls.removeFirst(), playWhenReady: true)
    }
}
