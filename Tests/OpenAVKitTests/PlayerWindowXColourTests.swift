// Playhead: the real `playhead` window (SDL's OpenGL renderer on a private X server) shows a
// BT.709 picture and then a full-range picture of the same size in the colours FFmpeg makes of
// them: SDL's guess by size would read the first as BT.601, and its OpenGL renderer picks the
// conversion when the texture is made, so the second needs a texture of its own. Part of the
// serialized PlayerWindowXTests suite.
import Foundation
import PlayheadTestSupport
import Testing

extension PlayerWindowXTests {
    @Test func theWindowShowsPicturesInTheColoursTheirStreamsState() async throws {
        let binary = try #require(
            Self.playheadBinary, "playhead executable not found; set PLAYHEAD_BINARY")
        let clips = try [ColourClips.bt709SD, ColourClips.fullRangeVP9].map {
            try ColourClips.url($0, seconds: 4)
        }
        let expected = try clips.map { try ColourClips.ffmpegColour($0) }
        let box = try #require(
            XSession.launch(
                binary, ["--no-audio"] + clips.map(\.path), display: session.display,
                environment: ["SDL_AUDIODRIVER": "dummy"]))
        let run = PlayheadRun(box: box)
        defer { run.stop() }
        for (index, clip) in clips.enumerated() {
            // The window's title names the file playing.
            let window = try #require(
                await windowID(named: clip.lastPathComponent), "\(clip.lastPathComponent) not shown"
            )
            var shown: (red: UInt8, green: UInt8, blue: UInt8)?
            let start = Date()
            while Date().timeIntervalSince(start) < 3 {
                // A third of the way down is clear of the controls.
                if let shot = screenshot(window) {
                    shown = shot.pixel(x: shot.width / 2, y: shot.height / 3)
                    if let shown, ColourClips.difference(expected[index], shown) <= 4 { break }
                }
                try await Task.sleep(for: .milliseconds(300))
            }
            let pixel = try #require(shown, "no screenshot")
            #expect(
                ColourClips.difference(expected[index], pixel) <= 4,
                "\(clip.lastPathComponent): \(pixel) against FFmpeg's \(expected[index])")
        }
    }
}
