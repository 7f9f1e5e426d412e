// Playhead: an iOS player's lock-screen and headphone-button wiring (MPRemoteCommandCenter and
// MPNowPlayingInfoCenter), ported as docs/desktop.md shows: only the imports and the artwork
// change. It must type-check with no errors in the Swift 5 and Swift 6 language modes
// (scripts/check-ported-clients.sh, run by `make test`).
#if os(Linux)
    import OpenAVFoundation
    import OpenMediaPlayer
#else
    import AVFoundation
    import MediaPlayer
#endif

/// Keeps the system's now-playing information and remote commands in step with a queue player.
@MainActor
final class NowPlayingCoordinator {
    let player: AVQueuePlayer
    let coverURL: URL
    private var targets: [Any] = []

    init(player: AVQueuePlayer, coverURL: URL) {
        self.player = player
        self.coverURL = coverURL
        let commands = MPRemoteCommandCenter.shared()
        targets.append(
            commands.playCommand.addTarget { [unowned self] _ in
                self.player.play()
                self.update()
                return .success
            })
        targets.append(
            commands.pauseCommand.addTarget { [unowned self] _ in
                self.player.pause()
                self.update()
                return .success
            })
        targets.append(
            commands.togglePlayPauseCommand.addTarget { [unowned self] _ in
                if self.player.rate == 0 { self.player.play() } else { self.player.pause() }
                self.update()
                return .success
            })
        targets.append(
            commands.nextTrackCommand.addTarget { [unowned self] _ in
                guard self.player.items().count > 1 else { return .noSuchContent }
                self.player.advanceToNextItem()
                return .success
            })
        targets.append(
            commands.changePlaybackPositionCommand.addTarget { [unowned self] event in
                guard let event = event as? MPChangePlaybackPositionCommandEvent else { return .commandFailed }
                self.player.seek(to: CMTime(seconds: event.positionTime, preferredTimescale: 600)) { _ in
                    DispatchQueue.main.async { self.update() }
                }
                return .success
            })
        commands.skipForwardCommand.preferredIntervals = [15]
        targets.append(
            commands.skipForwardCommand.addTarget { [unowned self] event in
                let interval = (event as? MPSkipIntervalCommandEvent)?.interval ?? 15
                self.player.seek(to: self.player.currentTime() + CMTime(seconds: interval, preferredTimescale: 600))
                return .success
            })
        commands.changePlaybackRateCommand.supportedPlaybackRates = [0.5, 1, 1.5, 2]
        targets.append(
            commands.changePlaybackRateCommand.addTarget { [unowned self] event in
                guard let event = event as? MPChangePlaybackRateCommandEvent else { return .commandFailed }
                self.player.rate = event.playbackRate
                return .success
            })
        commands.previousTrackCommand.isEnabled = false
        targets.append(
            commands.changeRepeatModeCommand.addTarget { [unowned self] event in
                guard let event = event as? MPChangeRepeatModeCommandEvent else { return .commandFailed }
                self.player.actionAtItemEnd = event.repeatType == .one ? .none : .advance
                commands.changeRepeatModeCommand.currentRepeatType = event.repeatType
                return .success
            })
        targets.append(
            commands.changeShuffleModeCommand.addTarget { event in
                guard let event = event as? MPChangeShuffleModeCommandEvent else { return .commandFailed }
                commands.changeShuffleModeCommand.currentShuffleType = event.shuffleType
                return .success
            })
        commands.likeCommand.localizedTitle = "Love"
        commands.likeCommand.isActive = false
        targets.append(
            commands.likeCommand.addTarget { event in
                let liked = !((event as? MPFeedbackCommandEvent)?.isNegative ?? false)
                commands.likeCommand.isActive = liked
                return .success
            })
        commands.seekForwardCommand.isEnabled = false
    }

    /// Publishes the current item, position, rate and state.
    func update() {
        guard let item = player.currentItem else {
            MPNowPlayingInfoCenter.default().nowPlayingInfo = nil
            MPNowPlayingInfoCenter.default().playbackState = .stopped
            return
        }
        var info: [String: Any] = [
            MPMediaItemPropertyTitle: "A Song",
            MPMediaItemPropertyArtist: "An Artist",
            MPMediaItemPropertyAlbumTitle: "An Album",
            MPMediaItemPropertyPlaybackDuration: item.duration.seconds,
            MPNowPlayingInfoPropertyElapsedPlaybackTime: player.currentTime().seconds,
            MPNowPlayingInfoPropertyPlaybackRate: player.rate,
            MPNowPlayingInfoPropertyDefaultPlaybackRate: 1.0,
        ]
        #if os(Linux)
            info[MPMediaItemPropertyArtwork] = MPMediaItemArtwork(contentsOf: coverURL)
        #endif
        MPNowPlayingInfoCenter.default().nowPlayingInfo = info
        MPNowPlayingInfoCenter.default().playbackState = player.rate == 0 ? .paused : .playing
    }

    /// Unregisters every handler.
    func tearDown() {
        let commands = MPRemoteCommandCenter.shared()
        for command in [
            commands.playCommand, commands.pauseCommand, commands.togglePlayPauseCommand, commands.nextTrackCommand,
            commands.changePlaybackPositionCommand, commands.skipForwardCommand, commands.changePlaybackRateCommand,
            commands.changeRepeatModeCommand, commands.changeShuffleModeCommand, commands.likeCommand,
        ] as [MPRemoteCommand] {
            for target in targets { command.removeTarget(target) }
        }
        targets = []
    }
}
