// Playhead: a private X server (Xvfb) with a window manager (openbox) for window tests, and
// the tools that drive it (xdotool, ImageMagick's import).
//
// The session starts once per test process, on the first free display from :99, through
// scripts/xvfb-session.sh, which takes the server down when this process exits (even when it is
// killed). Tests that need it are disabled (skipped, not failed) when a tool is missing or Xvfb
// does not start.
import Foundation
import PlayheadTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// A running Xvfb + openbox pair.
final class XSession: Sendable {
    static let width = 1280
    static let height = 800

    /// The shared session, or nil when X tests cannot run here.
    static let shared: XSession? = start()

    /// scripts/xvfb-session.sh, found from this file's location.
    static let scriptPath = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("scripts/xvfb-session.sh").path

    /// The display name, e.g. ":99".
    let display: String
    private let script: SpawnedProcess.Box
    /// The write end of the script's stdin: it closes when this process exits, which tells the
    /// script to stop the server.
    private let keepAlive: Pipe.Box

    private init(display: String, script: SpawnedProcess.Box, keepAlive: Pipe) {
        self.display = display
        self.script = script
        self.keepAlive = Pipe.Box(keepAlive)
    }

    /// Where a tool lives, if installed.
    static func tool(_ name: String) -> String? {
        let directories = ["/usr/bin", "/usr/local/bin"]
            + (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
        return directories.map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    private static func start() -> XSession? {
        guard tool("Xvfb") != nil, tool("openbox") != nil, tool("xdotool") != nil,
            tool("import") != nil, let bash = tool("bash"),
            FileManager.default.fileExists(atPath: scriptPath)
        else { return nil }
        for number in 99..<140 where !FileManager.default.fileExists(atPath: "/tmp/.X\(number)-lock") {
            let display = ":\(number)"
            let input = Pipe(), output = Pipe()
            guard
                let process = try? SpawnedProcess(
                    URL(fileURLWithPath: bash),
                    [scriptPath, display, "\(width)x\(height)", String(ProcessInfo.processInfo.processIdentifier)],
                    input: input.fileHandleForReading.fileDescriptor, output: output.fileHandleForWriting.fileDescriptor)
            else { return nil }
            // The script's ends: its standard output reaches EOF here once it is gone.
            try? input.fileHandleForReading.close()
            try? output.fileHandleForWriting.close()
            guard output.fileHandleForReading.line(timeout: 15) == "ready" else {
                process.send(SIGKILL)
                continue
            }
            return XSession(display: display, script: SpawnedProcess.Box(process), keepAlive: input)
        }
        return nil
    }

    /// Starts `executable` with `arguments` on `display`; standard output is discarded and
    /// standard error kept in a temporary file (`SpawnedProcess.Box.errorLog`) for failure messages.
    static func launch(
        _ executable: String, _ arguments: [String], display: String,
        environment extra: [String: String] = [:]
    ) -> SpawnedProcess.Box? {
        var environment = ProcessInfo.processInfo.environment
        environment["DISPLAY"] = display
        environment.removeValue(forKey: "WAYLAND_DISPLAY")
        environment.removeValue(forKey: "SDL_VIDEODRIVER")
        // Never the developer's own session bus (MPRIS): a test that wants one passes its own.
        environment.removeValue(forKey: "DBUS_SESSION_BUS_ADDRESS")
        // Resume positions (which window runs record) go to a private folder, not the
        // developer's ~/.local/state.
        let stateFolder = FileManager.default.temporaryDirectory
            .appendingPathComponent("playhead-x-state-\(UUID().uuidString)")
        environment["XDG_STATE_HOME"] = stateFolder.path
        // An empty value removes the variable (SDL_AUDIODRIVER, which would bypass the sound server).
        for (key, value) in extra { environment[key] = value.isEmpty ? nil : value }
        let errorLog = FileManager.default.temporaryDirectory
            .appendingPathComponent("playhead-x-\(UUID().uuidString).err")
        FileManager.default.createFile(atPath: errorLog.path, contents: nil)
        let errorHandle = try? FileHandle(forWritingTo: errorLog)
        defer { try? errorHandle?.close() }
        guard
            let process = try? SpawnedProcess(
                URL(fileURLWithPath: executable), arguments, environment: environment,
                error: errorHandle?.fileDescriptor)
        else { return nil }
        return SpawnedProcess.Box(process, errorLog: errorLog, stateFolder: stateFolder)
    }

    /// Runs a tool on `display` and returns its status and standard output; a tool still
    /// running after `timeout` seconds is killed (and nil returned).
    @discardableResult
    static func run(_ name: String, _ arguments: [String], display: String?, timeout: Double = 60)
        -> (status: Int32, output: String)?
    {
        guard let path = tool(name) else { return nil }
        var environment = ProcessInfo.processInfo.environment
        environment["DISPLAY"] = display
        guard let result = try? Subprocess.run(URL(fileURLWithPath: path), arguments, limit: timeout, environment: environment),
            result.ending != .hung
        else { return nil }
        return (result.status, result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// Runs a tool on this session's display, killing it after 10 seconds.
    @discardableResult
    func run(_ name: String, _ arguments: [String]) -> (status: Int32, output: String)? {
        Self.run(name, arguments, display: display, timeout: 10)
    }
}

extension SpawnedProcess {
    /// A launched process with the files it leaves behind, removed when the box goes.
    final class Box: @unchecked Sendable {
        let process: SpawnedProcess
        /// Where the process's standard error goes, when kept.
        let errorLog: URL?
        /// The process's XDG_STATE_HOME, when private.
        let stateFolder: URL?
        init(_ process: SpawnedProcess, errorLog: URL? = nil, stateFolder: URL? = nil) {
            self.process = process
            self.errorLog = errorLog
            self.stateFolder = stateFolder
        }
        deinit {
            for url in [errorLog, stateFolder].compactMap({ $0 }) { try? FileManager.default.removeItem(at: url) }
        }
    }
}

extension Pipe {
    /// A pipe kept open for the life of the process.
    final class Box: @unchecked Sendable {
        let pipe: Pipe
        init(_ pipe: Pipe) { self.pipe = pipe }
    }
}

extension FileHandle {
    /// Reads one line (without its newline) within `timeout` seconds; nil on timeout or EOF.
    func line(timeout: Double) -> String? {
        let descriptor = fileDescriptor
        var bytes: [UInt8] = []
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 100) > 0 else { continue }
            var byte: UInt8 = 0
            guard Glibc.read(descriptor, &byte, 1) == 1 else { return nil }
            if byte == UInt8(ascii: "\n") { return String(decoding: bytes, as: UTF8.self) }
            bytes.append(byte)
        }
        return nil
    }
}
