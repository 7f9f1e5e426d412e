// Playhead: the ffmpeg command line that produces one fixture, and how to run it.
import Foundation

/// One ffmpeg invocation that writes a fixture file.
///
/// `arguments` sit between the common prefix (`-nostdin -hide_banner -loglevel error -y`) and
/// the output path. Two placeholders are replaced just before running:
/// `{source}` becomes the path of ``source`` (a fixture this one is remuxed from) and
/// `{subtitles}` becomes the path of a SubRip file holding ``subtitles``.
struct FixtureRecipe: Sendable {
    static let sourcePlaceholder = "{source}"
    static let subtitlesPlaceholder = "{subtitles}"
    /// Bump to invalidate every cached fixture after a change in how recipes are run.
    static let cacheVersion = "1"

    var fileExtension: String
    var arguments: [String]
    var source: Fixture? = nil
    var subtitles: String? = nil
    /// Byte-level surgery applied to ffmpeg's output, for files ffmpeg refuses to write.
    var patch: FixturePatch? = nil

    /// Everything that determines the output bytes, folded into one string for hashing.
    var signature: String {
        var parts = [Self.cacheVersion, fileExtension] + arguments
        if let source { parts.append("source=" + source.recipe.signature) }
        if let subtitles { parts.append("subtitles=" + subtitles) }
        if let patch { parts.append("patch=\(patch)") }
        return parts.joined(separator: "\u{1F}")
    }

    /// Runs ffmpeg to write the fixture at `output`.
    func generate(to output: URL) throws {
        var resolved = arguments
        var scratch: URL?
        defer { if let scratch { try? FileManager.default.removeItem(at: scratch) } }
        if let source {
            let sourcePath = try Fixture.url(source).path
            resolved = resolved.map { $0 == Self.sourcePlaceholder ? sourcePath : $0 }
        }
        if let subtitles {
            let file = FixtureCache.scratchFile(named: "subtitles.srt")
            try Data(subtitles.utf8).write(to: file)
            scratch = file
            resolved = resolved.map { $0 == Self.subtitlesPlaceholder ? file.path : $0 }
        }
        try FFmpeg.run(resolved + [output.path])
        if let patch {
            try patch.apply(to: output)
        }
        let size = (try? FileManager.default.attributesOfItem(atPath: output.path)[.size]) as? Int
        guard let size, size > 0 else {
            throw TestSupportError("ffmpeg wrote no data for \(output.lastPathComponent)")
        }
    }
}

/// The `ffmpeg` command-line tool.
enum FFmpeg {
    /// Runs `ffmpeg -nostdin -hide_banner -loglevel error -y` followed by `arguments`.
    static func run(_ arguments: [String]) throws {
        let tool = try Subprocess.tool(named: "ffmpeg")
        let full = ["-nostdin", "-hide_banner", "-loglevel", "error", "-y"] + arguments
        let result = try Subprocess.run(tool, full)
        guard result.status == 0 else {
            throw TestSupportError(
                "ffmpeg \(full.joined(separator: " ")) exited with \(result.status): "
                    + result.errorText)
        }
    }
}
