// Playhead: `playhead play` as a desktop media player: keeps `MPNowPlayingInfoCenter` current
// from the queue player and carries out the desktop's `MPRemoteCommandCenter` commands (media
// keys, GNOME/KDE media controls, playerctl) on it, as an iOS player app would.
//
// Concurrency: main actor only. The player's observations, notifications and the command
// handlers all arrive on the main queue; the centers hand their state to the MPRIS server's own
// thread without waiting on it.
import Foundation
import OpenAVFoundation
import OpenAVKit
import OpenMediaPlayer

/// Wires one queue player to the process's now-playing and remote command centers.
@MainActor
final class NowPlayingBridge {
    private let player: AVQueuePlayer
    /// Runs when the desktop asks to stop (the session ends the current item as stopped).
    private let onStop: () -> Void
    private var targets: [(MPRemoteCommand, Any)] = []
    private var observations: [NSKeyValueObservation] = []
    private var itemObservation: NSKeyValueObservation?
    private var notifications: [NSObjectProtocol] = []
    /// Title, artist, album and art of the current item, once it is ready.
    private var described: (item: ObjectIdentifier, info: [String: Any])?
    /// Counts the items played so far: the current one's queue index for the desktop.
    private var itemsStarted = 0

    /// The skip interval offered, in seconds (MPRIS Seek names its own offset; this is what
    /// an app on Apple platforms would show).
    static let skipInterval = 10.0
    /// The rates offered to the desktop (MinimumRate and MaximumRate are their ends): the
    /// window's key ladder, scanning speeds included.
    static let rates: [Double] = SpeedLadder.keys.map(Double.init)

    init(player: AVQueuePlayer, onStop: @escaping () -> Void) {
        self.player = player
        self.onStop = onStop
    }

    /// Registers the command handlers and starts following the player.
    func start() {
        let center = MPRemoteCommandCenter.shared()
        center.skipForwardCommand.preferredIntervals = [NSNumber(value: Self.skipInterval)]
        center.skipBackwardCommand.preferredIntervals = [NSNumber(value: Self.skipInterval)]
        center.changePlaybackRateCommand.supportedPlaybackRates = Self.rates.map { NSNumber(value: $0) }
        handle(center.playCommand) { bridge, _ in bridge.player.play(); return .success }
        handle(center.pauseCommand) { bridge, _ in bridge.player.pause(); return .success }
        handle(center.togglePlayPauseCommand) { bridge, _ in
            if bridge.player.rate == 0 { bridge.player.play() } else { bridge.player.pause() }
            return .success
        }
        handle(center.stopCommand) { bridge, _ in bridge.onStop(); return .success }
        handle(center.nextTrackCommand) { bridge, _ in
            guard bridge.player.items().count > 1 else { return .noSuchContent }
            bridge.player.advanceToNextItem()
            return .success
        }
        // The queue does not keep played items: previous starts the current item again.
        handle(center.previousTrackCommand) { bridge, _ in bridge.seek(to: 0) }
        handle(center.changePlaybackPositionCommand) { bridge, event in
            guard let event = event as? MPChangePlaybackPositionCommandEvent else { return .commandFailed }
            return bridge.seek(to: event.positionTime)
        }
        handle(center.skipForwardCommand) { bridge, event in
            bridge.seek(to: bridge.player.currentTime().seconds + ((event as? MPSkipIntervalCommandEvent)?.interval ?? 0))
        }
        handle(center.skipBackwardCommand) { bridge, event in
            bridge.seek(to: bridge.player.currentTime().seconds - ((event as? MPSkipIntervalCommandEvent)?.interval ?? 0))
        }
        handle(center.changePlaybackRateCommand) { bridge, event in
            guard let rate = (event as? MPChangePlaybackRateCommandEvent)?.playbackRate,
                (SpeedLadder.keys[0]...SpeedLadder.keys[SpeedLadder.keys.count - 1]).contains(Float(rate))
            else {
                return .commandFailed
            }
            bridge.player.defaultRate = rate
            if bridge.player.rate != 0 { bridge.player.rate = rate }
            bridge.publish()
            return .success
        }
        observations = [
            player.observe(\.timeControlStatus) { [weak self] _, _ in MainActor.assumeIsolated { self?.publish() } },
            player.observe(\.rate) { [weak self] _, _ in MainActor.assumeIsolated { self?.publish() } },
            player.observe(\.currentItem) { [weak self] _, _ in MainActor.assumeIsolated { self?.itemChanged() } },
        ]
        notifications = [
            NotificationCenter.default.addObserver(forName: AVPlayerItem.timeJumpedNotification, object: nil, queue: .main) {
                [weak self] note in
                let item = (note.object as AnyObject?).map(ObjectIdentifier.init)
                MainActor.assumeIsolated {
                    guard let self, let current = self.player.currentItem, item == ObjectIdentifier(current) else { return }
                    self.publish()
                }
            }
        ]
        itemChanged()
    }

