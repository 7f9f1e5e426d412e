// Playhead: the CustomControls example (docs/custom-controls.md) in a real window under Xvfb:
// its overlay replaces the built-in one, a click pauses, q quits. In the serialized
// PlayerWindowXTests suite (one window at a time on the shared display).
import Foundation
import PlayheadTestSupport
import Testing

extension PlayerWindowXTests {
    /// The CustomControls example's executable, built with the package beside `playhead`.
    static func customControlsExample() throws -> String {
        let playhead = try #require(
            playheadBinary, "playhead executable not found; set PLAYHEAD_BINARY")
        let example = URL(fileURLWithPath: playhead).deletingLastPathComponent()
            .appendingPathComponent("CustomControls").path
        try #require(
            FileManager.default.isExecutableFile(atPath: example),
            "the example is built with the package")
        return example
    }

    @Test func theCustomControlsExampleDrawsItsOwnOverlayAndAClickPauses() async throws {
        let example = try Self.customControlsExample()
        let clip = try Self.longClip()
        let box = try #require(
            XSession.launch(
                example, [clip.path], display: session.display,
                environment: ["SDL_AUDIODRIVER": "dummy"]))
        let run = PlayheadRun(box: box)
        defer { run.stop() }
        let window = try #require(
            await windowID(named: clip.lastPathComponent), "no window appeared")
        focus(window)
        session.run("xdotool", ["mousemove", "--window", window, "300", "200"])
        try await Task.sleep(for: .milliseconds(1500))

        let playing = try #require(screenshot(window))
        // The example's green progress line runs along the bottom edge…
        let line = playing.pixel(x: 3, y: playing.height - 3)
        #expect(line.green > 150 && line.red < 90, "the custom progress line: \(line)")
        // …and the built-in bottom bar's pause icon is not drawn.
        let icon = playing.pixel(x: 22, y: playing.height - 28)
        #expect(!(icon.red > 225 && icon.green > 225 && icon.blue > 225), "no built-in controls")

        session.run("xdotool", ["click", "1"])  // the example's overlay: a click pauses
        try await Task.sleep(for: .milliseconds(800))
        let paused = try #require(screenshot(window))
        try await Task.sleep(for: .milliseconds(600))
        let stillPaused = try #require(screenshot(window))
        #expect(paused.pixels == stillPaused.pixels, "a click on the custom overlay pauses")

        session.run("xdotool", ["key", "q"])  // keys the overlay leaves alone keep their binding
        await run.expectCleanExit()
    }
}
