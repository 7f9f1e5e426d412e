// Playhead: end-to-end tests of `playhead thumbnail`: exact frames against ffmpeg, numbered
// outputs, sizes, contact-sheet layout by pixel, and error exits.
import Foundation
import PlayheadTestSupport
import Testing

@testable import PlayheadCLI

// Concurrency: each test writes into its own temporary folder; processes run through
// PlayheadProcess (a Dispatch thread each), so the cooperative pool is not blocked.

enum ThumbnailMedia {
    /// 4 s of 320×240 H.264 at 30 fps (2.5 s is a frame start), keyframe every second.
    static func clip() throws -> URL {
        try GeneratedMedia.url(
            named: "thumbnail-clip", fileExtension: "mp4",
            ffmpeg: [
                "-f", "lavfi", "-i", "testsrc2=d=4:s=320x240:r=30", "-c:v", "libx264", "-preset",
                "veryfast", "-g", "30", "-pix_fmt", "yuv420p",
            ])
    }

    /// 4 s of 160×120: one second each of red, green, blue and white.
    static func colourBlocks() throws -> URL {
        let colours = ["red", "green", "blue", "white"]
        var arguments: [String] = []
        for colour in colours { arguments += ["-f", "lavfi", "-i", "color=c=\(colour):s=160x120:r=25:d=1"] }
        arguments += [
            "-filter_complex", "[0][1][2][3]concat=n=4:v=1:a=0", "-c:v", "libx264", "-preset", "veryfast",
            "-pix_fmt", "yuv420p",
        ]
        return try GeneratedMedia.url(named: "thumbnail-colours", fileExtension: "mp4", ffmpeg: arguments)
    }

    static func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("playhead-thumbnail-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Width and height from a PNG's IHDR chunk.
    static func pngSize(_ url: URL) throws -> (Int, Int) {
        let bytes = [UInt8](try Data(contentsOf: url))
        try #require(bytes.count > 24)
        let word = { (offset: Int) in bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) } }
        return (word(16), word(20))
    }

    /// The picture's RGBA pixels as ffmpeg decodes them.
    static func rgba(_ url: URL, folder: URL) throws -> [UInt8] {
        let raw = folder.appendingPathComponent(UUID().uuidString + ".rgba")
        try GeneratedMedia.runFFmpeg(["-i", url.path, "-f", "rawvideo", "-pix_fmt", "rgba", raw.path])
        return [UInt8](try Data(contentsOf: raw))
    }
}

