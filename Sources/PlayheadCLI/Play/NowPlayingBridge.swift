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
    /// Keeps the default now-playing center current from the player.
    private let publisher: PlayerNowPlayingPublisher
    /// Counts the items played so far: the current one's queue index for the desktop.
    private var itemsStarted = 0

    init(player: AVQueuePlayer, onStop: @escaping () -> Void) {
        self.player = player
        self.onStop = onStop
        publisher = PlayerNowPlayingPublisher(player: player, center: .default())
    }

    /// Registers the command handlers and starts following the player.
    func start() {
        let center = MPRemoteCommandCenter.shared()
        targets = PlayerRemoteCommands.register(on: center, player: player) { [weak self] in self?.publish() }
        handle(center.stopCommand) { bridge, _ in bridge.onStop(); return .success }
        handle(center.nextTrackCommand) { bridge, _ in
            guard bridge.player.items().count > 1 else { return .noSuchContent }
            bridge.player.advanceToNextItem()
            return .success
        }
        // The queue does not keep played items: previous starts the current item again.
        handle(center.previousTrackCommand) { bridge, _ in PlayerRemoteCommands.seek(bridge.player, to: 0) }
        publisher.extraInfo = { [weak self] _ in
            [MPNowPlayingInfoPropertyPlaybackQueueIndex: max(0, (self?.itemsStarted ?? 1) - 1)]
        }
        publisher.onItemChange = { [weak self] item in
            if item != nil { self?.itemsStarted += 1 }
        }
        publisher.willPublish = { [weak self] in
            guard let self else { return }
            MPRemoteCommandCenter.shared().nextTrackCommand.isEnabled = self.player.items().count > 1
        }
        publisher.start()
    }

    /// Unregisters the handlers and clears what the desktop shows.
    func stop() {
        for (command, target) in targets { command.removeTarget(target) }
        targets = []
        publisher.stop()
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

    /// Hands the desktop the current item, position, rate and state.
    func publish() { publisher.publish() }
}
