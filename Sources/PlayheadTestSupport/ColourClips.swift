// Playhead: one-colour clips whose YUV samples use a stated matrix and range, and FFmpeg's own
// RGB for them, to check that pictures on screen have the colours their streams state.
import Foundation

// Concurrency: stateless; clips are made under GeneratedMedia's per-file lock.

/// Clips of one orange-red (0xC03020) encoded losslessly with a given matrix and range.
public enum ColourClips {
    /// A clip's name, size, matrix, range, tags and encoder.
    public struct Kind: Sendable, CustomStringConvertible {
        /// A short name, part of the file's.
        public let name: String
        /// Width x height.
        public let size: String
        /// The matrix the samples are made with (FFmpeg's scale filter names).
        public let matrix: String
        /// "tv" (video range) or "pc" (full range).
        public let range: String
        /// The stream's colour tags (ffmpeg options).
        public let tags: [String]
        /// True for VP9 in WebM, false for H.264 in MP4.
        public let vp9: Bool
        /// The name.
        public var description: String { name }
    }

    /// BT.709 video range at 640×360 (SDL's own guess for that size is BT.601).
    public static let bt709SD = Kind(
        name: "bt709-sd", size: "640x360", matrix: "bt709", range: "tv",
        tags: ["-colorspace", "bt709"], vp9: false)
    /// BT.709 with its primaries and transfer function stated too.
    public static let bt709Tagged = Kind(
        name: "bt709-tagged", size: "320x240", matrix: "bt709", range: "tv",
        tags: ["-colorspace", "bt709", "-color_primaries", "bt709", "-color_trc", "bt709"],
        vp9: false)
    /// BT.601 full range in VP9 (decoded as yuv420p flagged full range, not yuvj420p).
    public static let fullRangeVP9 = Kind(
        name: "bt601-full", size: "640x360", matrix: "bt601", range: "pc",
        tags: ["-colorspace", "smpte170m", "-color_range", "pc"], vp9: true)
    /// BT.2020 (no SDL conversion: drawn as RGBA converted by swscale).
    public static let bt2020 = Kind(
        name: "bt2020", size: "320x240", matrix: "bt2020", range: "tv",
        tags: ["-colorspace", "bt2020nc"], vp9: false)

    /// The clip of `kind`, `seconds` long.
    public static func url(_ kind: Kind, seconds: Double = 0.4) throws -> URL {
        let encoder =
            kind.vp9
            ? ["-c:v", "libvpx-vp9", "-lossless", "1", "-deadline", "realtime"]
            : ["-c:v", "libx264", "-qp", "0", "-preset", "ultrafast"]
        return try GeneratedMedia.url(
            named: "colour-clip-\(kind.name)-\(seconds)", fileExtension: kind.vp9 ? "webm" : "mp4",
            ffmpeg: [
                "-f", "lavfi", "-i", "color=c=0xC03020:s=\(kind.size):d=\(seconds):r=10",
                "-vf",
                "scale=out_color_matrix=\(kind.matrix):out_range=\(kind.range),format=yuv420p",
            ] + kind.tags + encoder)
    }

    /// FFmpeg's red, green and blue for the clip's first picture (its scale filter reads the
    /// stream's tags).
    public static func ffmpegColour(_ url: URL) throws -> (red: Int, green: Int, blue: Int) {
        let raw = FileManager.default.temporaryDirectory.appendingPathComponent(
            UUID().uuidString + ".rgb")
        defer { try? FileManager.default.removeItem(at: raw) }
        try GeneratedMedia.runFFmpeg([
            "-i", url.path, "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgb24", raw.path,
        ])
        let bytes = [UInt8](try Data(contentsOf: raw))
        guard bytes.count >= 3 else { throw TestSupportError("no picture from ffmpeg") }
        return (Int(bytes[0]), Int(bytes[1]), Int(bytes[2]))
    }

    /// The largest difference between two colours' components.
    public static func difference(
        _ first: (red: Int, green: Int, blue: Int),
        _ second: (red: UInt8, green: UInt8, blue: UInt8)
    ) -> Int {
        max(
            abs(first.red - Int(second.red)), abs(first.green - Int(second.green)),
            abs(first.blue - Int(second.blue)))
    }
}
