// Playhead: `playhead play` on a real PulseAudio server the test starts: the sound reaches the
// chosen sink, a sink that does not exist costs one line and no playback, and the report
// counts the server's buffer running dry.
import Foundation
import PlayheadTestSupport
import Testing

@Suite struct PlaySoundServerTests {
    /// This process's environment pointed at `server`, with SDL's test driver choice removed
    /// (it would make the binary use SDL).
    private func environment(for server: PulseAudioServer) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["SDL_AUDIODRIVER"] = nil
        environment["PULSE_SERVER"] = server.address
        return environment
    }

    /// A 440 Hz sine of `seconds` as 48 kHz PCM in Matroska.
    private func tone(seconds: Int) throws -> URL {
        try GeneratedMedia.url(
            named: "tone-\(seconds)s", fileExtension: "mka",
            ffmpeg: ["-f", "lavfi", "-i", "sine=f=440:d=\(seconds):sample_rate=48000", "-c:a", "pcm_s16le"])
    }

    private func startServer() async throws -> PulseAudioServer {
        try await offPool { try PulseAudioServer() }
    }

    @Test(.enabled(if: ProcessInfo.processInfo.environment["PLAYHEAD_REALTIME_TESTS"] != nil))
    func theSoundReachesTheChosenSinkOnASoundServer() async throws {
        let clip = try LipSyncMedia.flashAndBeep(seconds: 3)
        let server = try await startServer()
        defer { server.stop() }
        let recording = try await offPool { try MonitorRecording(server: server) }
        guard
            let result = try await PlayheadProcess.run(
                ["play", "--headless", "--audio-device", PulseAudioServer.sinkName, "--report", "json", clip.path],
                limit: 30, environment: environment(for: server))
        else { return }
        let heard = recording.stop()
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.isEmpty, "\(result.standardError)")
        let beeps = LipSyncMedia.beepOnsets(in: heard.samples, sampleRate: recording.sampleRate)
        #expect(beeps.count == 3, "a beep at 0, 1 and 2 s: \(beeps.count)")
        let json = try PlayheadProcess.jsonObject(result)
        #expect(json["status"] as? String == "completed")
        #expect(json["audioUnderruns"] as? Int == 0, "\(json["audioUnderruns"] ?? "none")")
        // The server's buffer never ran dry on a quiet machine, the end played out included.
        #expect(json["audioDeviceUnderruns"] as? Int == 0, "\(json["audioDeviceUnderruns"] ?? "none")")
    }

    @Test(.enabled(if: ProcessInfo.processInfo.environment["PLAYHEAD_REALTIME_TESTS"] != nil))
    func aSinkThatDoesNotExistCostsOneLineAndNoPlaybackOnASoundServer() async throws {
        let clip = try LipSyncMedia.flashAndBeep(seconds: 1)
        let server = try await startServer()
        defer { server.stop() }
        guard
            let (result, json) = try await runReport(
                ["play", "--headless", "--audio-device", "nosuch", "--report", "json", clip.path],
                environment: environment(for: server))
        else { return }
        #expect(result.status == 0)
        #expect(json["status"] as? String == "completed")
        let lines = result.standardError.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].hasPrefix("playhead: "), "\(result.standardError)")
    }

    @Test(.enabled(if: ProcessInfo.processInfo.environment["PLAYHEAD_REALTIME_TESTS"] != nil))
    func theLastFilesTailIsHeardCompleteOnASoundServer() async throws {
        let clip = try tone(seconds: 1)
        let server = try await startServer()
        defer { server.stop() }
        let recording = try await offPool { try MonitorRecording(server: server) }
        guard
            let result = try await PlayheadProcess.run(
                ["play", "--headless", clip.path], limit: 30, environment: environment(for: server))
        else { return }
        try await Task.sleep(nanoseconds: 300_000_000)
        let heard = recording.stop()
        #expect(result.status == 0, "\(result.standardError)")
        let loud = heard.samples.indices.filter { abs(heard.samples[$0]) > 0.05 }
        let first = try #require(loud.first), last = try #require(loud.last)
        let seconds = Double(last - first) / Double(recording.sampleRate)
        // The longest run of quiet samples inside the tone (a dropout would be one), and where.
        var longest = (length: 0, at: 0), run = 0
        for index in first...last {
            run = abs(heard.samples[index]) > 0.05 ? 0 : run + 1
            if run > longest.length { longest = (run, index - run + 1 - first) }
        }
        let gap = Double(longest.length) / Double(recording.sampleRate) * 1000
        let gapAt = Double(longest.at) / Double(recording.sampleRate)
        // One second of tone, all of it (the last period included), before the process exits,
        // with no gap at the start (a busy machine once gave the stream's first request only
        // 32 ms of decoded audio; the ring now waits until the whole request is there), and
        // the end not cut (a loaded machine once let the process exit before the close that
        // starts the playing out had run: 50-80 ms of the tail were lost).
        #expect(seconds > 0.995 && seconds < 1.01, "\(seconds) s heard; longest quiet run \(gap) ms at \(gapAt) s; \(result.standardError)")
    }

    /// Two files cut from one continuous 440 Hz sine at a sample boundary, played as a queue:
    /// on one shared device stream the recording is the unbroken sine, no silence, no jump.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["PLAYHEAD_REALTIME_TESTS"] != nil))
    func aQueueOfTwoFilesJoinsSampleExactlyOnASoundServer() async throws {
        func half(_ name: String, _ trim: String) throws -> URL {
            try GeneratedMedia.url(
                named: name, fileExtension: "mka",
                ffmpeg: [
                    "-f", "lavfi", "-i", "sine=f=440:d=2:sample_rate=48000", "-af", trim, "-c:a", "pcm_s16le",
                ])
        }
        let first = try half("sine-first-second", "atrim=end_sample=48000")
        let second = try half("sine-second-second", "atrim=start_sample=48000,asetpts=PTS-STARTPTS")
        let server = try await startServer()
        defer { server.stop() }
        let recording = try await offPool { try MonitorRecording(server: server) }
        guard
            let result = try await PlayheadProcess.run(
                ["play", "--headless", first.path, second.path], limit: 30, environment: environment(for: server))
        else { return }
        try await Task.sleep(nanoseconds: 300_000_000)
        let heard = recording.stop()
        #expect(result.status == 0, "\(result.standardError)")
        let samples = heard.samples
        let loud = samples.indices.filter { abs(samples[$0]) > 0.05 }
        let start = try #require(loud.first), end = try #require(loud.last)
        let seconds = Double(end - start) / Double(recording.sampleRate)
        #expect(seconds > 1.995 && seconds < 2.01, "\(seconds) s heard of 2 s")
        // Silence inside: the longest run of near-zero samples (a sine at this level has at
        // most two around each zero crossing).
        var run = 0, longest = 0
        var jump: Float = 0
        try #require(end > start)
        for index in (start + 1)...end {
            run = abs(samples[index]) < 0.004 ? run + 1 : 0
            longest = max(longest, run)
            jump = max(jump, abs(samples[index] - samples[index - 1]))
        }
        // A 440 Hz sine of amplitude 1/8 moves at most 2π·440/48000/8 ≈ 0.0072 per sample: a
        // gap, an overlap or a repeat at the join shows as a larger step.
        #expect(longest <= 3, "\(longest) silent samples inside the tone")
        #expect(jump < 0.011, "a step of \(jump) between samples")
    }

    /// The server killed mid-play and started again: playback completes, one line says it went
    /// away (and one that it is back), and the report counts the loss.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["PLAYHEAD_REALTIME_TESTS"] != nil))
    func aLostServerIsOneLineAndCountedInTheReportOnASoundServer() async throws {
        let clip = try tone(seconds: 5)
        let server = try await startServer()
        defer { server.stop() }
        async let run = PlayheadProcess.run(
            ["play", "--headless", "--report", "json", clip.path], limit: 30, environment: environment(for: server))
        try await Task.sleep(nanoseconds: 1_500_000_000)
        try await offPool { server.kill() }
        try await Task.sleep(nanoseconds: 500_000_000)
        try await offPool { try server.start() }
        guard let result = try await run else { return }
        #expect(result.status == 0, "\(result.standardError)")
        let lines = result.standardError.split(separator: "\n").map(String.init)
        #expect(lines.filter { $0.contains("went away") }.count == 1, "\(lines)")
        #expect(lines.allSatisfy { $0.hasPrefix("playhead: the sound server") }, "\(lines)")
        let json = try PlayheadProcess.jsonObject(result)
        #expect(json["status"] as? String == "completed")
        #expect(json["audioServerLosses"] as? Int == 1, "\(json["audioServerLosses"] ?? "none")")
        let position = json["position"] as? Double ?? 0
        #expect(abs(position - 5) < 0.1, "played to the end: \(position)")
    }

    /// Playhead frozen mid-play (SIGSTOP for half a second, as a starved machine would leave
    /// it) with a 100 ms queue on the server: the server's buffer for the stream runs dry,
    /// which the report counts as the device's underrun (a gap the ring's own count cannot
    /// see), and the stream grows its queue, so a second, 80 ms freeze (longer than the first
    /// queue held) loses nothing; playback completes. The thread writing the stream runs
    /// real-time where the system allows it (as root here).
    @Test(.enabled(if: ProcessInfo.processInfo.environment["PLAYHEAD_REALTIME_TESTS"] != nil))
    func aFrozenPlayerLosesSoundOnceAndItsStreamGrowsOnASoundServer() async throws {
        let clip = try tone(seconds: 5)
        let server = try await startServer()
        defer { server.stop() }
        let executable = try #require(PlayheadBinary.url)
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("playhead-frozen-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: output) }
        FileManager.default.createFile(atPath: output.path, contents: nil)
        let handle = try FileHandle(forWritingTo: output)
        var environment = environment(for: server)
        environment["PLAYHEAD_AUDIO_BUFFER"] = "0.1"
        let process = try SpawnedProcess(
            executable, ["play", "--headless", "--report", "json", clip.path], environment: environment,
            output: handle.fileDescriptor)
        try await Task.sleep(nanoseconds: 1_500_000_000)
        let policies = Self.schedulingPolicies(of: process.processIdentifier)
        process.send(SIGSTOP)
        try await Task.sleep(nanoseconds: 500_000_000)
        process.send(SIGCONT)
        try await Task.sleep(nanoseconds: 1_000_000_000)
        process.send(SIGSTOP)
        try await Task.sleep(nanoseconds: 80_000_000)
        process.send(SIGCONT)
        let ended = try await offPool { process.wait(seconds: 30) }
        if !ended { process.send(SIGKILL) }
        try handle.close()
        #expect(ended && process.terminationStatus == 0)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: output)) as? [String: Any])
        #expect(json["status"] as? String == "completed")
        #expect(json["audioDeviceUnderruns"] as? Int == 1, "\(json["audioDeviceUnderruns"] ?? "none")")
        if Self.realtimeIsAllowed() {
            // SCHED_RR (2) for libpulse's main loop thread.
            #expect(policies["threaded-ml"] == 2, "\(policies)")
        }
    }

    /// Whether a thread of this process may switch itself to SCHED_RR (root with
    /// CAP_SYS_NICE, or an RLIMIT_RTPRIO that allows it), tried on a thread of its own.
    private static func realtimeIsAllowed() -> Bool {
        final class Answer: @unchecked Sendable {
            var allowed = false  // written before `done` is signalled, read after
            let done = DispatchSemaphore(value: 0)
        }
        let answer = Answer()
        Thread.detachNewThread {
            var parameters = sched_param(sched_priority: 1)
            answer.allowed = pthread_setschedparam(pthread_self(), Int32(SCHED_RR), &parameters) == 0
            answer.done.signal()
        }
        answer.done.wait()
        return answer.allowed
    }

    /// The scheduling policy of each thread of `pid`, by thread name (from /proc).
    private static func schedulingPolicies(of pid: pid_t) -> [String: Int] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        var policies: [String: Int] = [:]
        for task in tasks {
            guard let name = try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/comm", encoding: .utf8),
                let stat = try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { continue }
            // After the name: state is field 3, policy field 41.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            if fields.count > 38, let policy = Int(fields[38]) {
                policies[name.trimmingCharacters(in: .whitespacesAndNewlines)] = policy
            }
        }
        return policies
    }

    @Test(.enabled(if: ProcessInfo.processInfo.environment["PLAYHEAD_REALTIME_TESTS"] != nil))
    func devicesListsTheSinksWithTheDefaultMarkedOnASoundServer() async throws {
        let server = try await startServer()
        defer { server.stop() }
        try await offPool { try server.addSink("second") }
        guard let table = try await PlayheadProcess.run(["devices"], limit: 30, environment: environment(for: server))
        else { return }
        #expect(table.status == 0, "\(table.standardError)")
        let lines = table.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.count == 2, "\(lines)")
        #expect(lines.first { $0.hasPrefix("* ") }?.contains(PulseAudioServer.sinkName) == true, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("  second") && $0.contains("2 ch, 48000 Hz") }, "\(lines)")
        try await offPool { try server.setDefaultSink("second") }
        guard let listed = try await PlayheadProcess.run(["devices", "--json"], limit: 30, environment: environment(for: server))
        else { return }
        let array = try #require(try JSONSerialization.jsonObject(with: listed.outputData) as? [[String: Any]])
        let defaults = array.filter { $0["isDefault"] as? Bool == true }.compactMap { $0["uniqueID"] as? String }
        #expect(defaults == ["second"], "\(array)")
    }

    /// Played without a device named, the sound moves with the default sink when the desktop
    /// changes it mid-play.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["PLAYHEAD_REALTIME_TESTS"] != nil))
    func playbackFollowsTheDefaultSinkWhenItChangesOnASoundServer() async throws {
        let clip = try tone(seconds: 4)
        let server = try await startServer()
        defer { server.stop() }
        try await offPool { try server.addSink("second") }
        let first = try await offPool { try MonitorRecording(server: server) }
        let second = try await offPool { try MonitorRecording(server: server, sink: "second") }
        async let run = PlayheadProcess.run(["play", "--headless", clip.path], limit: 30, environment: environment(for: server))
        try await Task.sleep(nanoseconds: 1_500_000_000)
        try await offPool { try server.setDefaultSink("second") }
        guard let result = try await run else { return }
        try await Task.sleep(nanoseconds: 300_000_000)
        let (before, after) = (first.stop(), second.stop())
        #expect(result.status == 0, "\(result.standardError)")
        func loudSeconds(_ samples: [Float]) -> Double { Double(samples.filter { abs($0) > 0.05 }.count) / 48_000 }
        #expect(loudSeconds(before.samples) > 0.5, "sound on the first default: \(loudSeconds(before.samples)) s")
        #expect(loudSeconds(after.samples) > 1.0, "sound on the new default: \(loudSeconds(after.samples)) s")
    }

    private func runReport(_ arguments: [String], environment: [String: String]) async throws
        -> (SubprocessResult, [String: Any])?
    {
        guard let result = try await PlayheadProcess.run(arguments, limit: 30, environment: environment) else {
            return nil
        }
        return (result, try PlayheadProcess.jsonObject(result))
    }
}

