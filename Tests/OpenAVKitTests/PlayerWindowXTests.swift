// Playhead: the real `playhead` window on a private X server (Xvfb + openbox), driven with
// xdotool and checked with screenshots. Skipped when Xvfb, openbox, xdotool or ImageMagick is
// missing or the server does not start (scripts/install-deps.sh installs them).
//
// Set PLAYHEAD_WINDOW_SCREENSHOT=path to keep a screenshot of the playing window (the README's
// docs/window.png is made that way).
import Foundation
import PlayheadTestSupport
import Testing

@Suite(
    .serialized,
    .enabled(
        if: ProcessInfo.processInfo.environment["PLAYHEAD_REALTIME_TESTS"] != nil,
        "runs in the real-time pass of `make test` (PLAYHEAD_REALTIME_TESTS set)"),
    .enabled(if: XSession.shared != nil, "needs Xvfb, openbox, xdotool and ImageMagick"))
struct PlayerWindowXTests {
    let session = XSession.shared!

    // MARK: - Tests

    @Test func opensTitledAfterTheFilePlaysPausesWithSpaceAndQuitsWithQ() async throws {
        let clip = try Self.longClip()
        let run = try #require(launch(clip))
        defer { run.stop() }
        let window = try #require(await windowID(named: clip.lastPathComponent), "no window appeared")
        #expect(session.run("xdotool", ["getwindowname", window])?.output == clip.lastPathComponent)

        try await Task.sleep(for: .milliseconds(1200))
        let first = try #require(screenshot(window))
        if let keep = ProcessInfo.processInfo.environment["PLAYHEAD_WINDOW_SCREENSHOT"] {
            session.run("import", ["-window", window, keep])
        }
        try await Task.sleep(for: .milliseconds(500))
        let second = try #require(screenshot(window))
        #expect(first.pixels != second.pixels, "the picture should move while playing")

        focus(window)
        session.run("xdotool", ["key", "space"])
        try await Task.sleep(for: .milliseconds(800))
        let paused = try #require(screenshot(window))
        try await Task.sleep(for: .milliseconds(700))
        let stillPaused = try #require(screenshot(window))
        #expect(paused.pixels == stillPaused.pixels, "space should freeze the picture")

        session.run("xdotool", ["key", "q"])
        await run.expectCleanExit()
    }

    @Test func aMinimisedWindowPausesByPolicyAndPlaysOnByDefault() async throws {
        let clip = try Self.longClip()
        // Two seconds of pictures (--frames 50 at 25 fps), minimised for three of them.
        func minimisedRun(_ options: [String]) async throws -> (exitedWhileMinimised: Bool, run: PlayheadRun) {
            let run = try #require(launch(clip, options: ["--frames", "50"] + options))
            let window = try #require(await windowID(named: clip.lastPathComponent), "no window appeared")
            try await Task.sleep(for: .milliseconds(300))
            session.run("xdotool", ["windowminimize", window])
            try await Task.sleep(for: .milliseconds(3000))
            let exited = !run.box.process.isRunning
            if !exited { session.run("xdotool", ["windowactivate", window]) }
            return (exited, run)
        }
        let paused = try await minimisedRun(["--pause-minimized"])
        defer { paused.run.stop() }
        #expect(!paused.exitedWhileMinimised, "--pause-minimized holds playback while minimised")
        // Back on screen it resumes and plays its remaining frames.
        #expect(await paused.run.waitForExit(timeout: 10) == 0, "\(paused.run.exitDescription)")

        let playing = try await minimisedRun([])
        defer { playing.run.stop() }
        #expect(playing.exitedWhileMinimised, "by default playback goes on while minimised")
    }

    @Test func controlsHideWhenIdleReturnOnMovementAndFFillsTheScreen() async throws {
        let clip = try Self.longClip()
        let run = try #require(launch(clip))
        defer { run.stop() }
        let window = try #require(await windowID(named: clip.lastPathComponent), "no window appeared")
        focus(window)
        session.run("xdotool", ["mousemove", "2", "2"])  // off the window: no motion events

        try await Task.sleep(for: .milliseconds(1000))
        #expect(try barsVisible(window), "controls show at first")
        try await Task.sleep(for: .milliseconds(3500))
        #expect(try !barsVisible(window), "controls hide after 3 s without input while playing")

        session.run("xdotool", ["mousemove", "--window", window, "200", "150"])
        session.run("xdotool", ["mousemove", "--window", window, "210", "160"])
        try await Task.sleep(for: .milliseconds(500))
        #expect(try barsVisible(window), "controls return when the mouse moves")

        session.run("xdotool", ["key", "f"])
        try await Task.sleep(for: .milliseconds(1000))
        let full = geometry(window)
        #expect(full?.width == XSession.width && full?.height == XSession.height, "f fills the screen")
        session.run("xdotool", ["key", "Escape"])
        try await Task.sleep(for: .milliseconds(1000))
        #expect((geometry(window)?.width ?? 0) < XSession.width, "Esc leaves fullscreen")

        session.run("xdotool", ["key", "q"])
        await run.expectCleanExit()
    }

