// Playhead: the styled ASS fixture the libass tests draw, muxed into Matroska with FFmpeg, and
// FFmpeg's own libass rendering of it (its `subtitles` filter) as the reference.
import Foundation
import PlayheadTestSupport

enum StyledSubtitleFixture {
    static let width = 640
    static let height = 360
    static let frameRate = 25

    /// Fonts, sizes, borders, shadows, \move, \fad, karaoke \k, \frz and \clip, one group a second.
    static let script = """
        [Script Info]
        ScriptType: v4.00+
        PlayResX: 640
        PlayResY: 360
        ScaledBorderAndShadow: yes
        WrapStyle: 0

        [V4+ Styles]
        Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding
        Style: Default,DejaVu Sans,28,&H00FFFFFF,&H000000FF,&H00000000,&H80000000,0,0,0,0,100,100,0,0,1,2,2,2,20,20,20,1
        Style: Title,DejaVu Serif,40,&H0000FFFF,&H000000FF,&H00400000,&H00000000,-1,0,0,0,100,100,0,0,1,3,0,8,20,20,20,1
        Style: Karaoke,DejaVu Sans,36,&H0000FFFF,&H00FFFFFF,&H00000000,&H00000000,0,0,0,0,100,100,0,0,1,2,0,2,20,20,30,1

        [Events]
        Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text
        Dialogue: 0,0:00:00.00,0:00:01.00,Default,,0,0,0,,Fonts, {\\fs60}sizes{\\fs20} and borders
        Dialogue: 0,0:00:00.00,0:00:01.00,Title,,0,0,0,,A serif title
        Dialogue: 0,0:00:01.00,0:00:02.00,Default,,0,0,0,,{\\move(80,300,560,80)\\fad(300,300)}Moving and fading
        Dialogue: 0,0:00:02.00,0:00:03.00,Karaoke,,0,0,0,,{\\k20}Ka{\\k20}ra{\\k20}o{\\k20}ke {\\k20}line
        Dialogue: 0,0:00:03.00,0:00:04.00,Default,,0,0,0,,{\\frz25\\pos(320,180)}Rotated
        Dialogue: 0,0:00:03.00,0:00:04.00,Default,,0,0,0,,{\\clip(0,0,320,360)\\an8\\fs48}Clipped half

        """

    /// The frames compared, by number (25 fps): inside each group, mid-animation where there is one.
    static let frames = [10, 29, 37, 62, 85]

    private static let lock = NSLock()

