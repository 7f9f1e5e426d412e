// Playhead: a private D-Bus session bus for tests (a real `dbus-daemon`), with the real MPRIS
// client `playerctl` and `dbus-monitor` run against it.
//
// Concurrency: `start` and `stop` are called by the test that owns the bus; the daemon's
// process id is guarded by a lock. The helpers run their processes on the calling thread
// (call them off the cooperative pool, e.g. through `offPool`).
import Foundation
import OpenAVFoundation

/// A `dbus-daemon --session` of the test's own, listening on a socket in a private folder.
public final class SessionBus: @unchecked Sendable {
    /// The private folder holding the socket.
    public let directory: URL
    /// The bus address, for `DBUS_SESSION_BUS_ADDRESS`.
    public var address: String { "unix:path=" + directory.appendingPathComponent("bus").path }
    private let pid = Locked<pid_t?>(nil)

    /// Starts the daemon and waits until it answers.
    /// - Throws: ``TestSupportError`` when `dbus-daemon` is missing or does not come up in 10 s.
    public init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("playhead-bus-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let daemon = try DetachedProcess.spawn(
            try Subprocess.tool(named: "dbus-daemon").path,
            ["--session", "--nofork", "--nopidfile", "--address=\(address)"],
            environment: ProcessInfo.processInfo.environment)
        pid.withLock { $0 = daemon }
        let deadline = Date().addingTimeInterval(TestTimeouts.scaled(10))
        while Date() < deadline {
            let answer = try Subprocess.run(
                try Subprocess.tool(named: "dbus-send"),
                ["--bus=\(address)", "--print-reply", "--dest=org.freedesktop.DBus", "/org/freedesktop/DBus",
                    "org.freedesktop.DBus.GetId"], limit: 5)
            if answer.ending == .exited(0) { return }
            Thread.sleep(forTimeInterval: 0.05)
        }
        stop()
        throw TestSupportError("dbus-daemon did not answer within 10 s")
    }

    /// This process's environment with `DBUS_SESSION_BUS_ADDRESS` pointing at this bus.
    public var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["DBUS_SESSION_BUS_ADDRESS"] = address
        return environment
    }

    /// Runs `playerctl arguments...` on this bus (killed after 30 s; playerctl itself waits
    /// 25 s for a reply).
    /// - Throws: ``TestSupportError`` when playerctl is missing.
    public func playerctl(_ arguments: [String]) throws -> SubprocessResult {
        try Subprocess.run(try Subprocess.tool(named: "playerctl"), arguments, limit: 30, environment: environment)
    }

    /// Calls `method` (e.g. `org.mpris.MediaPlayer2.Player.Pause`, with dbus-send's typed
    /// `arguments` such as `int64:5000000`) on `destination`'s MPRIS object, waiting up to two
    /// minutes for the reply: for in-process players whose handlers wait for a busy main queue
    /// (playerctl gives up after 25 s).
    /// - Throws: ``TestSupportError`` when dbus-send is missing.
    public func callMPRIS(
        _ method: String, _ arguments: [String] = [], destination: String = "org.mpris.MediaPlayer2.playhead"
    ) throws -> SubprocessResult {
        try Subprocess.run(
            try Subprocess.tool(named: "dbus-send"),
            ["--bus=\(address)", "--print-reply", "--reply-timeout=120000", "--dest=\(destination)",
                "/org/mpris/MediaPlayer2", method] + arguments, limit: 130)
    }

    /// `playerctl arguments...`'s standard output, trimmed, or nil when it failed.
    public func playerctlOutput(_ arguments: [String]) -> String? {
        guard let result = try? playerctl(arguments), result.ending == .exited(0) else { return nil }
        return result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Polls `condition` every 50 ms until it holds or `seconds` (scaled for slow builds) pass.
    public static func waitUntil(_ seconds: Double = 20, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(TestTimeouts.scaled(seconds))
        while Date() < deadline {
            if condition() { return true }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return condition()
    }

    /// Stops the daemon and removes its folder.
    public func stop() {
        if let daemon = pid.withLock({ value -> pid_t? in defer { value = nil }; return value }) {
            // SIGKILL: a daemon started from the test process may inherit SIGTERM blocked.
            DetachedProcess.end(daemon, signal: SIGKILL)
        }
        try? FileManager.default.removeItem(at: directory)
    }
}

/// `dbus-monitor` on a test bus, collecting what it prints.
public final class BusMonitor: @unchecked Sendable {
    /// dbus-monitor's process id.
    private let pid: pid_t
    private let text = Locked("")
    private let finished = DispatchSemaphore(value: 0)

    /// Starts watching `bus` for messages matching `rule` (a D-Bus match rule) and returns
    /// once the monitor is connected.
    /// - Throws: ``TestSupportError`` when dbus-monitor is missing or cannot start.
    public init(bus: SessionBus, rule: String) throws {
        let reader: FileHandle
        do {
            (pid, reader) = try Subprocess.spawnReadingOutput(
                try Subprocess.tool(named: "dbus-monitor"), ["--address", bus.address, rule])
        } catch {
            throw TestSupportError("cannot start dbus-monitor: \(error)")
        }
        Thread.detachNewThread { [text, finished] in
            while true {
                let data = reader.availableData
                if data.isEmpty { break }
                text.withLock { $0 += String(decoding: data, as: UTF8.self) }
            }
            finished.signal()
        }
        // The monitor prints its own NameAcquired signal once it listens.
        _ = SessionBus.waitUntil(10) { text.withLock { $0.contains("NameAcquired") || $0.contains("NameLost") } }
    }

    /// What the monitor printed so far.
    public var output: String { text.withLock { $0 } }

    /// Stops the monitor.
    public func stop() {
        DetachedProcess.end(pid, signal: SIGKILL)
        _ = finished.wait(timeout: .now() + 5)
    }
}