@Suite struct NoSoundServerTests {
    /// This process's environment with a sound server address where none runs (and SDL's test
    /// driver choice removed, so the binary looks for the server as it would for a user).
    private var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["SDL_AUDIODRIVER"] = nil
        environment["PULSE_SERVER"] = "unix:/nonexistent/playhead-no-server"
        return environment
    }

    @Test func withNoSoundServerPlayWarnsInOneLineAndKeepsTimeOnASilentClock() async throws {
        let clip = try LipSyncMedia.flashAndBeep(seconds: 1)
        guard
            let result = try await PlayheadProcess.run(
                ["play", "--headless", "--report", "json", clip.path], limit: 30, environment: environment)
        else { return }
        #expect(result.status == 0)
        let lines = result.standardError.split(separator: "\n")
        // One line from playhead, no library noise (ALSA's fallback messages).
        #expect(lines.count == 1 && lines[0].hasPrefix("playhead: ") && lines[0].hasSuffix("playing with a silent clock"),
            "\(result.standardError)")
        let json = try PlayheadProcess.jsonObject(result)
        #expect(json["status"] as? String == "completed")
        #expect(abs((json["position"] as? Double ?? 0) - 1) < 0.1)
    }

    @Test func withNoSoundServerDevicesSaysSoInOneLineAndExits1() async throws {
        guard let result = try await PlayheadProcess.run(["devices"], limit: 30, environment: environment) else { return }
        #expect(result.status == 1)
        let lines = result.standardError.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].hasPrefix("playhead: sound server: "), "\(result.standardError)")
        #expect(result.standardOutput.isEmpty)
    }
}
