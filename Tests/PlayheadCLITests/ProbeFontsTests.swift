// Playhead: `playhead probe` lists the fonts a Matroska file carries as attachments (text
// and JSON), run as a process on a file made with FFmpeg's `-attach`.
import Foundation
import PlayheadTestSupport
import Testing

@Suite("probe lists attached fonts")
struct ProbeFontsTests {
    /// A 1-second Matroska clip with DejaVu Sans attached as "Subtitle Font.ttf".
    static func clipWithFont() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("playhead-probe-fonts-\(getpid())")
        let url = folder.appendingPathComponent("with-font.mkv")
        if FileManager.default.fileExists(atPath: url.path) { return url }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let font = folder.appendingPathComponent("Subtitle Font.ttf")
        try? FileManager.default.copyItem(
            at: URL(fileURLWithPath: "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"), to: font)
        let result = try Subprocess.run(
            URL(fileURLWithPath: "/usr/bin/ffmpeg"),
            [
                "-y", "-loglevel", "error", "-f", "lavfi", "-i", "color=s=64x48:r=10:d=1", "-attach", font.path,
                "-metadata:s:t:0", "mimetype=application/x-truetype-font", "-c:v", "libx264", url.path,
            ], limit: 60)
        guard result.status == 0 else { throw TestSupportError("ffmpeg failed: \(result.errorText)") }
        return url
    }

    @Test func attachedFontsAreListedInTextAndJSON() async throws {
        let url = try Self.clipWithFont()
        guard let text = try await PlayheadProcess.run(["probe", url.path]) else { return }
        #expect(text.status == 0)
        let lines = text.standardOutput.split(separator: "\n").map(String.init)
        let heading = try #require(lines.firstIndex(of: "Fonts:"), "\(text.standardOutput)")
        #expect(lines.dropFirst(heading + 1).first == "  Subtitle Font.ttf  (application/x-truetype-font)")
        // The attachment is not a track.
        #expect(!text.standardOutput.contains("attachment"))

        guard let result = try await PlayheadProcess.run(["probe", "--json", url.path]) else { return }
        let json = try PlayheadProcess.jsonObject(result)
        let fonts = try #require(json["fonts"] as? [[String: Any]])
        #expect(fonts.map { $0["fileName"] as? String } == ["Subtitle Font.ttf"])
        #expect(fonts.first?["mimeType"] as? String == "application/x-truetype-font")
    }
}
