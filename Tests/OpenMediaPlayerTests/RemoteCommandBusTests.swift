// Playhead: OpenMediaPlayer against a real session bus (a dbus-daemon of the test's own) and a
// real MPRIS client (playerctl, dbus-send, dbus-monitor).
//
// Concurrency: the command and now-playing centers are process-wide, so this suite runs its
// tests one at a time; each test starts its own bus and points the MPRIS server at it. They
// run in the serial pass of `make test` (`OnASessionBus`): they spawn hundreds of client
// processes, which beside the parallel pass starved other tests of the main queue. Blocking
// work (the daemon, the clients) runs on Dispatch threads through `offPool`.
import Foundation
import OpenAVFoundation
import PlayheadTestSupport
import Testing

@testable import OpenMediaPlayer

nonisolated(unsafe) private let mainQueueKey: DispatchSpecificKey<Bool> = {
    let key = DispatchSpecificKey<Bool>()
    DispatchQueue.main.setSpecific(key: key, value: true)
    return key
}()

@Suite(.serialized, .enabled(if: ProcessInfo.processInfo.environment["PLAYHEAD_REALTIME_TESTS"] != nil))
struct RemoteCommandBusTestsOnASessionBus {
    /// Starts a bus and the MPRIS server on it; clears every handler and now-playing value.
    static func freshBus() async throws -> SessionBus {
        _ = mainQueueKey  // marks the main queue before any handler can run
        let bus = try await offPool { try SessionBus() }
        MPRISService.shared.start(address: bus.address, warnings: { _ in })
        // No session left by an earlier test keeps the desktop.
        MPRISService.shared.publish(info: .default(), commands: .shared())
        let center = MPRemoteCommandCenter.shared()
        for command in center.allCommands {
            command.removeTarget(nil)
            command.isEnabled = true
        }
        center.changeRepeatModeCommand.currentRepeatType = .off
        center.changeShuffleModeCommand.currentShuffleType = .off
        MPNowPlayingInfoCenter.default().nowPlayingInfo = nil
        MPNowPlayingInfoCenter.default().playbackState = .unknown
        let listed = try await offPool {
            SessionBus.waitUntil { bus.playerctlOutput(["-l"])?.split(separator: "\n").contains("playhead") ?? false }
        }
        #expect(listed, "playerctl -l never listed playhead")
        return bus
    }

    static func finish(_ bus: SessionBus) {
        MPRISService.shared.stop()
        bus.stop()
    }

    @Test func busCommandsRunTheirHandlersOnTheMainQueue() async throws {
        let bus = try await Self.freshBus()
        defer { Self.finish(bus) }
        let calls = Locked<[String]>([])
        let center = MPRemoteCommandCenter.shared()
        center.playCommand.addTarget { _ in
            calls.withLock { $0.append("play main=\(Self.onMainQueue())") }
            return .success
        }
        center.pauseCommand.addTarget { _ in
            calls.withLock { $0.append("pause main=\(Self.onMainQueue())") }
            return .success
        }
        center.changePlaybackPositionCommand.addTarget { event in
            let position = (event as? MPChangePlaybackPositionCommandEvent)?.positionTime ?? -1
            calls.withLock { $0.append("position \(position) main=\(Self.onMainQueue())") }
            return .success
        }
        MPNowPlayingInfoCenter.default().nowPlayingInfo = [
            MPMediaItemPropertyTitle: "Handlers", MPMediaItemPropertyPlaybackDuration: 60.0,
            MPNowPlayingInfoPropertyElapsedPlaybackTime: 1.0, MPNowPlayingInfoPropertyPlaybackRate: 0.0,
        ]
        let results = try await offPool { () -> [Int32] in
            // The test process's main queue can be slow to reach on a busy machine, longer than
            // playerctl waits for a reply: dbus-send waits up to two minutes.
            _ = SessionBus.waitUntil { bus.playerctlOutput(["-p", "playhead", "metadata", "title"]) == "Handlers" }
            // playerctl prints an object path in quotes.
            let track = (bus.playerctlOutput(["-p", "playhead", "metadata", "mpris:trackid"]) ?? "")
                .trimmingCharacters(in: CharacterSet(charactersIn: "'"))
            return [
                try bus.callMPRIS("org.mpris.MediaPlayer2.Player.Play").status,
                try bus.callMPRIS("org.mpris.MediaPlayer2.Player.Pause").status,
                try bus.callMPRIS("org.mpris.MediaPlayer2.Player.SetPosition", ["objpath:\(track)", "int64:12500000"]).status,
            ]
        }
        #expect(results == [0, 0, 0])
        #expect(calls.withLock { $0 } == ["play main=true", "pause main=true", "position 12.5 main=true"])
    }

