// Playhead: DASH presentations made with FFmpeg's DASH muxer for tests of Playhead's loader:
// a two-Representation video ladder with an English audio AdaptationSet, addressed by
// `SegmentTemplate` (`$Number$` with a `SegmentTimeline`), and the same presentation in one
// file per Representation addressed by `SegmentList` byte ranges.
//
// Concurrency: files generated once per process (and cached between runs) by `FixtureCache`.
import Foundation

/// DASH fixtures; see the file comment.
public enum DASHMedia {
    /// Seconds of media.
    public static let duration = 6.0
    /// The video Representations, lowest first: id, picture size, target bit rate.
    public static let representations: [(id: String, width: Int, height: Int, bitRate: Int)] = [
        ("0", 160, 90, 200_000), ("1", 320, 180, 800_000),
    ]

    /// The folder holding `template/manifest.mpd` (segments `chunk-stream<ID>-<NNNNN>.m4s`,
    /// initialisation sections `init-stream<ID>.m4s`; Representation 2 is the audio) and
    /// `list/manifest.mpd` (`manifest-stream<ID>.mp4`, one file per Representation).
    public static func folder() throws -> URL {
        try FixtureCache.file(named: "dash-v1") { folder in
            for (name, extra) in [
                ("template", ["-use_template", "1", "-use_timeline", "1"]), ("list", ["-single_file", "1"]),
            ] {
                let directory = folder.appendingPathComponent(name)
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                var arguments = [
                    "-f", "lavfi", "-i", "testsrc2=size=320x180:rate=25:duration=\(duration),noise=alls=20:allf=t",
                    "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=44100:duration=\(duration)",
                    "-map", "0:v", "-map", "0:v", "-map", "1:a", "-c:v", "libx264", "-preset", "veryfast",
                    "-pix_fmt", "yuv420p", "-g", "25", "-keyint_min", "25", "-sc_threshold", "0",
                ]
                for (index, representation) in representations.enumerated() {
                    arguments += [
                        "-b:v:\(index)", "\(representation.bitRate)", "-maxrate:v:\(index)", "\(representation.bitRate)",
                        "-bufsize:v:\(index)", "\(representation.bitRate)",
                        "-s:v:\(index)", "\(representation.width)x\(representation.height)",
                    ]
                }
                arguments += [
                    "-c:a", "aac", "-b:a", "64k", "-metadata:s:a:0", "language=eng", "-f", "dash",
                    "-seg_duration", "1", "-adaptation_sets", "id=0,streams=v id=1,streams=a",
                ] + extra + [directory.appendingPathComponent("manifest.mpd").path]
                try FFmpeg.run(arguments)
            }
        }
    }
}