    // MARK: - Helpers

    /// A 20-second 640×360 testsrc2 clip with a tone, made once per process.
    static func longClip() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("playhead-window-clip.mp4")
        try clipLock.withLock {
            if FileManager.default.fileExists(atPath: url.path) { return }
            let partial = url.deletingPathExtension().appendingPathExtension("partial.mp4")
            let result = XSession.run(
                "ffmpeg",
                [
                    "-y", "-loglevel", "error", "-f", "lavfi", "-i", "testsrc2=size=640x360:rate=25",
                    "-f", "lavfi", "-i", "sine=frequency=440", "-t", "20", "-c:v", "libx264",
                    "-pix_fmt", "yuv420p", "-c:a", "aac", "-shortest", partial.path,
                ], display: nil)
            guard result?.status == 0 else { throw XTestError("ffmpeg could not make the clip") }
            try FileManager.default.moveItem(at: partial, to: url)
        }
        return url
    }

    private static let clipLock = NSLock()

    func launch(_ clip: URL, options: [String] = []) -> PlayheadRun? {
        guard let binary = Self.playheadBinary else {
            Issue.record("playhead executable not found; set PLAYHEAD_BINARY")
            return nil
        }
        guard
            let box = XSession.launch(
                binary, ["--no-audio"] + options + [clip.path], display: session.display,
                environment: ["SDL_AUDIODRIVER": "dummy"])
        else { return nil }
        return PlayheadRun(box: box)
    }

    /// The built `playhead`: $PLAYHEAD_BINARY, else next to the test bundle.
    static let playheadBinary: String? = {
        if let path = ProcessInfo.processInfo.environment["PLAYHEAD_BINARY"], !path.isEmpty { return path }
        var starts = [Bundle.main.bundleURL.deletingLastPathComponent(), Bundle.main.bundleURL]
        if let first = CommandLine.arguments.first {
            starts.append(URL(fileURLWithPath: first).deletingLastPathComponent())
        }
        for start in starts {
            var directory = start.standardizedFileURL
            for _ in 0..<4 {
                let candidate = directory.appendingPathComponent("playhead").path
                var isDirectory: ObjCBool = false
                if FileManager.default.fileExists(atPath: candidate, isDirectory: &isDirectory), !isDirectory.boolValue,
                    FileManager.default.isExecutableFile(atPath: candidate)
                {
                    return candidate
                }
                directory.deleteLastPathComponent()
            }
        }
        return nil
    }()

    func windowID(named name: String, timeout: Double = 15) async -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        let pattern = "^" + NSRegularExpression.escapedPattern(for: name) + "$"
        while Date() < deadline {
            if let found = session.run("xdotool", ["search", "--name", pattern]), found.status == 0,
                let id = found.output.split(separator: "\n").first
            {
                return String(id)
            }
            try? await Task.sleep(for: .milliseconds(100))
        }
        return nil
    }

    func focus(_ window: String) {
        session.run("xdotool", ["windowactivate", window])
        session.run("xdotool", ["windowfocus", window])
        Thread.sleep(forTimeInterval: 0.2)
    }

    func geometry(_ window: String) -> (width: Int, height: Int)? {
        placement(window).map { ($0.width, $0.height) }
    }

    /// The window's size and the position of its top-left corner on the screen.
    func placement(_ window: String) -> (x: Int, y: Int, width: Int, height: Int)? {
        guard let shell = session.run("xdotool", ["getwindowgeometry", "--shell", window])?.output else { return nil }
        var values: [String: Int] = [:]
        for line in shell.split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1)
            if parts.count == 2 { values[String(parts[0])] = Int(parts[1]) }
        }
        guard let x = values["X"], let y = values["Y"], let width = values["WIDTH"], let height = values["HEIGHT"]
        else { return nil }
        return (x, y, width, height)
    }

    /// The window's pixels as 8-bit RGB (from a binary PPM, whose header gives the size).
    func screenshot(_ window: String) -> Screenshot? {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("playhead-shot-\(UUID().uuidString).ppm").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        // ImageMagick's `import` now and then hangs on a busy X server (seen once in a few
        // dozen real-time passes): give each try 5 s and try three times.
        var result: (status: Int32, output: String)?
        for _ in 0..<3 {
            result = XSession.run(
                "import", ["-window", window, "-depth", "8", "ppm:" + path], display: session.display,
                timeout: 5)
            if result?.status == 0, let data = FileManager.default.contents(atPath: path) {
                return Screenshot(ppm: [UInt8](data))
            }
        }
        Issue.record("import -window \(window) failed: \(String(describing: result))")
        return nil
    }

    /// True when the bottom bar's play/pause icon (white) is drawn.
    func barsVisible(_ window: String) throws -> Bool {
        let shot = try #require(screenshot(window))
        // The pause icon's left bar: 19…25 px from the left, centred 28 px above the bottom.
        let pixel = shot.pixel(x: 22, y: shot.height - 28)
        return pixel.red > 225 && pixel.green > 225 && pixel.blue > 225
    }
}

