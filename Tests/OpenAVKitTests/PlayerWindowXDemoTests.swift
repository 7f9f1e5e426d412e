// Playhead: `playhead` with no input opens its built-in demo in a real window (Xvfb + openbox),
// in the serialized PlayerWindowXTests suite (one window at a time on the shared display).
import Foundation
import PlayheadTestSupport
import Testing

extension PlayerWindowXTests {
    @Test func noInputOpensTheDemoTitledAfterItAndThePictureMoves() async throws {
        guard let binary = Self.playheadBinary else {
            Issue.record("playhead executable not found; set PLAYHEAD_BINARY")
            return
        }
        let box = try #require(
            XSession.launch(
                binary, ["--no-audio"], display: session.display,
                environment: ["SDL_AUDIODRIVER": "dummy"]))
        let run = PlayheadRun(box: box)
        defer { run.stop() }
        let window = try #require(await windowID(named: "Playhead demo"), "no demo window appeared")
        #expect(session.run("xdotool", ["getwindowname", window])?.output == "Playhead demo")

        // The first picture comes once the demo's libraries are loaded (lazily, and cold after a
        // long build): wait until the window shows something, then a moment more.
        var drawn = PatientDeadline(seconds: 20)
        while (screenshot(window)?.pixels.allSatisfy { $0 == 0 } ?? true), !drawn.hasPassed() {
            try await Task.sleep(for: .milliseconds(100))
        }
        try await Task.sleep(for: .milliseconds(500))
        let first = try #require(screenshot(window))
        try await Task.sleep(for: .milliseconds(500))
        let second = try #require(screenshot(window))
        #expect(first.pixels != second.pixels, "the demo picture should move")
        if let keep = ProcessInfo.processInfo.environment["PLAYHEAD_DEMO_SCREENSHOT"] {
            session.run("import", ["-window", window, keep])
        }
        // The window takes the demo's 16:9 shape (as far as the 1280×800 screen allows).
        #expect(
            abs(Double(first.width) / Double(first.height) - 16.0 / 9.0) < 0.05,
            "\(first.width)x\(first.height)")
        // The 1280×720 demo opens at no more than 90 % of the screen, centred, so the title bar
        // cannot push the control bar off the bottom edge.
        let placed = try #require(placement(window))
        #expect(placed.width <= 1152 && placed.height <= 720, "\(placed)")
        #expect(placed.width >= 1100, "as large as the screen allows: \(placed)")
        #expect(abs(placed.x - (XSession.width - placed.width) / 2) <= 12, "centred: \(placed)")
        #expect(placed.y + placed.height <= XSession.height, "the bottom edge on screen: \(placed)")

        focus(window)
        session.run("xdotool", ["key", "q"])
        await run.expectCleanExit()
    }
}
