// Playhead: `playhead play` as an MPRIS player, driven by the real client playerctl on a
// session bus the test starts itself (a dbus-daemon), watched with dbus-monitor.
//
// Concurrency: processes run on Dispatch threads (PlayheadProcess, offPool), never on the
// cooperative pool. Every wait polls for a state with a generous deadline; nothing measures
// durations. They run in the serial pass of `make test` (names with `OnASessionBus`): beside
// the whole parallel pass, a player was once never seen on its bus (not understood yet).
import Foundation
import OpenAVFoundation
import PlayheadTestSupport
import Testing

@Suite(.enabled(if: ProcessInfo.processInfo.environment["PLAYHEAD_REALTIME_TESTS"] != nil))
struct MPRISPlayerctlTestsOnASessionBus {
    /// A 60 s clip with a title, artist, album and a PNG cover (an attached picture).
    static func titledClip(_ title: String, cover color: String) throws -> URL {
        let cover = try GeneratedMedia.url(
            named: "mpris-cover-\(color)", fileExtension: "png",
            ffmpeg: ["-f", "lavfi", "-i", "color=\(color):size=64x64", "-frames:v", "1"])
        return try GeneratedMedia.url(
            named: "mpris-titled", fileExtension: "mp4",
            ffmpeg: [
                "-f", "lavfi", "-i", "testsrc=size=160x90:rate=25:duration=60", "-f", "lavfi", "-i",
                "sine=frequency=440:duration=60", "-i", cover.path, "-map", "0", "-map", "1", "-map", "2",
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

    /// What the playerctl scenario saw, step by step.
    struct Observed {
        var playing = false
        var metadata: [String?] = []
        var pausedStatus: String?
        var pausedPositions: (Double?, Double?) = (nil, nil)
        var seekedPosition: Double?
        var seekedSignal = ""
        var resumed = false
        var nextTitle: String?
        var stopAnswered = false
        var result: SubprocessResult?
    }

    @Test func playerctlPausesSeeksAndSkipsAHeadlessQueue() async throws {
        let first = try Self.titledClip("First Title", cover: "blue")
        let second = try Self.titledClip("Second Title", cover: "green")
        let executable = try #require(PlayheadBinary.url)
        let bus = try await offPool { try SessionBus() }
        defer { bus.stop() }
        let cache = bus.directory.appendingPathComponent("cache")
        // The whole scenario runs on one Dispatch thread (the player on another), so a busy
        // cooperative pool cannot hold a step back while the clip plays on.
        let seen = try await offPool { () -> Observed in
            try Self.scenario(
                bus: bus, executable: executable, environment: Self.environment(bus, cache: cache),
                arguments: ["play", "--headless", "--report", "json", first.path, second.path])
        }
        #expect(seen.playing, "playerctl never saw playhead playing; players: \(bus.playerctlOutput(["-l"]) ?? "none")")
        #expect(Array(seen.metadata.prefix(4)) == ["First Title", "Bus Artist", "Bus Album", "60000000"])
        let art = try #require(seen.metadata.last.flatMap { $0 }.flatMap(URL.init(string:)), "no mpris:artUrl")
        #expect(art.isFileURL && art.path.hasPrefix(cache.appendingPathComponent("playhead").path), "\(art)")
        let picture = try Data(contentsOf: art)
        #expect(picture.starts(with: [0x89, 0x50, 0x4E, 0x47]), "the cover art is not a PNG")
        // Paused: the status says so and the position stands still.
        #expect(seen.pausedStatus == "Paused")
        #expect(seen.pausedPositions.0 != nil && seen.pausedPositions.0 == seen.pausedPositions.1, "\(seen.pausedPositions)")
        // Seeking to 5 s moves the position there and the bus carries Seeked(5 s).
        #expect(abs((seen.seekedPosition ?? 0) - 5) < 0.05, "position after seeking to 5: \(seen.seekedPosition ?? -1)")
        #expect(seen.seekedSignal.contains("int64 5000000"), "no Seeked(5 s) on the bus: \(seen.seekedSignal)")
        #expect(seen.resumed)
        // Next plays the second item of the queue; stop ends the run.
        #expect(seen.nextTitle == "Second Title")
        #expect(seen.stopAnswered)
        let result = try #require(seen.result)
        #expect(result.status == 0, "\(result.standardError)")
        let report = try PlayheadProcess.jsonObject(result)
        let items = try #require(report["items"] as? [[String: Any]])
        #expect(items.map { $0["status"] as? String } == ["stopped", "stopped"])
    }

    /// Starts playhead on `bus` and drives it with playerctl: status, metadata, pause, seek,
    /// play, next, stop. Blocks; returns what each step saw and the player's result.
    static func scenario(bus: SessionBus, executable: URL, environment: [String: String], arguments: [String]) throws
        -> Observed
    {
        var seen = Observed()
        let outcome = Locked<SubprocessResult?>(nil)
        let ended = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            outcome.withLock { $0 = try? Subprocess.run(executable, arguments, limit: 180, environment: environment) }
            ended.signal()
        }
        var waited = false
        defer { if !waited { _ = ended.wait(timeout: .now() + 200) } }
        let player = ["-p", "playhead"]
        func text(_ arguments: [String]) -> String? { bus.playerctlOutput(player + arguments) }
        func position() -> Double? { text(["position"]).flatMap(Double.init) }
        seen.playing = SessionBus.waitUntil(90) { text(["status"]) == "Playing" }
        _ = SessionBus.waitUntil { text(["metadata", "title"]) == "First Title" }
        seen.metadata = ["title", "artist", "album", "mpris:length", "mpris:artUrl"].map { text(["metadata", $0]) }

        _ = try bus.playerctl(player + ["pause"])
        _ = SessionBus.waitUntil { text(["status"]) == "Paused" }
        seen.pausedStatus = text(["status"])
        let before = position()
        Thread.sleep(forTimeInterval: 0.5)
        seen.pausedPositions = (before, position())

        let monitor = try BusMonitor(bus: bus, rule: "type='signal',interface='org.mpris.MediaPlayer2.Player',member='Seeked'")
        _ = try bus.playerctl(player + ["position", "5"])
        _ = SessionBus.waitUntil { abs((position() ?? 0) - 5) < 0.05 }
        seen.seekedPosition = position()
        _ = SessionBus.waitUntil { monitor.output.contains("int64 5000000") }
        monitor.stop()
        seen.seekedSignal = monitor.output

        _ = try bus.playerctl(player + ["play"])
        seen.resumed = SessionBus.waitUntil { text(["status"]) == "Playing" && (position() ?? 0) > 5.05 }
        _ = try bus.playerctl(player + ["next"])
        _ = SessionBus.waitUntil { text(["metadata", "title"]) == "Second Title" }
        seen.nextTitle = text(["metadata", "title"])
        seen.stopAnswered = try bus.playerctl(player + ["stop"]).status == 0
        waited = true
        _ = ended.wait(timeout: .now() + 200)
        seen.result = outcome.withLock { $0 }
        return seen
    }

    @Test func noMPRISKeepsThePlayerOffTheBus() async throws {
        let clip = try Self.titledClip("Off The Bus", cover: "red")
        let bus = try await offPool { try SessionBus() }
        defer { bus.stop() }
        let cache = bus.directory.appendingPathComponent("cache")
        let executable = try #require(PlayheadBinary.url)
        let arguments = ["play", "--headless", "--no-mpris", "--frames", "40", "--report", "json", clip.path]
        let environment = Self.environment(bus, cache: cache)
        // Watch the bus for the whole run (started on a Dispatch thread): playhead must never
        // show up.
        let (listed, outcome) = try await offPool { () -> (Bool, SubprocessResult?) in
            let outcome = Locked<SubprocessResult?>(nil)
            let done = Locked(false)
            DispatchQueue.global().async {
                outcome.withLock { $0 = try? Subprocess.run(executable, arguments, limit: 120, environment: environment) }
                done.withLock { $0 = true }
            }
            var listed = false
            while !done.withLock({ $0 }) {
                if bus.playerctlOutput(["-l"])?.contains("playhead") == true { listed = true }
                Thread.sleep(forTimeInterval: 0.05)
            }
            return (listed, outcome.withLock { $0 })
        }
        let result = try #require(outcome)
        #expect(!listed)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.errorLines.isEmpty, "\(result.standardError)")
    }

    @Test func aBusThatGoesAwayIsOneWarningLineAndPlaybackGoesOn() async throws {
        let clip = try Self.titledClip("Bus Gone", cover: "yellow")
        let executable = try #require(PlayheadBinary.url)
        let bus = try await offPool { try SessionBus() }
        defer { bus.stop() }
        let arguments = ["play", "--headless", "--frames", "125", "--report", "json", clip.path]
        let environment = Self.environment(bus, cache: bus.directory.appendingPathComponent("cache"))
        let (registered, outcome) = try await offPool { () -> (Bool, SubprocessResult?) in
            let outcome = Locked<SubprocessResult?>(nil)
            let ended = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
                outcome.withLock { $0 = try? Subprocess.run(executable, arguments, limit: 120, environment: environment) }
                ended.signal()
            }
            let registered = SessionBus.waitUntil { bus.playerctlOutput(["-l"])?.contains("playhead") ?? false }
            bus.stop()
            _ = ended.wait(timeout: .now() + 130)
            return (registered, outcome.withLock { $0 })
        }
        #expect(registered)
        let result = try #require(outcome)
        #expect(result.status == 0)
        #expect(result.errorLines == ["playhead: warning: the session bus went away; media keys and desktop media controls are off"])
        let items = try #require(try PlayheadProcess.jsonObject(result)["items"] as? [[String: Any]])
        #expect(items.map { $0["status"] as? String } == ["completed"])
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
