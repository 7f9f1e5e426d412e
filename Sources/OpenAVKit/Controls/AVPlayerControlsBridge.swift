// Playhead: connects the controls to an AVPlayer: reads the player's state into a
// `PlaybackState` and carries out `PlaybackControlActions` on the player.
//
// Concurrency: confined to the window's event-loop thread. AVPlayer's getters are thread-safe
// and its methods may be called from any thread, so the bridge polls and acts directly.
import Foundation
import OpenAVFoundation

/// The default `PlaybackControlActions`: playback goes to the player, fullscreen and close to
/// the window.
final class AVPlayerControlsBridge: PlaybackControlActions {
    let player: AVPlayer
    /// Window-level actions, set by the window.
    var fullscreenHandler: (Bool) -> Void = { _ in }
    var closeHandler: () -> Void = {}
    /// Host-app events (seeks, buttons) and the explicit end-of-item mark.
    var events: PlayerWindowEvents?

    /// Per-item facts read once the item is ready.
    private var describedItem: ObjectIdentifier?
    private var title = ""
    private var frameDuration: Double?

    init(player: AVPlayer) { self.player = player }

    // MARK: - Player state

    /// The player's state now.
    func snapshot(isFullscreen: Bool) -> PlaybackState {
        var state = PlaybackState(isFullscreen: isFullscreen)
        state.volume = player.volume
        state.isMuted = player.isMuted
        state.audioDelay = player.audioDelay
        let rate = player.rate
        state.speed = rate == 0 ? player.defaultRate : rate
        state.isPlaying = rate != 0
        state.isWaiting = player.timeControlStatus == .waitingToPlayAtSpecifiedRate
        guard let item = player.currentItem else { return state }
        describe(item)
        state.title = title
        state.frameDuration = frameDuration
        switch (player.status, item.status) {
        case (.failed, _):
            state.phase = .failed(Self.reason(player.error) ?? "the player failed")
        case (_, .failed):
            state.phase = .failed(Self.reason(item.error) ?? "the item cannot be played")
        case (_, .readyToPlay):
            state.phase = .ready
        default:
            state.phase = .loading
        }
        state.currentTime = max(0, player.currentTime().seconds)
        let duration = item.duration
        if duration.isNumeric, duration.seconds > 0 { state.duration = duration.seconds }
        state.loadedRanges = item.loadedTimeRanges.compactMap { value in
            let range = value.timeRangeValue
            guard range.start.isNumeric, range.end.isNumeric, range.end > range.start else { return nil }
            return range.start.seconds...range.end.seconds
        }
        // Set from the item's end notification, not guessed from the position.
        state.isAtEnd = state.phase == .ready && events?.isAtEnd(item: item, currentTime: state.currentTime) == true
        return state
    }

    /// The title of `item`: its metadata title once loaded, else its file name.
    static func title(of item: AVPlayerItem) -> String {
        if item.status == .readyToPlay,
            let title = item.asset.commonMetadata.first(where: { $0.commonKey == .commonKeyTitle })?
                .stringValue, !title.isEmpty
        {
            return title
        }
        if let url = (item.asset as? AVURLAsset)?.url {
            if url == AVURLAsset.builtInDemoURL { return AVURLAsset.builtInDemoTitle }
            return url.isFileURL ? url.lastPathComponent : url.absoluteString
        }
        return "Playhead"
    }

    private func describe(_ item: AVPlayerItem) {
        let identity = ObjectIdentifier(item)
        guard describedItem != identity else { return }
        title = Self.title(of: item)
        frameDuration = nil
        guard item.status == .readyToPlay else { return }
        // Ready: the asset is loaded, so these reads do not block.
        describedItem = identity
        if let rate = item.asset.tracks(withMediaType: .video).first?.nominalFrameRate, rate > 0 {
            frameDuration = 1 / Double(rate)
        }
    }

    private static func reason(_ error: (any Error)?) -> String? {
        guard let error else { return nil }
        return (error as NSError).localizedDescription
    }

    // MARK: - Actions

    func play() {
        events?.clearEnd()
        player.play()
    }

    func pause() { player.pause() }

    func seek(to seconds: Double, exact: Bool) {
        let time = CMTime(seconds: max(0, seconds), preferredTimescale: 90_000)
        events?.clearEnd()
        let events = self.events
        let done: @Sendable (Bool) -> Void = { finished in events?.note(.seekFinished(time, finished: finished)) }
        if exact {
            player.seek(to: time, toleranceBefore: .zero, toleranceAfter: .zero, completionHandler: done)
        } else {
            player.seek(to: time, completionHandler: done)
        }
    }

    func setVolume(_ volume: Float) { player.volume = volume }

    func setMuted(_ muted: Bool) { player.isMuted = muted }

    func setAudioDelay(_ seconds: Double) { player.audioDelay = seconds }

    func setSpeed(_ speed: Float) {
        player.defaultRate = speed
        if player.rate != 0 { player.rate = speed }
    }

    func setFullscreen(_ fullscreen: Bool) { fullscreenHandler(fullscreen) }

    func close() {
        events?.note(.closeRequested)
        closeHandler()
    }

    func showPlaylist() { events?.note(.playlistRequested) }
}
