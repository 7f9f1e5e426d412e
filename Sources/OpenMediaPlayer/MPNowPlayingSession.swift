// Playhead: a now-playing session: players with a now-playing center and a command center of
// their own, which the desktop sees and commands while the session is the active one.
//
// Concurrency: main actor only (sessions hold players, which are main-actor objects). Which
// session is active is the main actor's `ActiveSession.current`; the MPRIS service is told of
// each change and takes the active session's centers under its own lock.
import Foundation
import OpenAVFoundation

/// Tells an app when its ``MPNowPlayingSession`` became or stopped being the active one.
@MainActor
public protocol MPNowPlayingSessionDelegate: AnyObject {
    /// `nowPlayingSession` became active, or another session took its place.
    func nowPlayingSessionDidChangeActive(_ nowPlayingSession: MPNowPlayingSession)
    /// Whether `nowPlayingSession` may become active changed (never on Linux: any session may).
    func nowPlayingSessionDidChangeCanBecomeActive(_ nowPlayingSession: MPNowPlayingSession)
}

extension MPNowPlayingSessionDelegate {
    /// Does nothing (Apple's methods are optional).
    public func nowPlayingSessionDidChangeActive(_ nowPlayingSession: MPNowPlayingSession) {}
    /// Does nothing (Apple's methods are optional).
    public func nowPlayingSessionDidChangeCanBecomeActive(_ nowPlayingSession: MPNowPlayingSession)
    {}
}

/// Players whose now-playing info and remote commands go together: while the session is
/// active, the desktop (MPRIS: media keys, GNOME's and KDE's media controls, `playerctl`)
/// shows its ``nowPlayingInfoCenter`` and sends commands to its ``remoteCommandCenter``,
/// instead of the process's `MPNowPlayingInfoCenter.default()` and
/// `MPRemoteCommandCenter.shared()`.
///
/// The first session made while none is active becomes active; another becomes active with
/// ``becomeActiveIfPossible(completion:)`` (a picture-in-picture player brought to full
/// screen), and the one it replaces is told through its ``delegate``. With
/// ``automaticallyPublishesNowPlayingInfo`` the session keeps its center current from its first
/// player: the current item's title, artist, album and art (from the asset's metadata, or the
/// keys set on `AVPlayerItem.nowPlayingInfo`), its duration, the position, the rate and whether
/// it plays. Commands still reach only the handlers the app registers, as on Apple platforms.
///
/// - Note: Differs from Apple: a session with no players is allowed (Apple asserts); any
///   session can become active (``canBecomeActive`` is always true).
@preconcurrency @MainActor
open class MPNowPlayingSession {
    /// The players of this session, in the order given.
    public private(set) var players: [AVPlayer]
    /// Told when the session becomes or stops being active. Held weakly.
    public weak var delegate: (any MPNowPlayingSessionDelegate)?
    /// The session's own now-playing center, shown while the session is active. Do not set
    /// its info yourself while ``automaticallyPublishesNowPlayingInfo`` is on.
    public let nowPlayingInfoCenter: MPNowPlayingInfoCenter
    /// The session's own command center, whose handlers run while the session is active.
    public let remoteCommandCenter: MPRemoteCommandCenter
    private var publisher: PlayerNowPlayingPublisher?

    /// A session for `players`, active at once when no other session is.
    public init(players: [AVPlayer]) {
        self.players = players
        nowPlayingInfoCenter = MPNowPlayingInfoCenter()
        remoteCommandCenter = MPRemoteCommandCenter()
        ItemNowPlayingInfo.listen(self) { [weak self] item in
            guard let self, let publisher = self.publisher, publisher.player.currentItem === item
            else { return }
            publisher.publish()
        }
        if ActiveSession.current == nil { ActiveSession.make(self) }
    }

    deinit {
        // (Not isolated: a session may go away on any thread.) The desktop goes back to the
        // process's own centers at once when it showed this session's; the publisher stops
        // following its player on the main queue.
        MPRISService.shared.stopPublishing(info: nowPlayingInfoCenter)
        if let publisher {
            DispatchQueue.main.async { MainActor.assumeIsolated { publisher.stop() } }
        }
    }

    /// Whether the session keeps ``nowPlayingInfoCenter`` current from its first player (off
    /// by default). Put an item's own keys (a title the asset lacks, a description) on
    /// `AVPlayerItem.nowPlayingInfo`.
    public var automaticallyPublishesNowPlayingInfo = false {
        didSet { followFirstPlayer() }
    }

    /// Whether the session is the one the desktop sees and commands.
    public var isActive: Bool { ActiveSession.current === self }

    /// Whether the session may become active: always, on Linux.
    public var canBecomeActive: Bool { true }

    /// Adds `player` to the session (once).
    public func addPlayer(_ player: AVPlayer) {
        guard !players.contains(where: { $0 === player }) else { return }
        players.append(player)
        followFirstPlayer()
    }

    /// Removes `player` from the session.
    public func removePlayer(_ player: AVPlayer) {
        players.removeAll { $0 === player }
        followFirstPlayer()
    }

    /// Makes this session the active one: the desktop shows its center and sends commands to
    /// its handlers; the session that was active is told it no longer is. `completion` runs
    /// on the main queue with whether the session is active.
    public func becomeActiveIfPossible(completion: (@Sendable (Bool) -> Void)? = nil) {
        if !isActive { ActiveSession.make(self) }
        if let completion { MainQueue.async { completion(true) } }
    }

    /// Makes this session the active one (see ``becomeActiveIfPossible(completion:)``) and
    /// returns whether it is.
    public func becomeActiveIfPossible() async -> Bool {
        if !isActive { ActiveSession.make(self) }
        return true
    }

    /// The session active now, if any (a session the desktop shows).
    package static var active: MPNowPlayingSession? { ActiveSession.current }

    /// Publishes the followed player again at once (a change the publisher cannot observe,
    /// such as the player's default rate set while paused).
    package func republish() { publisher?.publish() }

    /// Starts, moves or stops the automatic publisher to match the setting and the players.
    private func followFirstPlayer() {
        let player = automaticallyPublishesNowPlayingInfo ? players.first : nil
        guard publisher?.player !== player else { return }
        let wasFollowing = publisher != nil
        publisher?.stop()
        if wasFollowing, player == nil {
            // Nothing is followed any more: the desktop is not left showing the last item.
            nowPlayingInfoCenter.nowPlayingInfo = nil
            nowPlayingInfoCenter.playbackState = .stopped
        }
        publisher = player.map {
            PlayerNowPlayingPublisher(player: $0, center: nowPlayingInfoCenter)
        }
        publisher?.start()
    }
}

/// Which session the desktop sees and commands.
@MainActor
enum ActiveSession {
    private(set) static weak var current: MPNowPlayingSession?

    /// Makes `session` active (nil: the process's own centers), publishes its centers and tells
    /// the sessions that changed.
    static func make(_ session: MPNowPlayingSession?) {
        let previous = current
        guard previous !== session else { return }
        current = session
        MPRISService.shared.publish(
            info: session?.nowPlayingInfoCenter ?? .default(),
            commands: session?.remoteCommandCenter ?? .shared())
        if let previous { previous.delegate?.nowPlayingSessionDidChangeActive(previous) }
        if let session { session.delegate?.nowPlayingSessionDidChangeActive(session) }
    }
}
