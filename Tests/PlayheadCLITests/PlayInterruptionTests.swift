// Playhead: `playhead play` on a real PulseAudio server running `module-role-cork`: a call (a
// `pacat` stream with the phone role) pauses playback with one line, its end lets playback go
// on with another, and the file still plays to its end.
import Foundation
import PlayheadTestSupport
import Testing

@Suite struct PlayInterruptionTests {
    @Test(.enabled(if: ProcessInfo.processInfo.environment["PLAYHEAD_REALTIME_TESTS"] != nil))
    func aCallPausesPlayWithOneLineAndItsEndLetsItGoOnOnASoundServer() async throws {
        let clip = try GeneratedMedia.url(
            named: "tone-3s", fileExtension: "mka",
            ffmpeg: ["-f", "lavfi", "-i", "sine=f=440:d=3:sample_rate=48000", "-c:a", "pcm_s16le"])
        let server = try await offPool { try PulseAudioServer() }
        defer { server.stop() }
        try await offPool { try server.loadModule("module-role-cork") }
        var environment = ProcessInfo.processInfo.environment
        environment["SDL_AUDIODRIVER"] = nil
        environment["PULSE_SERVER"] = server.address
        let address = server.address
        // The call starts once playhead's stream plays (the server asks only streams that are
        // not corked to pause), and lasts a second.
        let caller = Task.detached { () throws -> Bool in
            let pactl = try Subprocess.tool(named: "pactl")
            let deadline = Date().addingTimeInterval(15)
            while Date() < deadline {
                let inputs = try Subprocess.run(
                    pactl, ["--server=\(address)", "list", "sink-inputs"], limit: 5,
                    environment: ProcessInfo.processInfo.environment.merging(["LC_ALL": "C"]) { $1 })
                let playing = inputs.standardOutput.components(separatedBy: "Sink Input #").contains {
                    $0.contains("media.role = \"video\"") && $0.contains("Corked: no")
                }
                if playing { break }
                try await Task.sleep(nanoseconds: 20_000_000)
            }
            guard Date() < deadline else { return false }
            try await Task.sleep(nanoseconds: 300_000_000)
            let call = try SpawnedProcess(
                try Subprocess.tool(named: "pacat"), ["--server=\(address)", "--property=media.role=phone", "/dev/zero"])
            try await Task.sleep(nanoseconds: 1_000_000_000)
            call.terminate()
            _ = call.wait(seconds: 5)
            return true
        }
        let started = Date()
        guard
            let result = try await PlayheadProcess.run(
                ["play", "--headless", "--report", "json", clip.path], limit: 30, environment: environment)
        else { return }
        let elapsed = Date().timeIntervalSince(started)
        #expect(try await caller.value, "playhead's stream appeared on the server")
        #expect(result.status == 0, "\(result.standardError)")
        let lines = result.standardError.split(separator: "\n").map(String.init)
        #expect(
            lines == [
                "playhead: paused: the sound server gave the speakers to another stream (a call)",
                "playhead: the sound server let playback go on",
            ], "\(result.standardError)")
        #expect(try PlayheadProcess.jsonObject(result)["status"] as? String == "completed")
        #expect(elapsed > 3.8, "the call's second was not played through: \(elapsed) s")
    }
}
