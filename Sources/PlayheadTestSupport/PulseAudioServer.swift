// Playhead: a real PulseAudio server for tests: private directories, one null sink ("probe")
// whose monitor can be recorded, started and stopped by the test itself.
//
// Concurrency: `start`, `stop` and `kill` are called by the test that owns the server; the
// process handle is protected by a lock.
import Foundation
import OpenAVFoundation

/// A PulseAudio daemon of the test's own, reachable at `address`.
public final class PulseAudioServer: @unchecked Sendable {
    /// The private folder holding the socket, `HOME` and the runtime directory.
    public let directory: URL
    /// The server string a client connects to (`unix:<directory>/native`).
    public var address: String { "unix:" + directory.appendingPathComponent("native").path }
    /// The sink everything plays to by default; its monitor is `probe.monitor`.
    public static let sinkName = "probe"
    /// The sink's sample rate.
    public static let sampleRate = 48_000
    /// The daemon's process id while it runs.
    private let pid = Locked<pid_t?>(nil)
    /// The probe sink's channels (2: stereo; 6: 5.1).
    public let channels: Int

    /// Starts a server in a fresh private folder, its probe sink with `channels` channels,
    /// and waits until it answers.
    /// - Throws: ``TestSupportError`` when `pulseaudio` is missing or does not come up in 10 s.
    public init(channels: Int = 2) throws {
        self.channels = channels
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("playhead-pulse-\(UUID().uuidString)")
        for folder in ["home", "run"] {
            try FileManager.default.createDirectory(
                at: directory.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        try start()
    }

    /// Starts the daemon (again, after `kill`) on the same socket and waits until it answers.
    public func start() throws {
        let arguments = [
            "-n", "--daemonize=no", "--exit-idle-time=-1", "--use-pid-file=no", "--realtime=no",
            "--high-priority=no", "--log-target=file:" + directory.appendingPathComponent("log").path,
            "--load=module-native-protocol-unix socket=\(directory.appendingPathComponent("native").path) auth-anonymous=1",
            "--load=module-null-sink sink_name=\(Self.sinkName) rate=\(Self.sampleRate) format=float32le channels=\(channels)"
                + (channels == 6 ? " channel_map=\(MonitorRecording.surroundMap)" : ""),
        ]
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = directory.appendingPathComponent("home").path
        environment["XDG_RUNTIME_DIR"] = directory.appendingPathComponent("run").path
        let daemon = try DetachedProcess.spawn(
            try Subprocess.tool(named: "pulseaudio").path, arguments, environment: environment)
        pid.withLock { $0 = daemon }
        let pactl = try Subprocess.tool(named: "pactl")
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            let answer = try Subprocess.run(pactl, ["--server=\(address)", "info"], limit: 5)
            if answer.ending == .exited(0) { return }
            Thread.sleep(forTimeInterval: 0.05)
        }
        throw TestSupportError("pulseaudio did not answer within 10 s")
    }

    /// Adds another null sink called `name` (its monitor is `<name>.monitor`).
    /// - Throws: ``TestSupportError`` when the server refuses it.
    public func addSink(_ name: String) throws {
        let answer = try Subprocess.run(
            try Subprocess.tool(named: "pactl"),
            ["--server=\(address)", "load-module", "module-null-sink", "sink_name=\(name)", "rate=\(Self.sampleRate)",
                "format=float32le", "channels=2"], limit: 5)
        guard answer.ending == .exited(0) else { throw TestSupportError("pactl could not add the sink \(name)") }
    }

    /// Suspends every sink left idle for `seconds`, as a desktop's server does
    /// (`module-suspend-on-idle`): a stream that plays again afterwards waits for it to wake.
    /// - Throws: ``TestSupportError`` when the server refuses it.
    public func suspendIdleSinks(after seconds: Int) throws {
        let answer = try Subprocess.run(
            try Subprocess.tool(named: "pactl"),
            ["--server=\(address)", "load-module", "module-suspend-on-idle", "timeout=\(seconds)"], limit: 5)
        guard answer.ending == .exited(0) else { throw TestSupportError("pactl could not load module-suspend-on-idle") }
    }

    /// Loads the server module `name` with `arguments` (`key=value`), as a desktop's
    /// configuration does (`module-role-cork`: a call pauses music and video).
    /// - Throws: ``TestSupportError`` when the server refuses it.
    public func loadModule(_ name: String, _ arguments: [String] = []) throws {
        let answer = try Subprocess.run(
            try Subprocess.tool(named: "pactl"), ["--server=\(address)", "load-module", name] + arguments, limit: 5)
        guard answer.ending == .exited(0) else { throw TestSupportError("pactl could not load \(name)") }
    }

    /// Makes `name` the default sink, as a desktop's sound settings do.
    /// - Throws: ``TestSupportError`` when the server refuses it.
    public func setDefaultSink(_ name: String) throws {
        let answer = try Subprocess.run(
            try Subprocess.tool(named: "pactl"), ["--server=\(address)", "set-default-sink", name], limit: 5)
        guard answer.ending == .exited(0) else { throw TestSupportError("pactl could not make \(name) the default") }
    }

    /// Kills the daemon at once (SIGKILL), as a crash would; `start()` brings it back.
    public func kill() { end(signal: SIGKILL) }

    /// Stops the daemon and removes its folder.
    public func stop() {
        end(signal: SIGTERM)
        try? FileManager.default.removeItem(at: directory)
    }

    private func end(signal: Int32) {
        guard let daemon = pid.withLock({ value -> pid_t? in defer { value = nil }; return value }) else { return }
        DetachedProcess.end(daemon, signal: signal)
    }

    /// Server-side underruns logged so far ("Underrun on ..." lines need debug logging; this
    /// counts what the log holds).
    public var logText: String {
        (try? String(contentsOf: directory.appendingPathComponent("log"), encoding: .utf8)) ?? ""
    }
}

/// What reaches the probe sink, recorded from its monitor with `parec` as mono float samples,
/// each stretch stamped with the host time it arrived (the same clock as `SystemHostClock`).
public final class MonitorRecording: @unchecked Sendable {
    /// parec's process id.
    private let pid: pid_t
    private let state = Locked<(samples: [Float], offset: Double)>(([], .infinity))
    private let finished = DispatchSemaphore(value: 0)
    /// Samples per second.
    public let sampleRate = PulseAudioServer.sampleRate
    /// Interleaved channels per frame.
    public let channels: Int
    /// PulseAudio's names for 5.1 in FFmpeg's order (FL FR FC LFE BL BR).
    public static let surroundMap = "front-left,front-right,front-center,lfe,rear-left,rear-right"

