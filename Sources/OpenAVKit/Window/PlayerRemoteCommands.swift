// Playhead: the desktop's transport commands (media keys, GNOME's and KDE's media controls,
// playerctl) carried out on a player: play, pause, toggle, jump to a position, skip 10 s and
// change the speed along the window's ladder. Used by the player window's own now-playing
// session and by `playhead play`.
//
// Concurrency: main actor only; command handlers run on the main queue.
import Foundation
import OpenAVFoundation
import OpenMediaPlayer

/// Registers a player's transport commands with a command center.
@MainActor
package enum PlayerRemoteCommands {
    /// The skip interval offered, in seconds (MPRIS Seek names its own offset; this is what an
    /// app on Apple platforms would show).
    package static let skipInterval = 10.0
    /// The rates offered (MPRIS MinimumRate and MaximumRate are their ends): the window's key
    /// ladder, scanning speeds included.
    package static let rates: [Double] = SpeedLadder.keys.map(Double.init)

    /// Registers play, pause, toggle, position, skip and rate handlers on `center` that act on
    /// `player` (held weakly); `rateChanged` runs after a rate change (the now-playing info
    /// shows the new default rate). Returns each command with its target, for `removeTarget`.
    package static func register(
        on center: MPRemoteCommandCenter, player: AVPlayer,
        rateChanged: @escaping @MainActor () -> Void = {}
    ) -> [(MPRemoteCommand, Any)] {
        center.skipForwardCommand.preferredIntervals = [NSNumber(value: skipInterval)]
        center.skipBackwardCommand.preferredIntervals = [NSNumber(value: skipInterval)]
        center.changePlaybackRateCommand.supportedPlaybackRates = rates.map { NSNumber(value: $0) }
        var targets: [(MPRemoteCommand, Any)] = []
        func handle(
            _ command: MPRemoteCommand,
            _ body:
                @escaping @MainActor (AVPlayer, MPRemoteCommandEvent) ->
                MPRemoteCommandHandlerStatus
        ) {
            let target = command.addTarget { [weak player] event in
                MainActor.assumeIsolated {
                    guard let player else { return .noActionableNowPlayingItem }
                    return body(player, event)
                }
            }
            targets.append((command, target))
        }
        handle(center.playCommand) { player, _ in
            player.play()
            return .success
        }
        handle(center.pauseCommand) { player, _ in
            player.pause()
            return .success
        }
        handle(center.togglePlayPauseCommand) { player, _ in
            if player.rate == 0 { player.play() } else { player.pause() }
            return .success
        }
        handle(center.changePlaybackPositionCommand) { player, event in
            guard let event = event as? MPChangePlaybackPositionCommandEvent else {
                return .commandFailed
            }
            return seek(player, to: event.positionTime)
        }
        handle(center.skipForwardCommand) { player, event in
            seek(
                player,
                to: player.currentTime().seconds
                    + ((event as? MPSkipIntervalCommandEvent)?.interval ?? 0))
        }
        handle(center.skipBackwardCommand) { player, event in
            seek(
                player,
                to: player.currentTime().seconds
                    - ((event as? MPSkipIntervalCommandEvent)?.interval ?? 0))
        }
        handle(center.changePlaybackRateCommand) { player, event in
            guard let rate = (event as? MPChangePlaybackRateCommandEvent)?.playbackRate,
                (SpeedLadder.keys[0]...SpeedLadder.keys[SpeedLadder.keys.count - 1]).contains(rate)
            else {
                return .commandFailed
            }
            player.defaultRate = rate
            if player.rate != 0 { player.rate = rate }
            rateChanged()
            return .success
        }
        return targets
    }

    /// Seeks the current item exactly to `seconds` (within its length); the new position is
    /// published when the seek lands (the item's time jump).
    package static func seek(_ player: AVPlayer, to seconds: Double) -> MPRemoteCommandHandlerStatus
    {
        guard let item = player.currentItem else { return .noActionableNowPlayingItem }
        var target = max(0, seconds)
        if item.duration.isNumeric { target = min(target, item.duration.seconds) }
        player.seek(
            to: CMTime(seconds: target, preferredTimescale: 1_000_000), toleranceBefore: .zero,
            toleranceAfter: .zero)
        return .success
    }
}
