// Playhead: a client written the way open-source player-controls layers are (a scrub bar that
// chases the finger with exact seeks as Apple's QA1820 shows, scrub-preview thumbnails from
// AVAssetImageGenerator, quartile analytics from boundary time observers, an HLS quality menu
// built from the asset's variants and capped through preferredPeakBitRate when the access log
// shows the network falling behind, audio and subtitle menus from media selection groups),
// ported as docs/porting.md says: only the import changes. Type-checked in the Swift 5 and
// Swift 6 language modes by scripts/check-ported-clients.sh.
#if os(Linux)
    import OpenAVFoundation
#else
    import AVFoundation
#endif

/// Scrub-bar thumbnails, generated once per asset and read from any thread.
final class ScrubThumbnails: @unchecked Sendable {
    let step: Double
    private let generator: AVAssetImageGenerator
    private let lock = NSLock()
    private var images: [Int: CGImage] = [:]

    init(asset: AVAsset, step: Double = 10) {
        self.step = step
        generator = AVAssetImageGenerator(asset: asset)
        generator.appliesPreferredTrackTransform = true
        generator.apertureMode = .encodedPixels
        generator.maximumSize = CGSize(width: 240, height: 0)
        generator.requestedTimeToleranceBefore = CMTime(seconds: 1, preferredTimescale: 600)
        generator.requestedTimeToleranceAfter = CMTime(seconds: 1, preferredTimescale: 600)
    }

    /// Fills the strip; `ready` gets each slot's index on the main queue.
    func generate(duration: CMTime, ready: @escaping @Sendable (Int) -> Void) {
        let count = Int(duration.seconds / step)
        guard count > 0 else { return }
        let times = (0..<count).map { NSValue(time: CMTime(seconds: Double($0) * step, preferredTimescale: 600)) }
        generator.generateCGImagesAsynchronously(forTimes: times) { [weak self] requested, image, _, result, error in
            switch result {
            case .succeeded:
                guard let self, let image else { return }
                let slot = Int((requested.seconds / self.step).rounded())
                self.lock.lock()
                self.images[slot] = image
                self.lock.unlock()
                DispatchQueue.main.async { ready(slot) }
            case .failed: print("no thumbnail at \(requested.seconds) s: \(String(describing: error))")
            case .cancelled: break
            @unknown default: break
            }
        }
    }

    func thumbnail(near seconds: Double) -> CGImage? {
        lock.lock()
        defer { lock.unlock() }
        return images[Int((seconds / step).rounded(.down))]
    }

    /// The exact frame under the finger once scrubbing stops, larger than a thumbnail.
    func exactFrame(at time: CMTime) async throws -> CGImage {
        let exact = AVAssetImageGenerator(asset: generator.asset)
        exact.appliesPreferredTrackTransform = true
        exact.requestedTimeToleranceBefore = .zero
        exact.requestedTimeToleranceAfter = .zero
        return try await exact.image(at: time).image
    }

    func cancel() { generator.cancelAllCGImageGeneration() }
}

/// The controls layer's model: one player, its time, quality and language menus.
@MainActor
final class PlayerControlsModel {
    let player: AVPlayer
    var onQuartile: ((Int) -> Void)?
    private(set) var elapsed: Double = 0
    private(set) var bufferedUntil: Double = 0
    private(set) var qualityLabels: [String] = []
    private(set) var indicatedBitrate: Double = 0
    private(set) var didEnd = false
    private(set) var failure: String?
    private(set) var thumbnails: ScrubThumbnails?
    private var periodicToken: Any?
    private var boundaryToken: Any?
    private var notificationTokens: [NSObjectProtocol] = []
    private var isSeekInProgress = false
    private var chaseTime = CMTime.zero

    init(url: URL) {
        let item = AVPlayerItem(url: url)
        item.preferredPeakBitRateForExpensiveNetworks = 2_000_000
        item.preferredMaximumResolution = CGSize(width: 1920, height: 1080)
        item.startsOnFirstEligibleVariant = true
        item.canUseNetworkResourcesForLiveStreamingWhilePaused = false
        player = AVPlayer(playerItem: item)
        periodicToken = player.addPeriodicTimeObserver(forInterval: CMTime(value: 1, timescale: 4), queue: .main) { [weak self] time in
            MainActor.assumeIsolated {
                guard let self, !self.isSeekInProgress else { return }
                self.elapsed = time.seconds
                let ranges = self.player.currentItem?.loadedTimeRanges.map(\.timeRangeValue) ?? []
                self.bufferedUntil = ranges.last.map { CMTimeRangeGetEnd($0).seconds } ?? 0
            }
        }
        let center = NotificationCenter.default
        notificationTokens = [
            center.addObserver(forName: AVPlayerItem.didPlayToEndTimeNotification, object: item, queue: .main) { [weak self] _ in
                MainActor.assumeIsolated { self?.didEnd = true }
            },
            center.addObserver(forName: AVPlayerItem.failedToPlayToEndTimeNotification, object: item, queue: .main) { [weak self] note in
                let message = (note.userInfo?[AVPlayerItemFailedToPlayToEndTimeErrorKey] as? Error)?.localizedDescription
                MainActor.assumeIsolated { self?.failure = message ?? "playback failed" }
            },
            center.addObserver(forName: AVPlayerItem.newAccessLogEntryNotification, object: item, queue: .main) { [weak self] _ in
                MainActor.assumeIsolated { self?.accessLogDidChange() }
            },
        ]
    }

