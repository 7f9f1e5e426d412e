// Playhead: keeps a now-playing center current from one player: what its current item is
// (its metadata, or the keys the app put on `AVPlayerItem.nowPlayingInfo`), where it stands,
// how fast it plays and whether it plays. What an `MPNowPlayingSession` publishes
// automatically, and what `playhead play` shows the desktop.
//
// Concurrency: main actor only. The player's observations and notifications arrive on the main
// queue; the center hands what it is given to the MPRIS server without waiting on it.
import Foundation
import OpenAVFoundation

/// Publishes one player's current item, position, rate and state to a now-playing center
/// until stopped.
@MainActor
package final class PlayerNowPlayingPublisher {
    /// The player followed.
    package let player: AVPlayer
    /// Where the info goes.
    package let center: MPNowPlayingInfoCenter
    /// Keys added to every publication (a queue's index), after the item's own.
    package var extraInfo: (AVPlayerItem) -> [String: Any] = { _ in [:] }
    /// Runs when the current item changes, before it is published.
    package var onItemChange: (AVPlayerItem?) -> Void = { _ in }
    /// Runs before each publication.
    package var willPublish: () -> Void = {}
    private var observations: [NSKeyValueObservation] = []
    private var itemObservation: NSKeyValueObservation?
    private var notifications: [NSObjectProtocol] = []
    /// Title, artist, album and art read from the current item's asset, once it is ready.
    private var described: (item: AVPlayerItem, info: [String: Any])?
    private var isRunning = false

    /// A publisher of `player` to `center`; nothing happens until ``start()``.
    package init(player: AVPlayer, center: MPNowPlayingInfoCenter) {
        self.player = player
        self.center = center
    }

    /// Starts following the player and publishes at once.
    package func start() {
        guard !isRunning else { return }
        isRunning = true
        observations = [
            player.observe(\.timeControlStatus) { [weak self] _, _ in
                MainActor.assumeIsolated { self?.publish() }
            },
            player.observe(\.rate) { [weak self] _, _ in
                MainActor.assumeIsolated { self?.publish() }
            },
            player.observe(\.currentItem) { [weak self] _, _ in
                MainActor.assumeIsolated { self?.itemChanged() }
            },
        ]
        notifications = [
            NotificationCenter.default.addObserver(
                forName: AVPlayerItem.timeJumpedNotification, object: nil, queue: .main
            ) {
                [weak self] note in
                let item = (note.object as AnyObject?).map(ObjectIdentifier.init)
                MainActor.assumeIsolated {
                    guard let self, let current = self.player.currentItem,
                        item == ObjectIdentifier(current)
                    else { return }
                    self.publish()
                }
            }
        ]
        itemChanged()
    }

    /// Stops following the player; what was published stays until the center is changed.
    package func stop() {
        isRunning = false
        observations.forEach { $0.invalidate() }
        observations = []
        itemObservation?.invalidate()
        itemObservation = nil
        notifications.forEach { NotificationCenter.default.removeObserver($0) }
        notifications = []
    }

    /// A new current item: follow its readiness (its metadata loads with it).
    private func itemChanged() {
        if described?.item !== player.currentItem { described = nil }
        itemObservation?.invalidate()
        itemObservation = player.currentItem?.observe(\.status) { [weak self] _, _ in
            MainActor.assumeIsolated { self?.publish() }
        }
        onItemChange(player.currentItem)
        publish()
    }

    /// Hands the center the current item, position, rate and state (nothing and stopped
    /// without an item).
    package func publish() {
        guard isRunning else { return }
        willPublish()
        guard let item = player.currentItem else {
            center.nowPlayingInfo = nil
            center.playbackState = .stopped
            return
        }
        var info = describe(item)
        // The app's own keys win over what the asset says; the position and rate are the
        // player's.
        info.merge(item.nowPlayingInfo ?? [:]) { _, app in app }
        info.merge(extraInfo(item)) { _, extra in extra }
        if item.duration.isNumeric {
            info[MPMediaItemPropertyPlaybackDuration] = item.duration.seconds
        } else if item.duration.isIndefinite, item.status == .readyToPlay {
            info[MPNowPlayingInfoPropertyIsLiveStream] = true
        }
        info[MPNowPlayingInfoPropertyElapsedPlaybackTime] = max(0, player.currentTime().seconds)
        info[MPNowPlayingInfoPropertyPlaybackRate] = Double(
            player.timeControlStatus == .playing ? player.rate : 0)
        info[MPNowPlayingInfoPropertyDefaultPlaybackRate] = Double(player.defaultRate)
        center.nowPlayingInfo = info
        center.playbackState = player.rate == 0 ? .paused : .playing
    }

    /// The item's title (its file name without one), artist, album, cover art and URL; read
    /// once the item is ready, when the asset's metadata is loaded and reading it does not
    /// block.
    private func describe(_ item: AVPlayerItem) -> [String: Any] {
        if let described, described.item === item { return described.info }
        var info: [String: Any] = [MPMediaItemPropertyTitle: Self.fallbackTitle(item)]
        guard item.status == .readyToPlay else { return info }
        let metadata = item.asset.commonMetadata
        func first(_ identifier: AVMetadataIdentifier) -> AVMetadataItem? {
            AVMetadataItem.metadataItems(from: metadata, filteredByIdentifier: identifier).first
        }
        if let title = first(.commonIdentifierTitle)?.stringValue, !title.isEmpty {
            info[MPMediaItemPropertyTitle] = title
        }
        if let artist = first(.commonIdentifierArtist)?.stringValue, !artist.isEmpty {
            info[MPMediaItemPropertyArtist] = artist
        }
        if let album = first(.commonIdentifierAlbumName)?.stringValue, !album.isEmpty {
            info[MPMediaItemPropertyAlbumTitle] = album
        }
        if let picture = first(.commonIdentifierArtwork)?.dataValue, !picture.isEmpty {
            // Written to the cache folder by the MPRIS thread when the desktop first needs it.
            info[MPMediaItemPropertyArtwork] = MPMediaItemArtwork(imageData: picture)
        }
        if let url = (item.asset as? AVURLAsset)?.url {
            info[MPNowPlayingInfoPropertyAssetURL] = url
        }
        described = (item, info)
        return info
    }

    private static func fallbackTitle(_ item: AVPlayerItem) -> String {
        guard let url = (item.asset as? AVURLAsset)?.url else { return "Playhead" }
        if url.scheme == "playhead-demo" { return "Playhead demo" }
        return url.isFileURL ? url.lastPathComponent : url.absoluteString
    }
}