    /// `playerctl loop` and `playerctl shuffle` change the app's repeat and shuffle modes
    /// through their handlers, and read back what the app shows.
    @Test func playerctlChangesTheRepeatAndShuffleModes() async throws {
        let bus = try await Self.freshBus()
        defer { Self.finish(bus) }
        let center = MPRemoteCommandCenter.shared()
        let asked = Locked<[String]>([])
        center.changeRepeatModeCommand.addTarget { event in
            let type = (event as? MPChangeRepeatModeCommandEvent)?.repeatType
            asked.withLock { $0.append("repeat \(type.map { "\($0)" } ?? "?") main=\(Self.onMainQueue())") }
            return .success
        }
        center.changeShuffleModeCommand.addTarget { event in
            let type = (event as? MPChangeShuffleModeCommandEvent)?.shuffleType
            asked.withLock { $0.append("shuffle \(type.map { "\($0)" } ?? "?") main=\(Self.onMainQueue())") }
            return .success
        }
        center.playCommand.addTarget { _ in .success }
        MPNowPlayingInfoCenter.default().nowPlayingInfo = [MPMediaItemPropertyTitle: "Modes"]
        let shown = try await offPool { () -> [String?] in
            _ = SessionBus.waitUntil { bus.playerctlOutput(["-p", "playhead", "loop"]) == "None" }
            let before = [bus.playerctlOutput(["-p", "playhead", "loop"]), bus.playerctlOutput(["-p", "playhead", "shuffle"])]
            _ = try? bus.playerctl(["-p", "playhead", "loop", "Track"])
            _ = SessionBus.waitUntil { bus.playerctlOutput(["-p", "playhead", "loop"]) == "Track" }
            _ = try? bus.playerctl(["-p", "playhead", "shuffle", "Toggle"])
            _ = SessionBus.waitUntil { bus.playerctlOutput(["-p", "playhead", "shuffle"]) == "On" }
            return before + [bus.playerctlOutput(["-p", "playhead", "loop"]), bus.playerctlOutput(["-p", "playhead", "shuffle"])]
        }
        #expect(shown == ["None", "Off", "Track", "On"], "\(shown)")
        #expect(asked.withLock { $0 } == ["repeat one main=true", "shuffle items main=true"])
        #expect(center.changeRepeatModeCommand.currentRepeatType == .one)
        #expect(center.changeShuffleModeCommand.currentShuffleType == .items)
        // The app changes the mode itself: the desktop sees it.
        center.changeRepeatModeCommand.currentRepeatType = .all
        let after = try await offPool { () -> String? in
            _ = SessionBus.waitUntil { bus.playerctlOutput(["-p", "playhead", "loop"]) == "Playlist" }
            return bus.playerctlOutput(["-p", "playhead", "loop"])
        }
        #expect(after == "Playlist")
        // Its target gone, the desktop is told LoopStatus is no longer there.
        center.changeRepeatModeCommand.removeTarget(nil)
        let gone = try await offPool { () -> Bool in
            SessionBus.waitUntil { (try? bus.playerctl(["-p", "playhead", "loop"]))?.ending == .exited(1) }
        }
        #expect(gone, "playerctl loop still answers without a target")
    }