@Suite struct ThumbnailCommandTests {
    @Test func aThumbnailAtTwoAndAHalfSecondsMatchesFFmpegsAccuratelySeekedFrame() async throws {
        let clip = try ThumbnailMedia.clip()
        let folder = try ThumbnailMedia.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("t.png")
        let result = try #require(try await PlayheadProcess.run(["thumbnail", clip.path, "--at", "2.5", "-o", output.path]))
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput == output.path + "\n")
        let reference = folder.appendingPathComponent("ref.png")
        try GeneratedMedia.runFFmpeg(["-ss", "2.5", "-i", clip.path, "-frames:v", "1", reference.path])
        let psnr = try GeneratedMedia.psnr(output, reference)
        #expect(psnr >= 35, "PSNR \(psnr) dB")
        // A neighbouring frame differs clearly, so the PSNR check tells frames apart.
        let neighbour = folder.appendingPathComponent("neighbour.png")
        try GeneratedMedia.runFFmpeg(["-ss", "2.534", "-i", clip.path, "-frames:v", "1", neighbour.path])
        #expect(try GeneratedMedia.psnr(output, neighbour) < 30)
    }

    @Test(arguments: ["2.5", "1.31", "3.999"])
    func timesInsideAFrameGiveTheFrameFFmpegPicksToo(time: String) async throws {
        // 25 fps: 2.5 s falls between the frames at 2.48 and 2.52; ffmpeg -ss takes 2.52.
        let clip = try GeneratedMedia.url(
            named: "thumbnail-clip-25", fileExtension: "mp4",
            ffmpeg: [
                "-f", "lavfi", "-i", "testsrc2=d=4:s=320x240:r=25", "-c:v", "libx264", "-preset",
                "veryfast", "-g", "25", "-pix_fmt", "yuv420p",
            ])
        let folder = try ThumbnailMedia.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("t.png")
        let result = try #require(try await PlayheadProcess.run(["thumbnail", clip.path, "--at", time, "-o", output.path]))
        #expect(result.status == 0, "\(result.standardError)")
        let reference = folder.appendingPathComponent("ref.png")
        try GeneratedMedia.runFFmpeg(["-ss", time, "-i", clip.path, "-frames:v", "1", reference.path])
        guard FileManager.default.fileExists(atPath: reference.path) else {
            return  // past the last frame's start ffmpeg writes nothing; we write the last frame
        }
        let psnr = try GeneratedMedia.psnr(output, reference)
        #expect(psnr >= 35, "PSNR \(psnr) dB at \(time) s")
    }

    @Test func severalTimesWriteNumberedFilesInTheOrderGiven() async throws {
        let clip = try ThumbnailMedia.clip()
        let folder = try ThumbnailMedia.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("shot.jpg").path
        let result = try #require(
            try await PlayheadProcess.run(
                ["thumbnail", clip.path, "--at", "3", "--at", "0:01", "--at", "0.5", "--width", "160", "-o", output]))
        #expect(result.status == 0, "\(result.standardError)")
        let paths = (1...3).map { folder.appendingPathComponent("shot-\($0).jpg") }
        #expect(result.standardOutput == paths.map(\.path).joined(separator: "\n") + "\n")
        // Each numbered file is the frame of its own time: compare with single runs.
        for (path, time) in zip(paths, ["3", "1", "0.5"]) {
            let single = folder.appendingPathComponent("single-\(time).png")
            let run = try #require(
                try await PlayheadProcess.run(["thumbnail", clip.path, "--at", time, "--width", "160", "-o", single.path]))
            #expect(run.status == 0)
            #expect(try ThumbnailMedia.pngSize(single) == (160, 120))
            #expect(try GeneratedMedia.psnr(path, single) >= 30, "\(path.lastPathComponent)")
        }
    }

    @Test func aContactSheetPlacesTilesOnTheGridWithTimeStamps() async throws {
        let clip = try ThumbnailMedia.colourBlocks()
        let folder = try ThumbnailMedia.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("sheet.png")
        let result = try #require(
            try await PlayheadProcess.run(
                ["thumbnail", clip.path, "--sheet", "2x2", "--width", "160", "-o", output.path]
                    + ["--at", "0.5", "--at", "1.5", "--at", "2.5", "--at", "3.5"]))
        #expect(result.status == 0, "\(result.standardError)")
        let padding = ContactSheet.padding
        let (width, height) = try ThumbnailMedia.pngSize(output)
        try #require(width == 2 * 160 + 3 * padding && height == 2 * 120 + 3 * padding)
        let pixels = try ThumbnailMedia.rgba(output, folder: folder)
        try #require(pixels.count == width * height * 4)
        func pixel(_ x: Int, _ y: Int) -> [UInt8] { Array(pixels[((y * width + x) * 4)..<((y * width + x) * 4 + 3)]) }
        func near(_ actual: [UInt8], _ expected: [UInt8]) -> Bool {
            zip(actual, expected).allSatisfy { abs(Int($0) - Int($1)) <= 12 }
        }
        let expected: [[UInt8]] = [[255, 0, 0], [0, 128, 0], [0, 0, 255], [255, 255, 255]]
        for (index, colour) in expected.enumerated() {
            let x = padding + (index % 2) * (160 + padding), y = padding + (index / 2) * (120 + padding)
            // Top-right part of the tile: the frame's colour (the stamp is bottom-left).
            #expect(near(pixel(x + 150, y + 10), colour), "tile \(index) top right \(pixel(x + 150, y + 10))")
            #expect(near(pixel(x + 80, y + 40), colour), "tile \(index) middle")
            // The stamp box: black with white text, in the bottom-left corner.
            let box = (0..<12).flatMap { dy in (0..<40).map { dx in pixel(x + dx, y + 119 - dy) } }
            #expect(box.contains { near($0, [0, 0, 0]) }, "tile \(index) stamp box")
            #expect(box.contains { near($0, [255, 255, 255]) }, "tile \(index) stamp text")
            // Padding around the tile is the background.
            #expect(near(pixel(x - 2, y + 60), [32, 32, 32]), "tile \(index) left padding")
            #expect(near(pixel(x + 60, y - 2), [32, 32, 32]), "tile \(index) top padding")
        }
    }

    @Test func rotatedVideoGivesUprightThumbnailsLikeFFmpeg() async throws {
        let clip = try Fixture.url(.rotatedMP4)
        let folder = try ThumbnailMedia.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("upright.png")
        let result = try #require(try await PlayheadProcess.run(["thumbnail", clip.path, "--at", "0", "-o", output.path]))
        #expect(result.status == 0, "\(result.standardError)")
        #expect(try ThumbnailMedia.pngSize(output) == (240, 320))
        let reference = folder.appendingPathComponent("ref.png")
        try GeneratedMedia.runFFmpeg(["-i", clip.path, "-frames:v", "1", reference.path])
        #expect(try GeneratedMedia.psnr(output, reference) >= 35)
    }

    @Test func errorsExitWithOneLineOrUsage() async throws {
        let clip = try ThumbnailMedia.clip()
        let folder = try ThumbnailMedia.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("x.png").path
        let missing = try #require(try await PlayheadProcess.run(["thumbnail", "/nonexistent/a.mp4", "--at", "1", "-o", out]))
        #expect(missing.status == 1)
        #expect(missing.errorLines == ["playhead: /nonexistent/a.mp4: no such file"])
        let audio = try Fixture.url(.audioOnlyM4A)
        let audioRun = try #require(try await PlayheadProcess.run(["thumbnail", audio.path, "--at", "1", "-o", out]))
        #expect(audioRun.status == 1)
        #expect(audioRun.errorLines.count == 1 && audioRun.errorLines[0].hasPrefix("playhead: \(audio.path): "))
        let unwritable = try #require(
            try await PlayheadProcess.run(["thumbnail", clip.path, "--at", "1", "-o", "/nonexistent/dir/x.png"]))
        #expect(unwritable.status == 1)
        #expect(unwritable.errorLines.count == 1 && unwritable.errorLines[0].hasPrefix("playhead: /nonexistent/dir/x.png: "))
        for arguments in [
            ["thumbnail", clip.path, "-o", out],  // no time
            ["thumbnail", clip.path, "--at", "1"],  // no output
            ["thumbnail", clip.path, "--at", "-1", "-o", out],
            ["thumbnail", clip.path, "--at", "1", "-o", folder.appendingPathComponent("x.gif").path],
            ["thumbnail", clip.path, "--sheet", "0x2", "-o", out],
            ["thumbnail", clip.path, "--sheet", "1x1", "--at", "1", "--at", "2", "-o", out],
            ["thumbnail", clip.path, "--at", "1", "--width", "0", "-o", out],
        ] {
            let run = try #require(try await PlayheadProcess.run(arguments))
            #expect(run.status == 2, "\(arguments)")
        }
    }

    @Test func timesAndOutputNamesParse() {
        #expect(ThumbnailOptions.parseTime("2.5") == 2.5)
        #expect(ThumbnailOptions.parseTime("1:02.5") == 62.5)
        #expect(ThumbnailOptions.parseTime("1:00:02") == 3602)
        #expect(ThumbnailOptions.parseTime("1:75") == nil)
        #expect(ThumbnailOptions.parseTime("-1") == nil)
        #expect(ThumbnailOptions.parseTime("abc") == nil)
        #expect(ThumbnailOptions.outputPaths(for: "a/b.png", count: 1) == ["a/b.png"])
        #expect(ThumbnailOptions.outputPaths(for: "a/b.png", count: 2) == ["a/b-1.png", "a/b-2.png"])
        #expect(TimestampFont.label(62.5) == "1:02.50")
        #expect(TimestampFont.label(3723.04) == "1:02:03.04")
    }
}
