// Playhead: a window run remembers where the file was left even without --resume, and a later
// `playhead play --resume` starts there and says so. In the serialized PlayerWindowXTests suite
// (one window at a time on the shared display).
import Foundation
import PlayheadTestSupport
import Testing

extension PlayerWindowXTests {
    @Test func aWindowRunQuitPartwayIsResumedByTheNextRunWithResume() async throws {
        let clip = try Self.longClip()
        let binary = try #require(
            Self.playheadBinary, "playhead executable not found; set PLAYHEAD_BINARY")
        let state = FileManager.default.temporaryDirectory.appendingPathComponent(
            "playhead-x-resume-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: state) }
        func start(_ options: [String]) throws -> PlayheadRun {
            let box = try #require(
                XSession.launch(
                    binary, ["--no-audio"] + options + [clip.path], display: session.display,
                    environment: ["SDL_AUDIODRIVER": "dummy", "XDG_STATE_HOME": state.path]))
            return PlayheadRun(box: box)
        }

        // Played from 8 s for a moment, then q: no --resume, but the window run records.
        let first = try start(["--start", "8"])
        defer { first.stop() }
        let window = try #require(
            await windowID(named: clip.lastPathComponent), "no window appeared")
        try await Task.sleep(for: .milliseconds(1000))
        focus(window)
        session.run("xdotool", ["key", "q"])
        await first.expectCleanExit()
        let file = state.appendingPathComponent("playhead/resume.json")
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        let entry = try #require((object["entries"] as? [[String: Any]])?.first)
        #expect(entry["key"] as? String == clip.standardizedFileURL.path)
        let remembered = try #require(entry["position"] as? Double)
        #expect((8..<15).contains(remembered), "remembered \(remembered)")

        let second = try start(["--resume"])
        defer { second.stop() }
        let reopened = try #require(
            await windowID(named: clip.lastPathComponent), "no window appeared")
        let said = try await offPool {
            SessionBus.waitUntil(10) { second.exitDescription.contains("resuming at") }
        }
        #expect(said, "\(second.exitDescription)")
        let clock = String(format: "%02d:%02d", Int(remembered) / 60, Int(remembered) % 60)
        #expect(
            second.exitDescription.contains("\(clip.path): resuming at \(clock)"),
            "\(second.exitDescription)")
        focus(reopened)
        session.run("xdotool", ["key", "q"])
        await second.expectCleanExit()
    }
}