    @Test func aDisabledCommandIsRefusedWithAnErrorAndNoHandlerRuns() async throws {
        let bus = try await Self.freshBus()
        defer { Self.finish(bus) }
        let ran = Locked(0)
        let pause = MPRemoteCommandCenter.shared().pauseCommand
        pause.addTarget { _ in
            ran.withLock { $0 += 1 }
            return .success
        }
        pause.isEnabled = false
        let (canPause, answer) = try await offPool { () -> (String?, SubprocessResult) in
            _ = SessionBus.waitUntil { (try? Self.property(bus, "CanPause"))?.contains("boolean false") ?? false }
            let canPause = try? Self.property(bus, "CanPause")
            let answer = try bus.callMPRIS("org.mpris.MediaPlayer2.Player.Pause")
            return (canPause, answer)
        }
        #expect(canPause?.contains("boolean false") == true, "\(canPause ?? "nil")")
        #expect(answer.status != 0)
        #expect(answer.standardError.contains("org.freedesktop.DBus.Error.NotSupported"), "\(answer.standardError)")
        #expect(ran.withLock { $0 } == 0)
        // A handler's failure status is an error too.
        pause.isEnabled = true
        pause.removeTarget(nil)
        pause.addTarget { _ in .noActionableNowPlayingItem }
        let failed = try await offPool { try bus.callMPRIS("org.mpris.MediaPlayer2.Player.Pause") }
        #expect(failed.status == 1)
        #expect(failed.standardError.contains("org.freedesktop.DBus.Error.Failed"), "\(failed.standardError)")
    }

    @Test func nowPlayingInfoShowsInPlayerctlMetadata() async throws {
        let bus = try await Self.freshBus()
        defer { Self.finish(bus) }
        // playerctl skips a player that cannot play when asked for metadata.
        MPRemoteCommandCenter.shared().playCommand.addTarget { _ in .success }
        let art = try GeneratedMedia.url(
            named: "mpris-art", fileExtension: "png", ffmpeg: ["-f", "lavfi", "-i", "color=red:size=64x64", "-frames:v", "1"])
        MPNowPlayingInfoCenter.default().nowPlayingInfo = [
            MPMediaItemPropertyTitle: "A Title", MPMediaItemPropertyArtist: "An Artist",
            MPMediaItemPropertyAlbumTitle: "An Album", MPMediaItemPropertyPlaybackDuration: 83.25,
            MPMediaItemPropertyArtwork: MPMediaItemArtwork(contentsOf: art),
            MPNowPlayingInfoPropertyElapsedPlaybackTime: 10.0, MPNowPlayingInfoPropertyPlaybackRate: 0.0,
            MPMediaItemPropertyGenre: "Jazz", MPMediaItemPropertyAlbumTrackNumber: 7,
        ]
        MPNowPlayingInfoCenter.default().playbackState = .paused
        let values = try await offPool { () -> [String?] in
            _ = SessionBus.waitUntil { bus.playerctlOutput(["-p", "playhead", "metadata", "title"]) == "A Title" }
            return ["title", "artist", "album", "mpris:length", "mpris:artUrl", "xesam:genre", "xesam:trackNumber"].map {
                bus.playerctlOutput(["-p", "playhead", "metadata", $0])
            } + [bus.playerctlOutput(["-p", "playhead", "status"]), bus.playerctlOutput(["-p", "playhead", "position"])]
        }
        #expect(values == ["A Title", "An Artist", "An Album", "83250000", art.absoluteString, "Jazz", "7", "Paused", "10.000000"])
        // Playing: the position runs on from the elapsed time.
        MPNowPlayingInfoCenter.default().nowPlayingInfo?[MPNowPlayingInfoPropertyPlaybackRate] = 1.0
        MPNowPlayingInfoCenter.default().playbackState = .playing
        let (status, moved) = try await offPool { () -> (String?, Bool) in
            let playing = SessionBus.waitUntil { bus.playerctlOutput(["-p", "playhead", "status"]) == "Playing" }
            let moved = SessionBus.waitUntil {
                (bus.playerctlOutput(["-p", "playhead", "position"]).flatMap(Double.init) ?? 0) > 10.2
            }
            return (playing ? "Playing" : bus.playerctlOutput(["-p", "playhead", "status"]), moved)
        }
        #expect(status == "Playing")
        #expect(moved)
    }

