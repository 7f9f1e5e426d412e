// Playhead: no dropouts on a busy machine: a 20-second 1 kHz tone played at rates 1, 1.5 and
// 0.75 on a real PulseAudio server while a CPU-bound loop per core runs beside it, the sink's
// monitor recorded. The recording must be unbroken (no silence over 5 ms inside the tone), last
// the clip's length over the rate, and keep its pitch (1 kHz at every rate).
import Foundation
import PlayheadTestSupport
import Testing

@Suite struct DropoutSoundServerTests {
    /// One busy loop per core until `stop()`.
    private struct CPULoad {
        let pids: [pid_t]
        init() throws {
            let cores = max(1, ProcessInfo.processInfo.activeProcessorCount)
            pids = try (0..<cores).map { _ in
                try DetachedProcess.spawn("/bin/sh", ["-c", "while :; do :; done"], environment: [:])
            }
        }
        func stop() { for pid in pids { DetachedProcess.end(pid, signal: SIGKILL) } }
    }

    /// What the monitor heard of a tone: its length, the longest silence inside and its pitch.
    private struct HeardTone: CustomStringConvertible {
        var seconds = 0.0
        var longestSilence = 0.0
        /// Seconds from the first loud sample to the longest silence.
        var silenceAt = 0.0
        var frequency = 0.0
        var description: String {
            String(
                format: "heard %.3f s, longest silence inside %.1f ms at %.3f s, %.1f Hz", seconds,
                longestSilence * 1000, silenceAt, frequency)
        }

        init(_ samples: [Float], sampleRate: Int) {
            let loud = samples.indices.filter { abs(samples[$0]) > 0.1 }
            guard let start = loud.first, let end = loud.last, end > start else { return }
            seconds = Double(end - start) / Double(sampleRate)
            var run = 0, longest = 0, crossings = 0
            for index in (start + 1)...end {
                run = abs(samples[index]) < 0.02 ? run + 1 : 0
                if run > longest {
                    longest = run
                    silenceAt = Double(index - run + 1 - start) / Double(sampleRate)
                }
                if (samples[index] >= 0) != (samples[index - 1] >= 0) { crossings += 1 }
            }
            longestSilence = Double(longest) / Double(sampleRate)
            frequency = Double(crossings) / 2 / seconds
        }
    }

    @Test(
        .enabled(if: ProcessInfo.processInfo.environment["PLAYHEAD_REALTIME_TESTS"] != nil),
        arguments: [1.0, 1.5, 0.75])
    func aBusyMachinePlaysTwentySecondsWithoutADropoutOnASoundServer(rate: Double) async throws {
        let seconds = 20.0
        let clip = try GeneratedMedia.url(
            named: "tone-1khz-20s", fileExtension: "mka",
            ffmpeg: ["-f", "lavfi", "-i", "sine=f=1000:d=20:sample_rate=48000", "-af", "volume=4", "-c:a", "pcm_s16le"])
        let server = try await offPool { try PulseAudioServer() }
        defer { server.stop() }
        let recording = try await offPool { try MonitorRecording(server: server) }
        var environment = ProcessInfo.processInfo.environment
        environment["SDL_AUDIODRIVER"] = nil
        environment["PULSE_SERVER"] = server.address
        let load = try CPULoad()
        let result = try await PlayheadProcess.run(
            ["play", "--headless", "--rate", String(rate), "--report", "json", clip.path],
            limit: seconds / rate + 20, environment: environment)
        load.stop()
        try await Task.sleep(nanoseconds: 300_000_000)
        let heard = recording.stop()
        guard let result else { return }
        #expect(result.status == 0, "\(result.standardError)")
        let tone = HeardTone(heard.samples, sampleRate: recording.sampleRate)
        let json = try PlayheadProcess.jsonObject(result)
        // The server's own buffer for the stream running dry (the server or Playhead's write
        // not scheduled in time) tells a server-side gap from one of Playhead's ring.
        let serverSide = "the server's buffer ran dry \(json["audioDeviceUnderruns"] ?? "?") times"
        print("rate \(rate) beside \(load.pids.count) busy loops: \(tone); \(serverSide)")
        #expect(tone.longestSilence <= 0.005, "a dropout at rate \(rate): \(tone); \(serverSide)")
        #expect(abs(tone.seconds - seconds / rate) < 0.1, "at rate \(rate): \(tone)")
        #expect(abs(tone.frequency - 1000) < 10, "the pitch kept at rate \(rate): \(tone)")
        #expect(json["audioUnderruns"] as? Int == 0, "\(json["audioUnderruns"] ?? "none") underruns at rate \(rate)")
    }
}
