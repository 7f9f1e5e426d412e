// Playhead: a private PipeWire sound server (pipewire, wireplumber and pipewire-pulse on their
// own session bus), started by a test, with a null sink called "probe" as its default: the
// desktop sound server of current Linux distributions, spoken to through its PulseAudio
// protocol like a PulseAudio server.
//
// Concurrency: `init` and `stop()` block while the daemons start or end; call them off the
// cooperative pool (`offPool`).
import Foundation

/// A PipeWire server in a private folder, for one test.
public final class PipeWireServer: @unchecked Sendable {
    /// The folder holding its runtime directory, home and logs.
    public let directory: URL
    /// Where clients reach it (`PULSE_SERVER`, `pactl --server=`).
    public var address: String { "unix:" + directory.appendingPathComponent("run/pulse/native").path }

    private static let script = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("scripts/pipewire-session.sh").path

    /// Starts the server and waits (at most 15 s) until its probe sink is the default.
    /// - Throws: ``TestSupportError`` when PipeWire is missing or does not come up.
    public init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("playhead-pipewire-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var environment = ProcessInfo.processInfo.environment
        environment["PULSE_SERVER"] = nil
        let pid = try DetachedProcess.spawn("/bin/bash", [Self.script, directory.path], environment: environment)
        let ready = directory.appendingPathComponent("ready").path
        let deadline = Date().addingTimeInterval(15)
        while !FileManager.default.fileExists(atPath: ready), Date() < deadline {
            Thread.sleep(forTimeInterval: 0.05)
        }
        DetachedProcess.end(pid, signal: SIGKILL)
        guard FileManager.default.fileExists(atPath: ready) else {
            stop()
            throw TestSupportError("PipeWire did not come up within 15 s (see \(directory.path))")
        }
    }

    /// Ends the daemons and removes the folder.
    public func stop() {
        let pids = (try? String(contentsOf: directory.appendingPathComponent("pids"), encoding: .utf8)) ?? ""
        for line in pids.split(separator: "\n") {
            if let pid = pid_t(line.trimmingCharacters(in: .whitespaces)) { Foundation.kill(pid, SIGKILL) }
        }
        try? FileManager.default.removeItem(at: directory)
    }
}
