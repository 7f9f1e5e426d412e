// Playhead: Shift+S in the real `playhead` window on a private X server writes the picture on
// screen as a PNG beside the file. Part of the PlayerWindowXTests suite (its gating, never
// beside another window test).
import Foundation
import Testing

extension PlayerWindowXTests {
    @Test func shiftSWritesTheFrameAsAPNGBesideTheFile() async throws {
        let (clip, _) = try Self.subtitleClip()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "playhead-screenshot-window-\(getpid())")
        try? FileManager.default.removeItem(at: folder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let copy = folder.appendingPathComponent("shot-clip.mp4")
        try FileManager.default.copyItem(at: clip, to: copy)
        let binary = try #require(Self.playheadBinary, "playhead executable not found; set PLAYHEAD_BINARY")
        let box = try #require(
            XSession.launch(
                binary, ["--no-audio", copy.path], display: session.display,
                environment: ["SDL_AUDIODRIVER": "dummy"]))
        let run = PlayheadRun(box: box)
        defer { run.stop() }
        let window = try #require(await windowID(named: copy.lastPathComponent), "no window appeared")
        var shots: [String] = []
        let start = Date()
        while shots.isEmpty, Date().timeIntervalSince(start) < 5 {
            session.run("xdotool", ["key", "--window", window, "shift+s"])
            try await Task.sleep(for: .milliseconds(500))
            shots = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".png") }
        }
        let name = try #require(shots.first, "no screenshot was written")
        #expect(name.hasPrefix("shot-clip-0-00-0"), "named after the file and the time: \(name)")
        let png = try Data(contentsOf: folder.appendingPathComponent(name))
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]), "a PNG")
        try #require(png.count >= 24, "a PNG's header")
        // 640x360, from the IHDR chunk.
        let width = png[16..<20].reduce(0) { $0 << 8 | Int($1) }
        let height = png[20..<24].reduce(0) { $0 << 8 | Int($1) }
        #expect((width, height) == (640, 360))
    }
}