    /// Starts recording `server`'s probe monitor (mixed to mono, or each of 5.1's six
    /// channels when `channels` is 6); returns once the first samples arrived (parec takes up
    /// to a second to deliver).
    public convenience init(server: PulseAudioServer, channels: Int = 1, sink: String = PulseAudioServer.sinkName)
        throws
    {
        try self.init(address: server.address, channels: channels, sink: sink)
    }

    /// Starts recording the sink `sink` of the server at `address` (a PulseAudio server, or
    /// PipeWire's pipewire-pulse), as the other initializer does.
    public init(address: String, channels: Int = 1, sink: String = PulseAudioServer.sinkName) throws {
        self.channels = channels
        let arguments = [
            "--server=\(address)", "--device=\(sink).monitor", "--format=float32le",
            "--rate=\(sampleRate)", "--channels=\(channels)", "--latency-msec=2", "--raw",
        ] + (channels == 6 ? ["--channel-map=\(Self.surroundMap)"] : [])
        let reader: FileHandle
        (pid, reader) = try Subprocess.spawnReadingOutput(try Subprocess.tool(named: "parec"), arguments)
        let rate = Double(sampleRate) * Double(channels)
        Thread.detachNewThread { [state, finished] in
            var pending = Data()
            while true {
                let data = reader.availableData
                if data.isEmpty { break }
                let arrived = SystemHostClock.shared.now
                pending.append(data)
                let whole = pending.count / 4 * 4
                let floats = pending.prefix(whole).withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
                pending.removeFirst(whole)
                state.withLock { state in
                    state.samples.append(contentsOf: floats)
                    // Arrival is never earlier than the sound: the earliest arrival relative
                    // to the samples' position gives the host time of sample 0.
                    state.offset = min(state.offset, arrived - Double(state.samples.count) / rate)
                }
            }
            finished.signal()
        }
        let deadline = Date().addingTimeInterval(5)
        while state.withLock({ $0.samples.isEmpty }) && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
    }

    /// Stops recording; returns the samples and the host time of the first one.
    public func stop() -> (samples: [Float], startHost: Double) {
        DetachedProcess.end(pid, signal: SIGTERM)
        _ = finished.wait(timeout: .now() + 5)
        return state.withLock { ($0.samples, $0.offset) }
    }
}

/// Runs `body` on a thread of its own and returns its result: for blocking work (starting a
/// server, a recorder, a reader that waits on the network) from async tests without tying up
/// Swift's cooperative threads or Dispatch's global pool (two threads each on a 2-core machine;
/// `URLSession` delivers its completions through the latter).
public func offPool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread { continuation.resume(with: Result { try body() }) }
    }
}
