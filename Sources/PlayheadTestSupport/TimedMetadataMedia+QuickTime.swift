// Playhead: an MP4 with a QuickTime timed metadata track ('mebx'), as a phone camera or
// AVAssetWriter records one: H.264 from ffmpeg, the metadata track added byte by byte.
// Concurrency: pure functions and the fixture cache's file lock.
import Foundation

extension TimedMetadataMedia {
    /// One sample of the movie's metadata track: when it starts (each lasts one second), its
    /// title, its ISO 6709 location and the direction the camera faced.
    public struct BoxedSample: Sendable {
        /// The sample's start in seconds.
        public var seconds: Double
        /// The "com.apple.quicktime.title" value (UTF-8).
        public var title: String
        /// The "com.apple.quicktime.location.ISO6709" value (UTF-8).
        public var location: String
        /// The "com.apple.quicktime.direction.facing" value (float32, degrees).
        public var facing: Float
    }

    /// The metadata track's samples: 0–1 s, 1–2 s and 2–3 s.
    public static let boxedSamples: [BoxedSample] = [
        BoxedSample(seconds: 0, title: "Harbour", location: "+48.8577+002.2950+035.000/", facing: 90),
        BoxedSample(seconds: 1, title: "Bridge", location: "+40.6892-074.0445/", facing: 180.5),
        BoxedSample(seconds: 2, title: "Tower", location: "+35.6586+139.7454/", facing: 270.25),
    ]

    /// The keys the metadata track declares: local IDs 1 (title), 2 (location), 3 (facing).
    public static let boxedKeys: [BoxedMetadataBytes.Key] = [
        .init(localID: 1, name: "com.apple.quicktime.title", wellKnownType: 1),
        .init(localID: 2, name: "com.apple.quicktime.location.ISO6709", wellKnownType: 1),
        .init(localID: 3, name: "com.apple.quicktime.direction.facing", wellKnownType: 23),
    ]

    /// The bytes of one sample of the metadata track.
    public static func boxedSampleBytes(_ sample: BoxedSample) -> [UInt8] {
        BoxedMetadataBytes.sample([
            (1, Array(sample.title.utf8)), (2, Array(sample.location.utf8)),
            (3, BoxedMetadataBytes.be32(sample.facing.bitPattern)),
        ])
    }

    /// A 4 s MP4 (160x120 H.264 at 10 fps) with a timed metadata track of ``boxedSamples``.
    public static func quickTimeMovie() throws -> URL {
        try FixtureCache.file(named: "timed-metadata-v3/mebx.mp4") { output in
            let plain = FixtureCache.scratchFile(named: "mebx-plain.mp4")
            defer { try? FileManager.default.removeItem(at: plain) }
            try FFmpeg.run(
                ["-f", "lavfi", "-i", "testsrc2=size=160x120:rate=10:duration=4"]
                    + ["-c:v", "libx264", "-preset", "ultrafast", "-g", "10", "-f", "mp4", plain.path])
            let movie = try BoxedMetadataBytes.addingTrack(
                to: Array(try Data(contentsOf: plain)), keys: boxedKeys,
                samples: boxedSamples.map(boxedSampleBytes), sampleMilliseconds: 1000)
            try Data(movie).write(to: output)
        }
    }
}
