// Playhead: `playhead play` as an MPRIS player, driven by the real client playerctl on a
// session bus the test starts itself (a dbus-daemon), watched with dbus-monitor.
//
// Concurrency: processes run on Dispatch threads (PlayheadProcess, offPool), never on the
// cooperative pool. Every wait polls for a state with a generous deadline; nothing measures
// durations, so these run in the parallel pass.
import Foundation
import OpenAVFoundation
import PlayheadTestSupport
import Testing

@Suite struct MPRISPlayerctlTests {
    /// A 30 s clip with a title, artist, album and a PNG cover (an attached picture).
    static func titledClip(_ title: String, cover color: String) throws -> URL {
        let cover = try GeneratedMedia.url(
            named: "mpris-cover-\(color)", fileExtension: "png",
            ffmpeg: ["-f", "lavfi", "-i", "color=\(color):size=64x64", "-frames:v", "1"])
        return try GeneratedMedia.url(
            named: "mpris-titled", fileExtension: "mp4",
            ffmpeg: [
                "-f", "lavfi", "-i", "testsrc=size=160x90:rate=25:duration=30", "-f", "lavfi", "-i",
                "sine=frequency=440:duration=30", "-i", cover.path, "-map", "0", "-map", "1", "-map", "2",
                "-c:v:0", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-c:a", "aac", "-c:v:1", "png",
                "-disposition:v:1", "attached_pic", "-metadata", "title=\(title)", "-metadata", "artist=Bus Artist",
                "-metadata", "album=Bus Album",
            ])
    }

    /// The environment of a player on `bus`, caching cover art under `cache`.
    static func environment(_ bus: SessionBus, cache: URL) -> [String: String] {
        var environment = bus.environment
        environment["XDG_CACHE_HOME"] = cache.path
        return environment
    }

