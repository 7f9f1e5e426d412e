// Playhead: media encrypted with Common Encryption (CENC, AES-CTR), as DRM-protected files and
// streams are, with no key at hand for the player: FFmpeg's MP4 muxer encrypts the samples.
//
// Concurrency: files generated once per process (and cached between runs) by `FixtureCache`.
import Foundation

/// Encrypted media fixtures; see the file comment.
public enum ProtectedMedia {
    /// The 16-byte key (and key ID) the samples are encrypted with, in hex.
    public static let key = "00112233445566778899aabbccddeeff"

    /// 3 s of 320x240 H.264 and AAC in MP4, every sample encrypted (`cenc-aes-ctr`).
    public static func mp4() throws -> URL {
        try GeneratedMedia.url(
            named: "protected-cenc", fileExtension: "mp4",
            ffmpeg: [
                "-f", "lavfi", "-i", "testsrc2=s=320x240:r=25:d=3", "-f", "lavfi", "-i", "sine=f=440:d=3",
                "-c:v", "libx264", "-c:a", "aac", "-encryption_scheme", "cenc-aes-ctr",
                "-encryption_key", key, "-encryption_kid", key,
            ])
    }

    /// 3 s of AAC alone in M4A, every sample encrypted (`cenc-aes-ctr`).
    public static func audioOnlyM4A() throws -> URL {
        try GeneratedMedia.url(
            named: "protected-cenc-audio", fileExtension: "m4a",
            ffmpeg: [
                "-f", "lavfi", "-i", "sine=f=440:d=3", "-c:a", "aac", "-encryption_scheme", "cenc-aes-ctr",
                "-encryption_key", key, "-encryption_kid", key,
            ])
    }
}
