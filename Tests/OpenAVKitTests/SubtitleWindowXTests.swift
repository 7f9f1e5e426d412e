// Playhead: a subtitle cue in the real `playhead` window on a private X server: it shows
// during its time range and not outside it (checked with screenshots). Part of the
// PlayerWindowXTests suite, so it shares its gating and never runs beside another window test.
import Foundation
import Testing

extension PlayerWindowXTests {
    @Test func subtitleCueShowsDuringItsTimeRangeOnly() async throws {
        let (clip, subtitles) = try Self.subtitleClip()
        let binary = try #require(
            Self.playheadBinary, "playhead executable not found; set PLAYHEAD_BINARY")
        let box = try #require(
            XSession.launch(
                binary, ["--no-audio", "--sub", subtitles.path, clip.path],
                display: session.display,
                environment: ["SDL_AUDIODRIVER": "dummy"]))
        let run = PlayheadRun(box: box)
        defer { run.stop() }
        let window = try #require(
            await windowID(named: clip.lastPathComponent), "no window appeared")
        session.run("xdotool", ["mousemove", "2", "2"])

        // The control bar hides after 3 s without input; the cue (4–6 s) then shows at the
        // bottom of the picture. Sample until just before the 9 s clip ends.
        let start = Date()
        var samples: [(time: Double, shows: Bool)] = []
        while Date().timeIntervalSince(start) < 8.3 {
            // Samples taken while the control bar shows are skipped (its icons are white too),
            // and so are those before the clip's picture (dark blue) is drawn.
            if let shot = screenshot(window), !Self.barsShown(shot), Self.showsClip(shot) {
                samples.append((Date().timeIntervalSince(start), Self.showsSubtitle(shot)))
            }
            try await Task.sleep(for: .milliseconds(80))
        }
        let shown = samples.filter(\.shows).map(\.time)
        let first = try #require(shown.first, "the cue never showed")
        let last = try #require(shown.last)
        #expect(first > 2.5, "nothing shows before the cue's start (first seen at \(first) s)")
        #expect(
            samples.contains { !$0.shows && $0.time < first },
            "samples before the cue show no subtitle")
        #expect(
            samples.contains { !$0.shows && $0.time > last }, "the cue disappears after its end")
        #expect(
            !samples.contains { !$0.shows && $0.time > first && $0.time < last },
            "the cue stays while it lasts")
        #expect(
            (1.2...2.8).contains(last - first),
            "the cue shows for about its 2 s (\(last - first) s)")
    }

    /// An ASS file whose style asks for 72-unit text on a 360-line script: libass draws
    /// capitals about 50 px tall in the 640x360 window; the plain renderer, which ignores
    /// style sizes, about 16 px. Checked while the clip plays, where libass must be drawing.
    @Test func styledASSIsDrawnByLibassWhilePlaying() async throws {
        let (clip, _) = try Self.subtitleClip()
        let ass = clip.deletingLastPathComponent().appendingPathComponent("styled-big.ass")
        try Data(
            """
            [Script Info]
            ScriptType: v4.00+
            PlayResX: 640
            PlayResY: 360

            [V4+ Styles]
            Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding
            Style: Default,DejaVu Sans,72,&H00FFFFFF,&H000000FF,&H00000000,&H00000000,0,0,0,0,100,100,0,0,1,2,0,2,10,10,20,1

            [Events]
            Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text
            Dialogue: 0,0:00:00.50,0:00:08.50,Default,,0,0,0,,HIGH

            """.utf8
        ).write(to: ass)
        let binary = try #require(
            Self.playheadBinary, "playhead executable not found; set PLAYHEAD_BINARY")
        let box = try #require(
            XSession.launch(
                binary, ["--no-audio", "--sub", ass.path, clip.path], display: session.display,
                environment: ["SDL_AUDIODRIVER": "dummy"]))
        let run = PlayheadRun(box: box)
        defer { run.stop() }
        let window = try #require(await windowID(named: clip.lastPathComponent), "no window appeared")
        session.run("xdotool", ["mousemove", "2", "2"])
        var tallest = 0
        let start = Date()
        while Date().timeIntervalSince(start) < 7, tallest < 40 {
            if let shot = screenshot(window), !Self.barsShown(shot), Self.showsClip(shot) {
                tallest = max(tallest, Self.whiteRows(shot))
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(tallest >= 40, "white text \(tallest) px tall: libass draws the style's size")
    }

    /// How many rows of the window's lower half hold white pixels.
    static func whiteRows(_ shot: Screenshot) -> Int {
        (shot.height / 2..<shot.height).filter { y in
            stride(from: 0, to: shot.width, by: 2).contains { x in
                let pixel = shot.pixel(x: x, y: y)
                return pixel.red > 220 && pixel.green > 220 && pixel.blue > 220
            }
        }.count
    }

    /// True when the window's centre shows the clip's dark blue.
    static func showsClip(_ shot: Screenshot) -> Bool {
        let pixel = shot.pixel(x: shot.width / 2, y: shot.height / 2)
        return pixel.blue > 60 && pixel.red < 40 && pixel.green < 40
    }

    /// True when the bottom bar's play/pause icon (white) is drawn.
    static func barsShown(_ shot: Screenshot) -> Bool {
        let pixel = shot.pixel(x: 22, y: shot.height - 28)
        return pixel.red > 225 && pixel.green > 225 && pixel.blue > 225
    }

    /// True when white text shows in the bottom fifth of the window, centre half of the width.
    static func showsSubtitle(_ shot: Screenshot) -> Bool {
        let bottom = shot.height - 2
        let top = shot.height - shot.height / 5
        for y in stride(from: top, to: bottom, by: 2) {
            for x in stride(from: shot.width / 4, to: shot.width * 3 / 4, by: 2) {
                let pixel = shot.pixel(x: x, y: y)
                if pixel.red > 200 && pixel.green > 200 && pixel.blue > 200 { return true }
            }
        }
        return false
    }

    /// A 9-second dark blue 640×360 clip and a SubRip file with one cue, 4–6 s.
    static func subtitleClip() throws -> (URL, URL) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "playhead-subtitle-window")
        let url = folder.appendingPathComponent("subtitle-clip-9s.mp4")
        let subtitles = folder.appendingPathComponent("subtitle-clip-9s.srt")
        try subtitleClipLock.withLock {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data("1\n00:00:04,000 --> 00:00:06,000\nHello subtitles\n\n".utf8).write(
                to: subtitles)
            if FileManager.default.fileExists(atPath: url.path) { return }
            let partial = folder.appendingPathComponent("partial.mp4")
            let result = XSession.run(
                "ffmpeg",
                [
                    "-y", "-loglevel", "error", "-f", "lavfi", "-i",
                    "color=c=0x000060:size=640x360:rate=25",
                    "-t", "9", "-c:v", "libx264", "-pix_fmt", "yuv420p", partial.path,
                ], display: nil)
            guard result?.status == 0 else { throw XTestError("ffmpeg could not make the clip") }
            try FileManager.default.moveItem(at: partial, to: url)
        }
        return (url, subtitles)
    }

    private static let subtitleClipLock = NSLock()
}
