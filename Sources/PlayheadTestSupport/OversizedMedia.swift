// Playhead: tiny files that declare enormous media ("decompression bombs"): a few hundred
// bytes written by ffmpeg, then header fields patched to absurd values.
import Foundation

/// A small file whose headers ask for far more memory or objects than a player should give.
///
/// Each is made from a tiny ffmpeg output with its header edited, so making one costs
/// milliseconds and a few kilobytes of disk; only a player that believes the header would pay.
public enum OversizedMedia: String, CaseIterable, Sendable {
    /// YUV4MPEG (`.y4m`) whose header says 16000x16000 (256 megapixels; FFmpeg itself allows it).
    case hugePictureY4M
    /// YUV4MPEG whose header says 40000x16 (a side far beyond any display).
    case widePictureY4M
    /// PNG whose IHDR says 16000x16000 (the CRC is fixed up, so the header is valid).
    case hugePicturePNG
    /// WAV whose `fmt ` chunk says 2,000,000,000 Hz.
    case absurdSampleRateWAV
    /// WAV whose `fmt ` chunk says 200 channels.
    case absurdChannelCountWAV
    /// Matroska with 300 (short, silent) audio streams.
    case manyStreamsMKV

    /// The one-line reason `playhead play` gives, or nil when the file is not refused outright
    /// (a PNG's size is only known by decoding it, which the pixel cap then refuses).
    public var expectedReason: String? {
        switch self {
        case .hugePictureY4M: return "picture too large (16000x16000 exceeds 67108864 pixels)"
        case .widePictureY4M: return "picture too large (40000x16 exceeds 16384x16384)"
        case .hugePicturePNG: return nil
        case .absurdSampleRateWAV:
            return "audio sample rate too high (2000000000 Hz exceeds 768000 Hz)"
        case .absurdChannelCountWAV: return "too many audio channels (200 exceeds 64)"
        case .manyStreamsMKV: return "too many streams (300 exceeds 256)"
        }
    }

    /// The cache sub-folder holding these files.
    public static let folderName = "oversized-v1"

    /// Returns the file, making it first when the cache has none.
    ///
    /// - Throws: ``TestSupportError`` when ffmpeg fails or the header is not where expected.
    public func url() throws -> URL {
        let name: String
        switch self {
        case .hugePictureY4M, .widePictureY4M: name = "\(rawValue).y4m"
        case .hugePicturePNG: name = "\(rawValue).png"
        case .absurdSampleRateWAV, .absurdChannelCountWAV: name = "\(rawValue).wav"
        case .manyStreamsMKV: name = "\(rawValue).mkv"
        }
        return try FixtureCache.file(named: "\(Self.folderName)/\(name)") { try make(at: $0) }
    }

    private func make(at output: URL) throws {
        let video = ["-f", "lavfi", "-i", "testsrc2=size=16x16:rate=25", "-frames:v", "2"]
        let audio = [
            "-f", "lavfi", "-i", "sine=duration=0.2:sample_rate=8000", "-c:a", "pcm_s16le",
        ]
        switch self {
        case .hugePictureY4M, .widePictureY4M:
            try FFmpeg.run(video + ["-pix_fmt", "yuv420p", output.path])
            let size = self == .hugePictureY4M ? "W16000 H16000" : "W40000 H16"
            try patch(output) { data in
                guard let range = data.range(of: Data("W16 H16".utf8)) else { return false }
                data.replaceSubrange(range, with: Data(size.utf8))
                return true
            }
        case .hugePicturePNG:
            try FFmpeg.run(Array(video.dropLast(2)) + ["-frames:v", "1", output.path])
            try patch(output) { data in
                // Signature (8), chunk length (4), "IHDR", width, height, 5 more bytes, CRC.
                guard data.count > 33, data[12..<16] == Data("IHDR".utf8) else { return false }
                data.replaceSubrange(16..<24, with: Self.bigEndian(16_000) + Self.bigEndian(16_000))
                data.replaceSubrange(29..<33, with: Self.bigEndian(CRC32.checksum(data[12..<29])))
                return true
            }
        case .absurdSampleRateWAV, .absurdChannelCountWAV:
            try FFmpeg.run(audio + [output.path])
            try patch(output) { data in
                guard let fmt = data.range(of: Data("fmt ".utf8)) else { return false }
                // Then: chunk size (4), format tag (2), channels (2), sample rate (4).
                let channels = fmt.upperBound + 6
                if self == .absurdSampleRateWAV {
                    data.replaceSubrange(
                        (channels + 2)..<(channels + 6), with: Self.littleEndian(2_000_000_000))
                } else {
                    data.replaceSubrange(channels..<(channels + 2), with: [200, 0])
                }
                return true
            }
        case .manyStreamsMKV:
            let maps = Array(repeating: ["-map", "0:a"], count: 300).flatMap { $0 }
            try FFmpeg.run(
                ["-f", "lavfi", "-i", "anullsrc=r=8000:cl=mono", "-t", "0.05"] + maps
                    + ["-c:a", "pcm_s16le", output.path])
        }
    }

    private func patch(_ url: URL, _ edit: (inout Data) -> Bool) throws {
        var data = try Data(contentsOf: url)
        guard edit(&data) else {
            throw TestSupportError("\(rawValue): unexpected header in ffmpeg's output")
        }
        try data.write(to: url)
    }

    private static func bigEndian(_ value: UInt32) -> Data {
        withUnsafeBytes(of: value.bigEndian) { Data($0) }
    }

    private static func littleEndian(_ value: UInt32) -> Data {
        withUnsafeBytes(of: value.littleEndian) { Data($0) }
    }
}

/// The CRC-32 PNG and zlib use (reflected polynomial 0xEDB88320).
enum CRC32 {
    static func checksum(_ bytes: Data) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = (crc >> 1) ^ (0xEDB8_8320 & (0 &- (crc & 1))) }
        }
        return ~crc
    }
}
