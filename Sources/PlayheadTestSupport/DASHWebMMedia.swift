// Playhead: a DASH presentation of WebM segments (VP9 video, Opus sound), written by FFmpeg's
// DASH muxer, for the tests of WebM through Playhead's own loader.
// Concurrency: files are made at most once per machine under FixtureCache's lock.
import Foundation

/// The WebM DASH fixture; see the file comment.
public enum DASHWebMMedia {
    /// Seconds of media.
    public static let duration = 12.0

    /// The video Representations (ids 0 and 1, lowest first): sizes and bit rates.
    public static let representations: [(id: String, width: Int, height: Int, bitRate: Int)] = [
        ("0", 160, 90, 200_000), ("1", 320, 180, 600_000),
    ]

    /// The folder holding `webm/manifest.mpd`: 12 s in 2 s `SegmentTemplate` segments
    /// (`chunk-stream<ID>-<NNNNN>.webm`, initialisation sections `init-stream<ID>.webm`), two
    /// VP9 video Representations (``representations``) and Representation 2, Opus at 64 kbit/s
    /// (440 Hz, 48 kHz mono, "eng"); 25 fps, a keyframe every second.
    public static func folder() throws -> URL {
        try FixtureCache.file(named: "dash-webm-v1") { folder in
            let directory = folder.appendingPathComponent("webm")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            var arguments = [
                "-f", "lavfi", "-i", "testsrc2=size=320x180:rate=25:duration=\(duration)",
                "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=\(duration)",
                "-map", "0:v", "-map", "0:v", "-map", "1:a", "-c:v", "libvpx-vp9", "-deadline", "realtime",
                "-cpu-used", "8", "-row-mt", "1", "-g", "25", "-keyint_min", "25",
            ]
            arguments += DASHMedia.ladderArguments(representations)
            arguments += [
                "-c:a", "libopus", "-b:a", "64k", "-metadata:s:a:0", "language=eng", "-f", "dash",
                "-dash_segment_type", "webm", "-seg_duration", "2", "-use_template", "1", "-use_timeline", "1",
                "-adaptation_sets", "id=0,streams=v id=1,streams=a", directory.appendingPathComponent("manifest.mpd").path,
            ]
            try FFmpeg.run(arguments)
        }
    }

    /// The folder holding `cues/manifest.mpd`, WebM DASH's on-demand profile as FFmpeg's
    /// `webm_dash_manifest` writes it: each Representation one WebM file (`video-<ID>.webm`,
    /// `audio.webm`) whose `SegmentBase` names its initialisation section and its Cues (after
    /// the clusters); ``representations`` in one AdaptationSet, Opus at 64 kbit/s in the other
    /// (Representation 2); 12 s, 25 fps, a keyframe (and a cluster) every second.
    public static func indexedFolder() throws -> URL {
        try FixtureCache.file(named: "dash-webm-cues-v1") { folder in
            let directory = folder.appendingPathComponent("cues")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            var inputs: [String] = []
            for representation in representations {
                let file = directory.appendingPathComponent("video-\(representation.id).webm")
                try FFmpeg.run([
                    "-f", "lavfi", "-i", "testsrc2=size=320x180:rate=25:duration=\(duration)",
                    "-s", "\(representation.width)x\(representation.height)", "-c:v", "libvpx-vp9", "-deadline", "realtime",
                    "-cpu-used", "8", "-b:v", "\(representation.bitRate)", "-g", "25", "-keyint_min", "25",
                    "-dash", "1", "-f", "webm", file.path,
                ])
                inputs.append(file.path)
            }
            let audio = directory.appendingPathComponent("audio.webm")
            try FFmpeg.run([
                "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=\(duration)", "-c:a", "libopus",
                "-b:a", "64k", "-metadata:s:a:0", "language=eng", "-dash", "1", "-f", "webm", audio.path,
            ])
            inputs.append(audio.path)
            var arguments: [String] = []
            for input in inputs { arguments += ["-f", "webm_dash_manifest", "-i", input] }
            let manifest = directory.appendingPathComponent("manifest.mpd")
            arguments += ["-c", "copy"] + inputs.indices.flatMap { ["-map", "\($0)"] }
            arguments += ["-f", "webm_dash_manifest", "-adaptation_sets", "id=0,streams=0,1 id=1,streams=2", manifest.path]
            try FFmpeg.run(arguments)
            // The manifest names each file as it was given: by its name, beside it.
            var text = try String(contentsOf: manifest, encoding: .utf8)
            for input in inputs {
                text = text.replacingOccurrences(of: input, with: URL(fileURLWithPath: input).lastPathComponent)
            }
            try text.write(to: manifest, atomically: true, encoding: .utf8)
        }
    }
}
