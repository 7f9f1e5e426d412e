// Playhead: an iOS 16 video player's now-playing session (MPNowPlayingSession with automatic
// publishing, a picture-in-picture player promoted to the main one), ported by changing the
// imports. It must type-check with no errors in the Swift 5 and Swift 6 language modes
// (scripts/check-ported-clients.sh, run by `make test`).
#if os(Linux)
    import OpenAVFoundation
    import OpenMediaPlayer
#else
    import AVFoundation
    import MediaPlayer
#endif

/// Publishes the main player automatically and hands the controls to the picture-in-picture
/// player when the user promotes it.
@MainActor
final class SessionPlayerController: NSObject, MPNowPlayingSessionDelegate {
    let player: AVPlayer
    let pipPlayer: AVPlayer
    private let session: MPNowPlayingSession
    private let pipSession: MPNowPlayingSession
    private(set) var isShownOnDesktop = false

    init(url: URL, pipURL: URL) {
        let item = AVPlayerItem(url: url)
        item.nowPlayingInfo = [
            MPMediaItemPropertyTitle: "Opening Keynote",
            MPMediaItemPropertyArtist: "Example Conference",
            MPNowPlayingInfoPropertyMediaType: MPNowPlayingInfoMediaType.video.rawValue,
        ]
        player = AVPlayer(playerItem: item)
        pipPlayer = AVPlayer(url: pipURL)
        session = MPNowPlayingSession(players: [player])
        pipSession = MPNowPlayingSession(players: [pipPlayer])
        super.init()
        session.delegate = self
        session.automaticallyPublishesNowPlayingInfo = true
        pipSession.automaticallyPublishesNowPlayingInfo = true
        for (candidate, target) in [(session, player), (pipSession, pipPlayer)] {
            let commands = candidate.remoteCommandCenter
            commands.playCommand.addTarget { _ in
                target.play()
                return .success
            }
            commands.pauseCommand.addTarget { _ in
                target.pause()
                return .success
            }
            commands.changePlaybackPositionCommand.addTarget { event in
                guard let event = event as? MPChangePlaybackPositionCommandEvent else {
                    return .commandFailed
                }
                target.seek(to: CMTime(seconds: event.positionTime, preferredTimescale: 600))
                return .success
            }
        }
    }

    /// The picture-in-picture content went full screen: it takes the desktop's controls.
    func promotePictureInPicture() {
        pipSession.becomeActiveIfPossible { becameActive in
            print("picture in picture is now playing: \(becameActive)")
        }
    }

    /// The same, awaited.
    func promotePictureInPictureAndWait() async -> Bool {
        await pipSession.becomeActiveIfPossible()
    }

    /// Adds a second angle to the main session.
    func addAngle(_ angle: AVPlayer) {
        session.addPlayer(angle)
        if session.players.count > 2 { session.removePlayer(session.players[1]) }
    }

    nonisolated func nowPlayingSessionDidChangeActive(_ nowPlayingSession: MPNowPlayingSession) {
        MainActor.assumeIsolated {
            isShownOnDesktop = nowPlayingSession.isActive && nowPlayingSession.canBecomeActive
        }
    }
}