    /// The folder everything is made in.
    static var folder: URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("playhead-libass-\(getpid())")
    }

    /// A 4-second 640x360 clip (a dark blue-grey picture) with the script as its subtitle track.
    static func clip() throws -> URL { try clip(named: "styled", script: script) }

    /// A line styled with the font family "PlayheadTestMono", which only the attachment of
    /// `fontClip(attached: true)` provides.
    static let fontScript = script.replacingOccurrences(
        of: "Style: Default,DejaVu Sans,28", with: "Style: Default,PlayheadTestMono,28"
    ).components(separatedBy: "Dialogue:")[0]
        + "Dialogue: 0,0:00:00.00,0:00:04.00,Default,,0,0,0,,Attached font: Wmi 0123 iiii WWWW\n"

    /// A clip whose style names a font found only in its attachment (or, with `attached`
    /// false, nowhere, so renderers fall back).
    static func fontClip(attached: Bool) throws -> URL {
        try clip(named: attached ? "font-attached" : "font-missing", script: fontScript, font: attached)
    }

    /// DejaVu Sans Mono renamed "PlayheadTestMono" (same-length names, so the tables stay
    /// valid): a font fontconfig cannot know.
    static func renamedFont() throws -> URL {
        let url = folder.appendingPathComponent("PlayheadTestMono.ttf")
        if FileManager.default.fileExists(atPath: url.path) { return url }
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf")))
        for (old, new) in [("DejaVu Sans Mono", "PlayheadTestMono")] {
            for (from, to) in [(Array(old.utf8), Array(new.utf8)), (utf16(old), utf16(new))] {
                var index = 0
                while index + from.count <= bytes.count {
                    if bytes[index] == from[0], Array(bytes[index..<index + from.count]) == from {
                        bytes.replaceSubrange(index..<index + from.count, with: to)
                        index += from.count
                    } else {
                        index += 1
                    }
                }
            }
        }
        try Data(bytes).write(to: url)
        return url
    }

    private static func utf16(_ text: String) -> [UInt8] {
        text.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
    }

    private static func clip(named name: String, script: String, font: Bool = false) throws -> URL {
        try lock.withLock {
            let url = folder.appendingPathComponent("\(name).mkv")
            if FileManager.default.fileExists(atPath: url.path) { return url }
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let ass = folder.appendingPathComponent("\(name).ass")
            try Data(script.utf8).write(to: ass)
            let attachment =
                font
                ? ["-attach", try renamedFont().path, "-metadata:s:t:0", "mimetype=application/x-truetype-font"]
                : []
            try ffmpeg(
                [
                    "-f", "lavfi", "-i", "color=c=0x304050:s=\(width)x\(height):r=\(frameRate):d=4",
                    "-i", ass.path,
                ] + attachment + [
                    "-map", "0:v", "-map", "1:s", "-c:v", "libx264", "-pix_fmt", "yuv420p", "-g", "25",
                    "-c:s", "ass", url.path,
                ])
            return url
        }
    }

    /// Frame `number` of `clip` as RGB bytes, with FFmpeg's libass burning the clip's subtitles
    /// in (`subtitles=` reads the track and the container's fonts) or without.
    static func reference(_ clip: URL, frame number: Int, withSubtitles: Bool) throws -> [UInt8] {
        let name = "ref-\(clip.deletingPathExtension().lastPathComponent)-\(number)-\(withSubtitles).rgb"
        let output = folder.appendingPathComponent(name)
        if !FileManager.default.fileExists(atPath: output.path) {
            // Burnt into RGB frames (as the window blends), not into 4:2:0 video, whose halved
            // colour resolution smears saturated text edges.
            let burn = "format=rgb24," + (withSubtitles ? "subtitles=filename=\(clip.path)," : "")
            try ffmpeg([
                "-i", clip.path, "-vf", "\(burn)select=eq(n\\,\(number))", "-frames:v", "1",
                "-f", "rawvideo", "-pix_fmt", "rgb24", output.path,
            ])
        }
        return [UInt8](try Data(contentsOf: output))
    }

    /// Frame `number` of `clip` with FFmpeg's `ass` filter burning the script `name`.ass,
    /// taking fonts from a folder that holds only the renamed test font. (FFmpeg's
    /// `subtitles` filter hands attachments to libass after setting up its font lookup, and
    /// libass then draws them a little narrower, about 2 px over a 480 px line; mpv, like
    /// Playhead, hands them over first.)
    static func referenceWithFontFolder(_ clip: URL, script name: String, frame number: Int) throws -> [UInt8] {
        let fonts = folder.appendingPathComponent("fonts")
        try FileManager.default.createDirectory(at: fonts, withIntermediateDirectories: true)
        let font = fonts.appendingPathComponent("PlayheadTestMono.ttf")
        if !FileManager.default.fileExists(atPath: font.path) {
            try FileManager.default.copyItem(at: try renamedFont(), to: font)
        }
        let output = folder.appendingPathComponent("ref-fonts-\(name)-\(number).rgb")
        let ass = folder.appendingPathComponent("\(name).ass")
        try ffmpeg([
            "-i", clip.path, "-vf",
            "format=rgb24,ass=filename=\(ass.path):fontsdir=\(fonts.path),select=eq(n\\,\(number))",
            "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgb24", output.path,
        ])
        return [UInt8](try Data(contentsOf: output))
    }

    static func ffmpeg(_ arguments: [String]) throws {
        let result = try Subprocess.run(
            URL(fileURLWithPath: "/usr/bin/ffmpeg"), ["-y", "-loglevel", "error"] + arguments, limit: 120)
        guard result.ending == .exited(0) else {
            throw TestSupportError("ffmpeg \(arguments.joined(separator: " ")) failed: \(result.standardError)")
        }
    }

    /// The rectangle where `a` and `b` differ by more than `threshold` in any channel, grown by
    /// `margin` pixels; nil when they do not differ.
    static func differingArea(_ a: [UInt8], _ b: [UInt8], threshold: Int = 24, margin: Int = 4)
        -> (x: Int, y: Int, width: Int, height: Int)?
    {
        var left = Int.max, top = Int.max, right = -1, bottom = -1
        for y in 0..<height {
            for x in 0..<width {
                let offset = (y * width + x) * 3
                let differs = (0..<3).contains { abs(Int(a[offset + $0]) - Int(b[offset + $0])) > threshold }
                if differs {
                    left = min(left, x)
                    top = min(top, y)
                    right = max(right, x)
                    bottom = max(bottom, y)
                }
            }
        }
        guard right >= 0 else { return nil }
        let x = max(0, left - margin)
        let y = max(0, top - margin)
        return (x, y, min(width, right + margin + 1) - x, min(height, bottom + margin + 1) - y)
    }

    /// The peak signal-to-noise ratio of `a` against `b` over `area`, in dB (infinity when equal).
    static func psnr(_ a: [UInt8], _ b: [UInt8], over area: (x: Int, y: Int, width: Int, height: Int)) -> Double {
        var sum = 0.0
        var count = 0
        for y in area.y..<(area.y + area.height) {
            for x in area.x..<(area.x + area.width) {
                let offset = (y * width + x) * 3
                for channel in 0..<3 {
                    let difference = Double(Int(a[offset + channel]) - Int(b[offset + channel]))
                    sum += difference * difference
                    count += 1
                }
            }
        }
        guard count > 0, sum > 0 else { return .infinity }
        return 10 * log10(255 * 255 / (sum / Double(count)))
    }
}