/// One screenshot.
struct Screenshot {
    let width: Int
    let height: Int
    let pixels: [UInt8]

    /// Parses a binary PPM ("P6 width height 255" then RGB bytes).
    init?(ppm bytes: [UInt8]) {
        var fields: [String] = []
        var index = 0
        var current = ""
        while fields.count < 4, index < bytes.count {
            let byte = bytes[index]
            index += 1
            if byte == UInt8(ascii: "#") {
                while index < bytes.count, bytes[index] != 10 { index += 1 }
            } else if byte == 32 || byte == 10 || byte == 9 || byte == 13 {
                if !current.isEmpty { fields.append(current); current = "" }
            } else {
                current.append(Character(UnicodeScalar(byte)))
            }
        }
        guard fields.count == 4, fields[0] == "P6", let width = Int(fields[1]), let height = Int(fields[2]),
            bytes.count - index >= width * height * 3
        else { return nil }
        self.width = width
        self.height = height
        pixels = Array(bytes[index..<(index + width * height * 3)])
    }

    /// The pixel at (`x`, `y`); black outside the picture (a window not yet at its size).
    func pixel(x: Int, y: Int) -> (red: UInt8, green: UInt8, blue: UInt8) {
        let offset = (y * width + x) * 3
        guard x >= 0, y >= 0, x < width, offset >= 0, offset + 2 < pixels.count else { return (0, 0, 0) }
        return (pixels[offset], pixels[offset + 1], pixels[offset + 2])
    }
}

/// A running `playhead`.
struct PlayheadRun {
    let box: SpawnedProcess.Box

    /// Waits for the process to exit; its status, or nil on timeout.
    func waitForExit(timeout: Double) async -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while box.process.isRunning, Date() < deadline {
            try? await Task.sleep(for: .milliseconds(50))
        }
        return box.process.isRunning ? nil : box.process.terminationStatus
    }

    /// Waits up to 5 s for the process to exit and expects status 0. One failure is known and
    /// intermittent (about one real-time pass in ten under load): quitting can end in Xlib's
    /// "BadWindow (X_SendEvent)" error, an SDL event wake-up reaching the window after it was
    /// destroyed. It is recorded as a known issue, not a failure, until it is fixed.
    func expectCleanExit(sourceLocation: SourceLocation = #_sourceLocation) async {
        let status = await waitForExit(timeout: 5)
        let description = exitDescription
        if status == 1, description.contains("BadWindow"), description.contains("X_SendEvent") {
            withKnownIssue("quit ended in an X BadWindow error (SDL wake-up race)", isIntermittent: true) {
                Issue.record("\(description)", sourceLocation: sourceLocation)
            }
            return
        }
        #expect(status == 0, "\(description)", sourceLocation: sourceLocation)
    }

    /// How the process ended and the end of what it wrote to standard error, for messages.
    var exitDescription: String {
        let ending = box.process.isRunning
            ? "still running"
            : "\(box.process.wasSignalled ? "signal" : "status") \(box.process.terminationStatus)"
        let errors = box.errorLog.flatMap { try? String(contentsOf: $0, encoding: .utf8) } ?? ""
        return "\(ending); stderr: \(errors.suffix(600))"
    }

    /// Kills the process if it still runs (SIGKILL: the test runner's children inherit a
    /// signal mask that blocks SIGTERM).
    func stop() {
        if box.process.isRunning {
            kill(box.process.processIdentifier, SIGKILL)
            box.process.waitUntilExit()
        }
    }
}

struct XTestError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
