// Playhead: files dropped on the window with a real XDND exchange (XDNDSource, a small Xlib
// drag source): a plain drop plays the file instead of what played, a drop with Shift held
// adds it to the queue. In the serialized PlayerWindowXTests suite (one window at a time on
// the shared display).
import Foundation
import PlayheadTestSupport
import Testing

extension PlayerWindowXTests {
    /// Drops `file` on the middle of `window`, with Shift held when `shift`.
    private func drop(_ file: URL, on window: String, shift: Bool) async throws -> Bool {
        let source = try await offPool { try XDNDSource() }
        defer { source.remove() }
        let place = try #require(placement(window))
        focus(window)
        if shift { session.run("xdotool", ["keydown", "shift"]) }
        defer { if shift { session.run("xdotool", ["keyup", "shift"]) } }
        let display = session.display
        return try await offPool {
            try source.drop(
                [file], on: window, x: place.x + place.width / 2, y: place.y + place.height / 2,
                display: display)
        }
    }

    /// The window's title, polled until it is `title` or `seconds` pass.
    private func waitForTitle(_ window: String, _ title: String, seconds: Double = 10) async -> Bool
    {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if session.run("xdotool", ["getwindowname", window])?.output == title { return true }
            try? await Task.sleep(for: .milliseconds(100))
        }
        return false
    }

    @Test func aFileDroppedOnTheWindowPlaysInsteadOfTheCurrentOne() async throws {
        let clip = try Self.longClip()
        let dropped = try Fixture.url(.mp4)
        let run = try #require(launch(clip))
        defer { run.stop() }
        let window = try #require(
            await windowID(named: clip.lastPathComponent), "no window appeared")
        try await Task.sleep(for: .milliseconds(500))

        #expect(
            try await drop(dropped, on: window, shift: false), "the XDND exchange did not finish")
        #expect(
            await waitForTitle(window, Fixture.mp4Title), "the dropped file should play at once")
        // The dropped file (2 s) plays to its end and the run ends: nothing else was queued.
        #expect(await run.waitForExit(timeout: 20) == 0, "\(run.exitDescription)")
    }

    @Test func aFileDroppedWithShiftIsAddedToTheQueue() async throws {
        let clip = try Self.longClip()
        let dropped = try Fixture.url(.mp4)
        // Three seconds of the clip (75 frames at 25 fps), then what the drop added.
        let run = try #require(launch(clip, options: ["--frames", "75"]))
        defer { run.stop() }
        let window = try #require(
            await windowID(named: clip.lastPathComponent), "no window appeared")

        #expect(
            try await drop(dropped, on: window, shift: true), "the XDND exchange did not finish")
        try await Task.sleep(for: .milliseconds(300))
        let title = session.run("xdotool", ["getwindowname", window])?.output
        #expect(title == clip.lastPathComponent, "Shift+drop keeps the current item playing")
        #expect(
            await waitForTitle(window, Fixture.mp4Title),
            "the added file plays after the current one")
        #expect(await run.waitForExit(timeout: 20) == 0, "\(run.exitDescription)")
    }
}