    /// Once the asset is known: analytics quartiles, the quality menu and the thumbnails.
    func prepare() async throws {
        guard let item = player.currentItem else { return }
        let (duration, isPlayable) = try await item.asset.load(.duration, .isPlayable)
        guard isPlayable else { return }
        if let asset = item.asset as? AVURLAsset {
            qualityLabels = try await asset.load(.variants).compactMap { variant -> String? in
                guard let size = variant.videoAttributes?.presentationSize, let peak = variant.peakBitRate else { return nil }
                return "\(Int(size.height))p · \(Int(peak / 1000)) kbit/s"
            }
        }
        guard duration.isNumeric else { return }  // live: no quartiles, no thumbnails
        let quartiles = (1...3).map { NSValue(time: CMTimeMultiplyByRatio(duration, multiplier: Int32($0), divisor: 4)) }
        boundaryToken = player.addBoundaryTimeObserver(forTimes: quartiles, queue: .main) { [weak self] in
            MainActor.assumeIsolated {
                guard let self else { return }
                self.onQuartile?(Int((self.player.currentTime().seconds / duration.seconds * 4).rounded()))
            }
        }
        let strip = ScrubThumbnails(asset: item.asset)
        strip.generate(duration: duration) { slot in print("thumbnail \(slot) ready") }
        thumbnails = strip
    }

    // MARK: Scrubbing (QA1820: one seek in flight, chase the latest position)

    func scrub(to seconds: Double) {
        let target = CMTime(seconds: seconds, preferredTimescale: 600)
        guard CMTimeCompare(target, chaseTime) != 0 else { return }
        chaseTime = target
        if !isSeekInProgress { seekToChaseTime() }
    }

    private func seekToChaseTime() {
        guard player.currentItem?.status == .readyToPlay else { return }
        isSeekInProgress = true
        let target = chaseTime
        player.seek(to: target, toleranceBefore: .zero, toleranceAfter: .zero) { [weak self] _ in
            DispatchQueue.main.async {
                guard let self else { return }
                if CMTimeCompare(target, self.chaseTime) == 0 {
                    self.isSeekInProgress = false
                    self.elapsed = target.seconds
                } else {
                    self.seekToChaseTime()
                }
            }
        }
    }

    // MARK: Quality

    private func accessLogDidChange() {
        guard let item = player.currentItem, let event = item.accessLog()?.events.last else { return }
        indicatedBitrate = event.indicatedBitrate
        // The network fell behind: cap the ladder below what it delivers, as adaptive wrappers do.
        if event.numberOfStalls > 0 || (event.observedBitrate > 0 && event.observedBitrate < event.indicatedBitrate) {
            item.preferredPeakBitRate = event.observedBitrate * 0.8
        }
        print("switch \(event.switchBitrate), dropped \(event.numberOfDroppedVideoFrames), startup \(event.startupTime) s")
    }

    // MARK: Languages

    /// A menu's options: playable ones in the user's languages first, forced-only subtitles hidden.
    func menu(for characteristic: AVMediaCharacteristic) async -> [AVMediaSelectionOption] {
        guard let item = player.currentItem,
            let group = try? await item.asset.loadMediaSelectionGroup(for: characteristic)
        else { return [] }
        let playable = AVMediaSelectionGroup.playableMediaSelectionOptions(from: group.options)
        let shown = AVMediaSelectionGroup.mediaSelectionOptions(
            from: playable, withoutMediaCharacteristics: [.containsOnlyForcedSubtitles])
        let preferred = AVMediaSelectionGroup.mediaSelectionOptions(
            from: shown, filteredAndSortedAccordingToPreferredLanguages: Locale.preferredLanguages)
        return preferred + shown.filter { !preferred.contains($0) }
    }

    func choose(_ option: AVMediaSelectionOption?, for characteristic: AVMediaCharacteristic) async {
        guard let item = player.currentItem,
            let group = try? await item.asset.loadMediaSelectionGroup(for: characteristic)
        else { return }
        item.select(option ?? (group.allowsEmptySelection ? nil : group.defaultOption), in: group)
        let current = item.currentMediaSelection.selectedMediaOption(in: group)
        print("\(characteristic.rawValue): \(current?.displayName(with: Locale.current) ?? "off")")
    }

    func tearDown() {
        for token in [periodicToken, boundaryToken].compactMap({ $0 }) { player.removeTimeObserver(token) }
        (periodicToken, boundaryToken) = (nil, nil)
        notificationTokens.forEach(NotificationCenter.default.removeObserver)
        notificationTokens.removeAll()
        thumbnails?.cancel()
        player.pause()
        player.replaceCurrentItem(with: nil)
    }
}
