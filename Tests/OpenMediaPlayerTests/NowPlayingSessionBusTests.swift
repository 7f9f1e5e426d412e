// Playhead: MPNowPlayingSession against a real session bus and playerctl: the active session's
// centers are what the desktop shows and commands, automatic publishing follows the player,
// and a session that becomes active (or goes away) hands the desktop over.
//
// Runs in the serial pass with the other bus suites (`OnASessionBus`): the centers and the
// active session are process-wide.
import Foundation
import OpenAVFoundation
import PlayheadTestSupport
import Testing

@testable import OpenMediaPlayer

@Suite(
    .serialized, .enabled(if: ProcessInfo.processInfo.environment["PLAYHEAD_REALTIME_TESTS"] != nil)
)
@MainActor
struct NowPlayingSessionBusTestsOnASessionBus {
    private final class DelegateLog: MPNowPlayingSessionDelegate {
        var events: [String] = []
        let name: String
        init(_ name: String) { self.name = name }
        func nowPlayingSessionDidChangeActive(_ nowPlayingSession: MPNowPlayingSession) {
            events.append("\(name) active=\(nowPlayingSession.isActive)")
        }
    }

    private func playerctl(_ bus: SessionBus, _ arguments: [String]) async throws -> String? {
        try await offPool { bus.playerctlOutput(["-p", "playhead"] + arguments) }
    }

    /// Polls playerctl until it prints `expected` (or 20 s pass); returns what it printed last.
    private func settled(_ bus: SessionBus, _ arguments: [String], toBe expected: String)
        async throws -> String?
    {
        try await offPool { () -> String? in
            var last: String?
            _ = SessionBus.waitUntil {
                last = bus.playerctlOutput(["-p", "playhead"] + arguments)
                return last == expected
            }
            return last
        }
    }

    private func waitUntilReady(_ item: AVPlayerItem) async -> Bool {
        for _ in 0..<600 where item.status != .readyToPlay {
            try? await Task.sleep(nanoseconds: 50_000_000)
        }
        return item.status == .readyToPlay
    }

    @Test func anAutomaticSessionShowsItsPlayerAndTakesTheDesktopsCommands() async throws {
        let bus = try await RemoteCommandBusTestsOnASessionBus.freshBus()
        defer { RemoteCommandBusTestsOnASessionBus.finish(bus) }
        let calls = Locked<[String]>([])
        // The process's own centers, which a session replaces while it is active.
        MPRemoteCommandCenter.shared().playCommand.addTarget { _ in
            calls.withLock { $0.append("shared play") }
            return .success
        }
        MPNowPlayingInfoCenter.default().nowPlayingInfo = [MPMediaItemPropertyTitle: "Default"]
        #expect(try await settled(bus, ["metadata", "title"], toBe: "Default") == "Default")

        let media = try GeneratedMedia.url(
            named: "session-title", fileExtension: "mp4",
            ffmpeg: [
                "-f", "lavfi", "-i", "testsrc2=size=160x90:rate=25:duration=4", "-f", "lavfi", "-i",
                "sine=frequency=440:duration=4", "-c:v", "libx264", "-c:a", "aac", "-metadata",
                "title=Session Title",
            ])
        let item = AVPlayerItem(url: media)
        item.nowPlayingInfo = [MPMediaItemPropertyArtist: "Item Artist"]
        let player = AVPlayer(playerItem: item)
        var session: MPNowPlayingSession? = MPNowPlayingSession(players: [player])
        let log = DelegateLog("first")
        session?.delegate = log
        #expect(session?.isActive == true, "the first session is active")
        session?.automaticallyPublishesNowPlayingInfo = true
        session?.remoteCommandCenter.playCommand.addTarget { _ in
            calls.withLock { $0.append("session play") }
            player.play()
            return .success
        }
        #expect(await waitUntilReady(item))
        // The asset's title, the item's own artist, the player's duration.
        #expect(
            try await settled(bus, ["metadata", "title"], toBe: "Session Title") == "Session Title")
        #expect(try await playerctl(bus, ["metadata", "artist"]) == "Item Artist")
        let length =
            try await playerctl(bus, ["metadata", "mpris:length"]).flatMap(Double.init) ?? 0
        #expect(abs(length - 4_000_000) < 100_000, "mpris:length \(length)")
        #expect(try await settled(bus, ["status"], toBe: "Paused") == "Paused")
        // playerctl's play reaches the session's handler; the status follows the player.
        _ = try await offPool { try bus.playerctl(["-p", "playhead", "play"]) }
        #expect(try await settled(bus, ["status"], toBe: "Playing") == "Playing")
        #expect(calls.withLock { $0 } == ["session play"])
        #expect(player.rate == 1)
        player.pause()
        // The item's keys change: published at once (nothing else happens meanwhile).
        item.nowPlayingInfo = [MPMediaItemPropertyArtist: "Changed Artist"]
        #expect(MPRISService.shared.currentSnapshot.info?.artist == "Changed Artist")
        #expect(
            try await settled(bus, ["metadata", "artist"], toBe: "Changed Artist")
                == "Changed Artist")

        // A second session becomes active: its own center and handlers; the first is told.
        var second: MPNowPlayingSession? = MPNowPlayingSession(players: [])
        #expect(second?.isActive == false)
        second?.nowPlayingInfoCenter.nowPlayingInfo = [MPMediaItemPropertyTitle: "Second"]
        second?.remoteCommandCenter.playCommand.addTarget { _ in
            calls.withLock { $0.append("second play") }
            return .success
        }
        #expect(await second?.becomeActiveIfPossible() == true)
        #expect(second?.isActive == true && session?.isActive == false)
        #expect(log.events == ["first active=false"])
        #expect(try await settled(bus, ["metadata", "title"], toBe: "Second") == "Second")
        _ = try await offPool { try bus.playerctl(["-p", "playhead", "play"]) }
        #expect(try await offPool { SessionBus.waitUntil { calls.withLock { $0.count } == 2 } })
        #expect(calls.withLock { $0 } == ["session play", "second play"])

        // The active session goes away: the desktop shows the process's own centers again.
        second = nil
        #expect(try await settled(bus, ["metadata", "title"], toBe: "Default") == "Default")
        _ = try await offPool { try bus.playerctl(["-p", "playhead", "play"]) }
        #expect(try await offPool { SessionBus.waitUntil { calls.withLock { $0.count } == 3 } })
        #expect(calls.withLock { $0 }.last == "shared play")
        // The first session takes over again when asked.
        let answered = Locked<Bool?>(nil)
        session?.becomeActiveIfPossible { became in answered.withLock { $0 = became } }
        #expect(session?.isActive == true)
        #expect(
            try await settled(bus, ["metadata", "title"], toBe: "Session Title") == "Session Title")
        #expect(log.events == ["first active=false", "first active=true"])
        #expect(answered.withLock { $0 } == true, "the completion ran on the main queue meanwhile")
        // Its player removed, the session shows nothing rather than the last item.
        session?.removePlayer(player)
        #expect(session?.players.isEmpty == true)
        #expect(
            MPRISService.shared.currentSnapshot.info == nil
                && MPRISService.shared.currentSnapshot.state == .stopped)
        #expect(try await settled(bus, ["status"], toBe: "Stopped") == "Stopped")
        session = nil
        #expect(MPRISService.shared.publishedCenters.info === MPNowPlayingInfoCenter.default())
    }
}
