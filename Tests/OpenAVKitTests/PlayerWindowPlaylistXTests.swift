// Playhead: the window's playlist panel and seek-slider preview on the private X server
// (runs with the other PlayerWindowXTests, in the real-time pass).
import Foundation
import Testing

extension PlayerWindowXTests {
    /// The 640×360 window's geometry (ControlsLayout and PlaylistPanelLayout at that size).
    private enum Spot {
        static let playlistButton = (x: 574, y: 22)
        static let panelX = 272, firstRowY = 52, rowHeight = 32
        static let sliderMiddle = (x: 271, y: 332)
        /// The top edge of the preview's white frame when hovering the slider's middle.
        static let previewFrame = (x: 271, y: 185)
    }

    @Test func playlistPanelListsTheQueueJumpsOnClickAndTheSliderShowsAPreview() async throws {
        // Links with their own names: the window is titled after the current item, and the
        // other window tests look for the plain clip's name.
        let clip = try Self.longClip()
        let links = (1...3).map {
            FileManager.default.temporaryDirectory.appendingPathComponent("playhead-queue-\($0).mp4")
        }
        for link in links where !FileManager.default.fileExists(atPath: link.path) {
            try FileManager.default.createSymbolicLink(at: link, withDestinationURL: clip)
        }
        guard let binary = Self.playheadBinary,
            let box = XSession.launch(
                binary, ["play", "--no-audio"] + links.map(\.path), display: session.display,
                environment: ["SDL_AUDIODRIVER": "dummy"])
        else {
            Issue.record("cannot launch playhead")
            return
        }
        let run = PlayheadRun(box: box)
        defer { run.stop() }
        let window = try #require(await windowID(named: links[0].lastPathComponent), "no window appeared")
        try await Task.sleep(for: .milliseconds(1200))
        #expect(geometry(window)?.width == 640)
        func move(_ x: Int, _ y: Int) {
            session.run("xdotool", ["mousemove", "--window", window, String(x), String(y)])
        }
        func click(_ x: Int, _ y: Int) {
            move(x, y)
            Thread.sleep(forTimeInterval: 0.2)
            session.run("xdotool", ["click", "1"])
        }
        func isPanel(_ pixel: (red: UInt8, green: UInt8, blue: UInt8)) -> Bool {
            max(pixel.red, pixel.green, pixel.blue) < 90
        }
        move(300, 150)
        click(Spot.playlistButton.x, Spot.playlistButton.y)
        try await Task.sleep(for: .milliseconds(600))
        let open = try #require(screenshot(window))
        // Three rows on the dark panel; the first (current) has the red marker.
        for row in 0..<3 {
            let y = Spot.firstRowY + row * Spot.rowHeight + 4
            #expect(isPanel(open.pixel(x: Spot.panelX + 300, y: y)), "row \(row) on the panel")
        }
        let marker = open.pixel(x: Spot.panelX + 1, y: Spot.firstRowY + 16)
        #expect(marker.red > 150 && marker.green < 120, "the current item is marked")

        click(Spot.panelX + 100, Spot.firstRowY + 2 * Spot.rowHeight + 16)
        try await Task.sleep(for: .milliseconds(1000))
        move(300, 150)
        try await Task.sleep(for: .milliseconds(300))
        let jumped = try #require(screenshot(window))
        // One item is left: the third, now current; the rows below it are gone.
        #expect(isPanel(jumped.pixel(x: Spot.panelX + 300, y: Spot.firstRowY + 4)))
        #expect(!isPanel(jumped.pixel(x: Spot.panelX + 300, y: Spot.firstRowY + 2 * Spot.rowHeight + 4)))

        move(Spot.sliderMiddle.x - 3, Spot.sliderMiddle.y)
        move(Spot.sliderMiddle.x, Spot.sliderMiddle.y)
        var framed = false
        for _ in 0..<20 where !framed {
            try await Task.sleep(for: .milliseconds(200))
            let shot = try #require(screenshot(window))
            let pixel = shot.pixel(x: Spot.previewFrame.x, y: Spot.previewFrame.y)
            framed = pixel.red > 240 && pixel.green > 240 && pixel.blue > 240
        }
        #expect(framed, "a framed preview shows above the slider")
        #expect(session.run("xdotool", ["getwindowname", window])?.output == links[2].lastPathComponent)
        // Plain XTEST key presses (as the other window tests use): `key --window` on a focused
        // window leaves q held down when the window closes between key down and key up.
        focus(window)
        session.run("xdotool", ["key", "q"])
        await run.expectCleanExit()
        // Leave the server as found: the window is gone before the next test looks for one.
        let deadline = Date().addingTimeInterval(5)
        while session.run("xdotool", ["getwindowname", window])?.status == 0, Date() < deadline {
            try await Task.sleep(for: .milliseconds(100))
        }
        session.run("xdotool", ["keyup", "q"])
    }
}