    @Test func anElapsedTimeJumpIsAnnouncedAsSeeked() async throws {
        let bus = try await Self.freshBus()
        defer { Self.finish(bus) }
        MPRemoteCommandCenter.shared().playCommand.addTarget { _ in .success }
        let info: [String: Any] = [
            MPMediaItemPropertyTitle: "Seeks", MPMediaItemPropertyPlaybackDuration: 100.0,
            MPNowPlayingInfoPropertyElapsedPlaybackTime: 3.0, MPNowPlayingInfoPropertyPlaybackRate: 0.0,
        ]
        MPNowPlayingInfoCenter.default().nowPlayingInfo = info
        let monitor = try await offPool {
            _ = SessionBus.waitUntil { bus.playerctlOutput(["-p", "playhead", "metadata", "title"]) == "Seeks" }
            return try BusMonitor(bus: bus, rule: "type='signal',interface='org.mpris.MediaPlayer2.Player'")
        }
        defer { monitor.stop() }
        var jumped = info
        jumped[MPNowPlayingInfoPropertyElapsedPlaybackTime] = 42.0
        MPNowPlayingInfoCenter.default().nowPlayingInfo = jumped
        let seen = try await offPool { SessionBus.waitUntil { monitor.output.contains("member=Seeked") } }
        #expect(seen, "\(monitor.output)")
        #expect(monitor.output.contains("int64 42000000"), "\(monitor.output)")
    }

    @Test func aSecondPlayerOnTheBusTakesAnInstanceName() async throws {
        let bus = try await Self.freshBus()
        defer { Self.finish(bus) }
        let second = MPRISServer(address: bus.address, identity: .playhead, warn: { _ in }, deliver: { _, reply in reply(.success) })
        second.start()
        defer { second.stop() }
        let named = try await offPool { SessionBus.waitUntil { second.ownedName != nil } }
        #expect(named)
        #expect(second.ownedName == "org.mpris.MediaPlayer2.playhead.instance\(getpid())")
        let listed = try await offPool { bus.playerctlOutput(["-l"])?.split(separator: "\n").map(String.init) ?? [] }
        #expect(Set(listed) == ["playhead", "playhead.instance\(getpid())"])
    }

    @Test func withoutABusOneWarningLineAndNothingElse() async throws {
        let lines = Locked<[String]>([])
        MPRISService.shared.start(address: "unix:path=/nonexistent/playhead-bus", warnings: { line in
            lines.withLock { $0.append(line) }
        })
        defer { MPRISService.shared.stop() }
        MPRemoteCommandCenter.shared().playCommand.addTarget { _ in .success }
        MPNowPlayingInfoCenter.default().nowPlayingInfo = [MPMediaItemPropertyTitle: "Nowhere"]
        MPNowPlayingInfoCenter.default().playbackState = .playing
        let settled = try await offPool { SessionBus.waitUntil(10) { !lines.withLock { $0 }.isEmpty } }
        #expect(settled)
        try await Task.sleep(for: .milliseconds(200))
        #expect(lines.withLock { $0 } == [MPRISService.noBusWarning])
        #expect(MPNowPlayingInfoCenter.default().nowPlayingInfo?[MPMediaItemPropertyTitle] as? String == "Nowhere")
        MPRemoteCommandCenter.shared().playCommand.removeTarget(nil)
    }

    /// Whether the caller runs on the main queue (which, once the main thread has called
    /// dispatchMain, a worker thread may be draining).
    static func onMainQueue() -> Bool { DispatchQueue.getSpecific(key: mainQueueKey) == true }

    /// `Get` of one Player property through dbus-send (its printed reply).
    static func property(_ bus: SessionBus, _ name: String) throws -> String {
        let result = try Subprocess.run(
            try Subprocess.tool(named: "dbus-send"),
            ["--bus=\(bus.address)", "--print-reply", "--dest=org.mpris.MediaPlayer2.playhead", "/org/mpris/MediaPlayer2",
                "org.freedesktop.DBus.Properties.Get", "string:org.mpris.MediaPlayer2.Player", "string:\(name)"], limit: 10)
        return result.standardOutput
    }
}
