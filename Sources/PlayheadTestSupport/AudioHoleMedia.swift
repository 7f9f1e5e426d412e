// Playhead: audio whose timestamps jump, for tests of how a hole in a track plays: a 440 Hz
// tone whose second after the first is stamped 0.3 s later (Matroska keeps the jump; AAC,
// 48 kHz mono), as a damaged recording or a stream that lost packets has.
//
// Concurrency: the file is generated once per process (and cached between runs) by `FixtureCache`.
import Foundation

/// Audio with a hole in its timestamps; see the file comment.
public enum AudioHoleMedia {
    /// Where the hole begins (seconds, about: the AAC frame holding 1 s ends it).
    public static let holeStart = 1.0
    /// How long the hole lasts (seconds).
    public static let hole = 0.3

    /// The Matroska file: 1 s of tone, the hole, 1 s more.
    public static func url() throws -> URL {
        try FixtureCache.file(named: "audio-hole-v1.mka") { file in
            try FFmpeg.run([
                "-f", "lavfi", "-i", "sine=f=440:r=48000:d=2",
                "-af", "asetpts=if(gte(T\\,\(holeStart))\\,PTS+\(hole)/TB\\,PTS)",
                "-c:a", "aac", "-ac", "1", file.path,
            ])
        }
    }
}