    @Test func playerctlPausesSeeksAndSkipsAHeadlessQueue() async throws {
        let first = try Self.titledClip("First Title", cover: "blue")
        let second = try Self.titledClip("Second Title", cover: "green")
        let bus = try await offPool { try SessionBus() }
        defer { bus.stop() }
        let cache = bus.directory.appendingPathComponent("cache")
        let run = Task {
            try await PlayheadProcess.run(
                ["play", "--headless", "--report", "json", first.path, second.path], limit: 120,
                environment: Self.environment(bus, cache: cache))
        }
        let player = ["-p", "playhead"]
        let playing = try await offPool { SessionBus.waitUntil(60) { bus.playerctlOutput(player + ["status"]) == "Playing" } }
        #expect(playing, "playerctl never saw playhead playing")
        let metadata = try await offPool { () -> [String?] in
            _ = SessionBus.waitUntil { bus.playerctlOutput(player + ["metadata", "title"]) == "First Title" }
            return ["title", "artist", "album", "mpris:length", "mpris:artUrl"].map {
                bus.playerctlOutput(player + ["metadata", $0])
            }
        }
        #expect(Array(metadata.prefix(4)) == ["First Title", "Bus Artist", "Bus Album", "30000000"])
        let art = try #require(metadata[4].flatMap(URL.init(string:)), "no mpris:artUrl")
        #expect(art.isFileURL && art.path.hasPrefix(cache.appendingPathComponent("playhead").path), "\(art)")
        let picture = try Data(contentsOf: art)
        #expect(picture.starts(with: [0x89, 0x50, 0x4E, 0x47]), "the cover art is not a PNG")

        // Pause: the status says so and the position stands still.
        let paused = try await offPool { () -> (String?, Double?, Double?) in
            _ = try bus.playerctl(player + ["pause"])
            _ = SessionBus.waitUntil { bus.playerctlOutput(player + ["status"]) == "Paused" }
            let before = bus.playerctlOutput(player + ["position"]).flatMap(Double.init)
            Thread.sleep(forTimeInterval: 0.5)
            return (bus.playerctlOutput(player + ["status"]), before, bus.playerctlOutput(player + ["position"]).flatMap(Double.init))
        }
        #expect(paused.0 == "Paused")
        #expect(paused.1 != nil && paused.1 == paused.2, "position moved while paused: \(paused)")

        // Seek to 5 s: the position follows and the bus carries Seeked.
        let monitor = try await offPool {
            try BusMonitor(bus: bus, rule: "type='signal',interface='org.mpris.MediaPlayer2.Player',member='Seeked'")
        }
        defer { monitor.stop() }
        let seeked = try await offPool { () -> Double? in
            _ = try bus.playerctl(player + ["position", "5"])
            _ = SessionBus.waitUntil {
                abs((bus.playerctlOutput(player + ["position"]).flatMap(Double.init) ?? 0) - 5) < 0.05
            }
            return bus.playerctlOutput(player + ["position"]).flatMap(Double.init)
        }
        #expect(abs((seeked ?? 0) - 5) < 0.05, "position after seeking to 5: \(seeked ?? -1)")
        let announced = try await offPool { SessionBus.waitUntil { monitor.output.contains("int64 5000000") } }
        #expect(announced, "no Seeked(5 s) on the bus: \(monitor.output)")

        // Play again, then next: the second item of the queue plays.
        let resumed = try await offPool { () -> Bool in
            _ = try bus.playerctl(player + ["play"])
            return SessionBus.waitUntil {
                bus.playerctlOutput(player + ["status"]) == "Playing"
                    && (bus.playerctlOutput(player + ["position"]).flatMap(Double.init) ?? 0) > 5.05
            }
        }
        #expect(resumed)
        let advanced = try await offPool { () -> String? in
            _ = try bus.playerctl(player + ["next"])
            _ = SessionBus.waitUntil { bus.playerctlOutput(player + ["metadata", "title"]) == "Second Title" }
            return bus.playerctlOutput(player + ["metadata", "title"])
        }
        #expect(advanced == "Second Title")

        // Stop ends the run.
        _ = try await offPool { try bus.playerctl(player + ["stop"]) }
        let result = try #require(try await run.value)
        #expect(result.status == 0, "\(result.standardError)")
        let report = try PlayheadProcess.jsonObject(result)
        let items = try #require(report["items"] as? [[String: Any]])
        #expect(items.map { $0["status"] as? String } == ["stopped", "stopped"])
    }

    @Test func noMPRISKeepsThePlayerOffTheBus() async throws {
        let clip = try Self.titledClip("Off The Bus", cover: "red")
        let bus = try await offPool { try SessionBus() }
        defer { bus.stop() }
        let cache = bus.directory.appendingPathComponent("cache")
        let done = Locked(false)
        let run = Task {
            defer { done.withLock { $0 = true } }
            return try await PlayheadProcess.run(
                ["play", "--headless", "--no-mpris", "--frames", "40", "--report", "json", clip.path], limit: 120,
                environment: Self.environment(bus, cache: cache))
        }
        // Watch the bus for the whole run: playhead must never show up.
        let listed = try await offPool { () -> Bool in
            while !done.withLock({ $0 }) {
                if bus.playerctlOutput(["-l"])?.contains("playhead") == true { return true }
                Thread.sleep(forTimeInterval: 0.05)
            }
            return false
        }
        let result = try #require(try await run.value)
        #expect(!listed)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.errorLines.isEmpty, "\(result.standardError)")
    }

    @Test func anUnreachableBusIsOneWarningLineAndPlaybackGoesOn() async throws {
        var environment = ProcessInfo.processInfo.environment
        environment["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=/nonexistent/playhead-test-bus"
        let result = try #require(
            try await PlayheadProcess.run(
                ["play", "--headless", "--frames", "20", "--report", "json", try Fixture.url(.mp4).path], limit: 120,
                environment: environment))
        #expect(result.status == 0)
        #expect(result.errorLines == ["playhead: warning: no session bus; media keys and desktop media controls are off"])
        let items = try #require(try PlayheadProcess.jsonObject(result)["items"] as? [[String: Any]])
        #expect(items.map { $0["status"] as? String } == ["completed"])
    }
}