    /// Unregisters the handlers and clears what the desktop shows.
    func stop() {
        for (command, target) in targets { command.removeTarget(target) }
        targets = []
        observations.forEach { $0.invalidate() }
        observations = []
        itemObservation?.invalidate()
        itemObservation = nil
        notifications.forEach { NotificationCenter.default.removeObserver($0) }
        notifications = []
        MPNowPlayingInfoCenter.default().playbackState = .stopped
        MPNowPlayingInfoCenter.default().nowPlayingInfo = nil
    }

    private func handle(
        _ command: MPRemoteCommand, _ body: @escaping (NowPlayingBridge, MPRemoteCommandEvent) -> MPRemoteCommandHandlerStatus
    ) {
        let target = command.addTarget { [weak self] event in
            MainActor.assumeIsolated {
                guard let self else { return .noActionableNowPlayingItem }
                return body(self, event)
            }
        }
        targets.append((command, target))
    }

    /// Seeks the current item exactly to `seconds` (within its length); the new position is
    /// published when the seek lands.
    private func seek(to seconds: Double) -> MPRemoteCommandHandlerStatus {
        guard let item = player.currentItem else { return .noActionableNowPlayingItem }
        var target = max(0, seconds)
        if item.duration.isNumeric { target = min(target, item.duration.seconds) }
        player.seek(to: CMTime(seconds: target, preferredTimescale: 1_000_000), toleranceBefore: .zero, toleranceAfter: .zero) {
            [weak self] _ in
            DispatchQueue.main.async { MainActor.assumeIsolated { self?.publish() } }
        }
        return .success
    }

    /// A new current item: follow its readiness (its metadata loads with it).
    private func itemChanged() {
        if player.currentItem != nil { itemsStarted += 1 }
        itemObservation?.invalidate()
        itemObservation = player.currentItem?.observe(\.status) { [weak self] _, _ in
            MainActor.assumeIsolated { self?.publish() }
        }
        MPRemoteCommandCenter.shared().nextTrackCommand.isEnabled = player.items().count > 1
        publish()
    }

    /// Hands the desktop the current item, position, rate and state.
    func publish() {
        let center = MPNowPlayingInfoCenter.default()
        guard let item = player.currentItem else {
            center.nowPlayingInfo = nil
            center.playbackState = .stopped
            return
        }
        MPRemoteCommandCenter.shared().nextTrackCommand.isEnabled = player.items().count > 1
        var info = describe(item)
        info[MPNowPlayingInfoPropertyPlaybackQueueIndex] = itemsStarted - 1
        if item.duration.isNumeric { info[MPMediaItemPropertyPlaybackDuration] = item.duration.seconds }
        info[MPNowPlayingInfoPropertyElapsedPlaybackTime] = max(0, player.currentTime().seconds)
        info[MPNowPlayingInfoPropertyPlaybackRate] = Double(player.timeControlStatus == .playing ? player.rate : 0)
        info[MPNowPlayingInfoPropertyDefaultPlaybackRate] = Double(player.defaultRate)
        center.nowPlayingInfo = info
        center.playbackState = player.rate == 0 ? .paused : .playing
    }

    /// The item's title (its file name without one), artist, album and cover art; read once
    /// the item is ready, when the asset's metadata is loaded and reading it does not block.
    private func describe(_ item: AVPlayerItem) -> [String: Any] {
        let identity = ObjectIdentifier(item)
        if let described, described.item == identity { return described.info }
        var info: [String: Any] = [MPMediaItemPropertyTitle: Self.fallbackTitle(item)]
        guard item.status == .readyToPlay else { return info }
        let metadata = item.asset.commonMetadata
        func first(_ identifier: AVMetadataIdentifier) -> AVMetadataItem? {
            AVMetadataItem.metadataItems(from: metadata, filteredByIdentifier: identifier).first
        }
        if let title = first(.commonIdentifierTitle)?.stringValue, !title.isEmpty { info[MPMediaItemPropertyTitle] = title }
        if let artist = first(.commonIdentifierArtist)?.stringValue, !artist.isEmpty { info[MPMediaItemPropertyArtist] = artist }
        if let album = first(.commonIdentifierAlbumName)?.stringValue, !album.isEmpty {
            info[MPMediaItemPropertyAlbumTitle] = album
        }
        if let picture = first(.commonIdentifierArtwork)?.dataValue, !picture.isEmpty {
            // Written to the cache folder by the MPRIS thread when the desktop first needs it.
            info[MPMediaItemPropertyArtwork] = MPMediaItemArtwork(imageData: picture)
        }
        if let url = (item.asset as? AVURLAsset)?.url { info[MPNowPlayingInfoPropertyAssetURL] = url }
        described = (identity, info)
        return info
    }

    private static func fallbackTitle(_ item: AVPlayerItem) -> String {
        guard let url = (item.asset as? AVURLAsset)?.url else { return "Playhead" }
        if url.scheme == "playhead-demo" { return "Playhead demo" }
        return url.isFileURL ? url.lastPathComponent : url.absoluteString
    }
}
