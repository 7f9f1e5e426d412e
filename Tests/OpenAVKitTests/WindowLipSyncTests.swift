// Playhead: lip-sync as a viewer sees and hears it: `playhead play --fullscreen` on Xvfb with a
// real PulseAudio server, the flash found by grabbing the screen (x11grab, 100 grabs a second)
// and the beep in the sink's monitor, on one clock; mpv measured the same way in the same run,
// on PulseAudio and on PipeWire (through pipewire-pulse).
//
// Runs in the sound-server pass (one test at a time): the display is the shared XSession's,
// the server the test's own.
import Foundation
import PlayheadTestSupport
import Testing

@Suite(.serialized) struct WindowLipSyncTests {
    /// Offsets (sound minus picture, seconds) of each flash after the first second.
    private func measure(
        _ executable: String, _ arguments: [String], session: XSession, server: String, seconds: Int
    ) async throws -> [Double] {
        let recording = try await offPool { try MonitorRecording(address: server) }
        // Left of the centre controls and below the top bar, inside the 800×800 picture.
        let grab = try ScreenBrightness(display: session.display, x: 300, y: 300, seconds: Double(seconds) + 3)
        let box = try #require(
            XSession.launch(
                executable, arguments, display: session.display,
                environment: ["PULSE_SERVER": server, "SDL_AUDIODRIVER": ""]))
        let run = PlayheadRun(box: box)
        let status = await run.waitForExit(timeout: Double(seconds) + 15)
        if status == nil { box.process.terminate() }
        let grabs = try await offPool { grab.finish() }
        try await Task.sleep(nanoseconds: 200_000_000)
        let heard = recording.stop()
        let beeps = LipSyncMedia.beepOnsets(in: heard.samples, sampleRate: recording.sampleRate)
            .map { heard.startHost + Double($0) / Double(recording.sampleRate) }
        let flashes = ScreenBrightness.flashOnsets(in: grabs)
        var offsets: [Double] = []
        // The first flash (at 0 s) comes with the window opening: measured from the second on.
        for flash in flashes.dropFirst() {
            guard let beep = beeps.min(by: { abs($0 - flash) < abs($1 - flash) }), abs(beep - flash) < 0.3 else { continue }
            offsets.append(beep - flash)
        }
        print("\(URL(fileURLWithPath: executable).lastPathComponent): \(grabs.count) grabs, \(flashes.count) flashes, \(beeps.count) beeps, sound minus picture ms \(offsets.map { ($0 * 1000).rounded() })")
        return offsets
    }

    /// The goals the test checks: a mean of at most 10 ms and no flash beyond 25 ms.
    private static func isInSync(_ offsets: [Double]) -> Bool {
        mean(offsets) <= 0.010 && offsets.allSatisfy { abs($0) <= 0.025 }
    }

    private static func mean(_ offsets: [Double]) -> Double {
        offsets.map(abs).reduce(0, +) / Double(max(1, offsets.count))
    }

    /// Plays the flash-and-beep clip in a fullscreen window on `server` with playhead, then
    /// with mpv, and checks playhead's offsets. With several `attempts`, plays again while
    /// playhead's run misses; when mpv's run in the same rig missed too every time, the rig's
    /// timing is what drifted and the miss is recorded as a known issue instead of a failure.
    private func compareWithMpv(server: String, label: String, attempts: Int = 1) async throws {
        guard let session = XSession.shared else {
            Issue.record("no X session (Xvfb and openbox are installed by make deps)")
            return
        }
        guard let binary = PlayerWindowXTests.playheadBinary else {
            Issue.record("playhead executable not found; set PLAYHEAD_BINARY")
            return
        }
        guard let mpv = XSession.tool("mpv") else {
            Issue.record("mpv is not installed (make deps installs it): nothing to compare with")
            return
        }
        let seconds = 6
        let clip = try LipSyncMedia.flashAndBeep(seconds: seconds)
        var ours: [Double] = []
        var rigDrifted = true
        for attempt in 1...max(1, attempts) {
            ours = try await measure(
                binary, ["play", "--fullscreen", clip.path], session: session, server: server, seconds: seconds)
            let theirs = try await measure(
                mpv, ["--no-config", "--really-quiet", "--fs", "--vo=x11", "--ao=pulse", clip.path],
                session: session, server: server, seconds: seconds)
            print(String(format: "window lip-sync on %@, mean |sound - picture|: playhead %.1f ms, mpv %.1f ms", label, Self.mean(ours) * 1000, Self.mean(theirs) * 1000))
            let mpvInSync = theirs.count >= seconds - 2 && Self.isInSync(theirs)
            if mpvInSync { rigDrifted = false }
            if ours.count >= seconds - 2 && Self.isInSync(ours) {
                rigDrifted = false
                break
            }
            if attempt < attempts { print("\(label): playhead's run \(attempt) missed (mpv's \(mpvInSync ? "did not" : "too")); again") }
        }
        let check = {
            #expect(ours.count >= seconds - 2, "a beep heard for each flash seen: \(ours.count)")
            #expect(Self.mean(ours) <= 0.010, "\(label): sound minus picture, ms: \(ours.map { ($0 * 1000).rounded() })")
            #expect(ours.allSatisfy { abs($0) <= 0.025 }, "\(label): \(ours.map { ($0 * 1000).rounded() })")
        }
        if rigDrifted && attempts > 1 {
            // Every run, mpv's too, missed: on the 2-core CI machine the rig's timing sometimes
            // drifts for both players, most through pipewire-pulse, where the picture falls
            // behind the sound run by run (2026-12-03: playhead -4, -117, -162 ms; mpv 9,
            // -69 ms). Nothing to tell about playhead then.
            withKnownIssue("the \(label) rig drifted for mpv as well in every run", isIntermittent: true) { check() }
        } else {
            check()
        }
    }

    @Test(.enabled(if: ProcessInfo.processInfo.environment["PLAYHEAD_REALTIME_TESTS"] != nil))
    func eachFlashMeetsItsBeepInTheWindowBesideMpvOnASoundServer() async throws {
        let server = try await offPool { try PulseAudioServer() }
        defer { server.stop() }
        try await compareWithMpv(server: server.address, label: "PulseAudio", attempts: 3)
    }

    @Test(.enabled(if: ProcessInfo.processInfo.environment["PLAYHEAD_REALTIME_TESTS"] != nil))
    func eachFlashMeetsItsBeepInTheWindowOnPipeWireBesideMpvOnASoundServer() async throws {
        let server = try await offPool { try PipeWireServer() }
        defer { server.stop() }
        try await compareWithMpv(server: server.address, label: "PipeWire", attempts: 3)
    }
}
