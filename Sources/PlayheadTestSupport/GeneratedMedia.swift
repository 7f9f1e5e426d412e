// Playhead: test media made from an ad-hoc ffmpeg command (longer or special clips than the
// Fixture catalogue has), cached like the fixtures; and a PSNR comparison of two pictures.
import Foundation

// Concurrency: stateless; files are produced under FixtureCache's per-file lock, so any thread
// may ask for the same file at the same time.

/// Media files produced by a caller-given ffmpeg command, cached on disk.
public enum GeneratedMedia {
    /// The cached output of `ffmpeg <arguments> OUTPUT`, made on first request.
    ///
    /// - Parameters:
    ///   - name: a short name for the file (the cache key adds a hash of the arguments).
    ///   - fileExtension: the output's extension, which selects the container (`mp4`, `png`).
    ///   - arguments: ffmpeg's arguments before the output path.
    /// - Throws: ``TestSupportError`` when ffmpeg is missing or fails.
    public static func url(named name: String, fileExtension: String, ffmpeg arguments: [String]) throws -> URL {
        let hash = StableHash.hex(([name, fileExtension] + arguments).joined(separator: "\u{1}"))
        return try FixtureCache.file(named: "generated/\(name)-\(hash).\(fileExtension)") { output in
            try FFmpeg.run(arguments + [output.path])
        }
    }

    /// Runs `ffmpeg -nostdin -hide_banner -loglevel error -y <arguments>`.
    ///
    /// - Throws: ``TestSupportError`` when ffmpeg is missing or exits with an error.
    public static func runFFmpeg(_ arguments: [String]) throws {
        try FFmpeg.run(arguments)
    }

    /// The average PSNR in dB between two pictures of the same size, measured by ffmpeg's
    /// `psnr` filter (`inf` when identical).
    ///
    /// - Throws: ``TestSupportError`` when ffmpeg fails or prints no PSNR line.
    public static func psnr(_ first: URL, _ second: URL) throws -> Double {
        let tool = try Subprocess.tool(named: "ffmpeg")
        let result = try Subprocess.run(
            tool,
            ["-nostdin", "-hide_banner", "-i", first.path, "-i", second.path, "-lavfi", "psnr", "-f", "null", "-"])
        let text = result.errorText
        guard result.status == 0, let range = text.range(of: "average:") else {
            throw TestSupportError("ffmpeg psnr failed: \(text.suffix(300))")
        }
        let word = text[range.upperBound...].prefix { !$0.isWhitespace }
        if word == "inf" { return .infinity }
        guard let value = Double(word) else { throw TestSupportError("unreadable psnr '\(word)'") }
        return value
    }
}
