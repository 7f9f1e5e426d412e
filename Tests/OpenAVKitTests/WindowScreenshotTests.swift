// Playhead: the window's screenshot: where the PNG goes (beside a local file, else Pictures,
// never over an existing file) and that it holds the picture's pixels (decoded back with the
// ffmpeg CLI).
import FFmpegBridge
import Foundation
import OpenAVFoundation
import PlayheadTestSupport
import Testing

@testable import OpenAVKit

@Suite struct WindowScreenshotTests {
    let folder: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "playhead-screenshot-\(getpid())-\(UUID().uuidString.prefix(8))")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }()

    @Test func aLocalFileGetsItsScreenshotsBesideItNumberedWhenTaken() throws {
        let media = folder.appendingPathComponent("Holiday Film.mkv")
        let time = CMTime(value: 3_723_456, timescale: 1000)  // 1:02:03.456
        let first = WindowScreenshot.destination(for: media, at: time)
        #expect(first == folder.appendingPathComponent("Holiday Film-1-02-03.456.png"))
        try Data().write(to: first)
        #expect(
            WindowScreenshot.destination(for: media, at: time)
                == folder.appendingPathComponent("Holiday Film-1-02-03.456-2.png"))
    }

    @Test func streamsAndUnwritableFoldersGoToPictures() throws {
        let pictures = folder.appendingPathComponent("Pics", isDirectory: true)
        try FileManager.default.createDirectory(at: pictures, withIntermediateDirectories: true)
        let environment = ["XDG_PICTURES_DIR": pictures.path, "HOME": folder.path]
        let stream = WindowScreenshot.destination(
            for: URL(string: "https://example.com/live/index.m3u8"), at: CMTime(value: 5, timescale: 1),
            environment: environment)
        #expect(stream == pictures.appendingPathComponent("index-0-00-05.000.png"))
        let nothing = WindowScreenshot.destination(for: nil, at: .zero, environment: ["HOME": folder.path])
        #expect(nothing.deletingLastPathComponent().path == folder.path, "no Pictures folder: home")
        #expect(nothing.lastPathComponent == "playhead-0-00-00.000.png")
        // A folder that cannot be written (here: one that is gone; root may write anywhere).
        let readOnly = WindowScreenshot.destination(
            for: folder.appendingPathComponent("gone/film.mp4"), at: .zero, environment: environment)
        #expect(readOnly.deletingLastPathComponent().path == pictures.path)
    }

    @Test func thePNGHoldsThePicturesPixels() throws {
        let picture = TestPicture.rgba(width: 64, height: 48) { x, y in (UInt8(x * 4), UInt8(y * 5), 200) }
        let destination = folder.appendingPathComponent("shot.png")
        #expect(WindowScreenshot.write(picture, to: destination) == .saved(destination))
        let raw = folder.appendingPathComponent("shot.rgb")
        let result = try Subprocess.run(
            URL(fileURLWithPath: "/usr/bin/ffmpeg"),
            ["-y", "-loglevel", "error", "-i", destination.path, "-f", "rawvideo", "-pix_fmt", "rgb24", raw.path],
            limit: 60)
        #expect(result.status == 0)
        let rgb = [UInt8](try Data(contentsOf: raw))
        #expect(rgb.count == 64 * 48 * 3)
        let offset = (10 * 64 + 20) * 3
        #expect(Array(rgb[offset..<offset + 3]) == [80, 50, 200])
        // Never over an existing file.
        #expect(WindowScreenshot.write(picture, to: destination) != .saved(destination))
    }

    @Test func aPictureThatCannotBeConvertedIsAFailureNotACrash() {
        let picture = TestPicture.yuv(width: 8, height: 8, y: 100)  // test pictures convert only RGBA
        let destination = folder.appendingPathComponent("never.png")
        #expect(WindowScreenshot.write(picture, to: destination) == .failed("cannot convert the picture"))
        #expect(!FileManager.default.fileExists(atPath: destination.path))
        #expect(WindowScreenshot.Outcome.saved(destination).message == "Screenshot: never.png")
    }
}
