// Playhead: damaged copies of the fixtures (bytes overwritten, ranges zeroed, files cut short),
// made deterministically from fixed seeds, for "never crashes, never hangs" tests.
import Foundation

/// A fixture or real-world clip with one kind of damage applied.
///
/// The damage depends only on the source bytes, the ``Damage`` and the seed, so a variant that
/// fails on one machine fails the same way everywhere. Files are written once into the fixture
/// cache (folder ``folderName``) and reused.
public struct CorruptedMedia: Sendable, Hashable, CustomStringConvertible {
    /// What is done to the bytes.
    public enum Damage: Sendable, Hashable, CustomStringConvertible {
        /// `count` single bytes overwritten with random values at random offsets.
        case scatter(count: Int)
        /// `count` random bytes overwritten within the first 1 KiB (headers, codec setup).
        case header(count: Int)
        /// A run of zeros covering `fraction` of the file from a random offset.
        case zeroRange(fraction: Double)
        /// A 4 KiB block of random bytes written at a random offset.
        case junkBlock
        /// Only the first `fraction` of the file kept.
        case truncate(fraction: Double)

        /// A short name for file names and test output, such as `scatter64`.
        public var description: String {
            switch self {
            case .scatter(let count): return "scatter\(count)"
            case .header(let count): return "header\(count)"
            case .zeroRange(let fraction): return "zero\(Int(fraction * 100))pct"
            case .junkBlock: return "junk4k"
            case .truncate(let fraction): return "cut\(Int(fraction * 100))pct"
            }
        }
    }

    /// Where the undamaged bytes come from.
    public enum Source: Sendable, Hashable, CustomStringConvertible {
        case fixture(Fixture)
        /// A file outside the fixture catalogue, such as one of ``RealWorldMedia/files()``.
        case file(path: String)
        /// The file at `path` stream-copied into `container` (a file extension such as "mkv").
        case remuxed(path: String, container: String)

        /// The fixture's name or the file's last path component.
        public var description: String {
            switch self {
            case .fixture(let fixture): return fixture.rawValue
            case .file(let path): return URL(fileURLWithPath: path).lastPathComponent
            case .remuxed(let path, let container):
                return URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent + "."
                    + container
            }
        }

        /// The undamaged file (a remux is written into the fixture cache first).
        public func url() throws -> URL {
            switch self {
            case .fixture(let fixture): return try fixture.url()
            case .file(let path): return URL(fileURLWithPath: path)
            case .remuxed(let path, let container):
                return try RealWorldMedia.remuxed(URL(fileURLWithPath: path), container: container)
            }
        }
    }

    /// The undamaged media.
    public let source: Source
    /// What is done to it.
    public let damage: Damage
    /// Picks the offsets and bytes of the damage.
    public let seed: UInt64

    /// A variant of `source` with `damage` placed by `seed`.
    public init(_ source: Source, _ damage: Damage, seed: UInt64 = 1) {
        self.source = source
        self.damage = damage
        self.seed = seed
    }

    /// A variant of `fixture` with `damage` placed by `seed`.
    public init(_ fixture: Fixture, _ damage: Damage, seed: UInt64 = 1) {
        self.init(.fixture(fixture), damage, seed: seed)
    }

    /// Source, damage and seed, e.g. `mp4 scatter64 seed 1`.
    public var description: String { "\(source) \(damage) seed \(seed)" }

    /// The cache sub-folder holding every damaged file.
    public static let folderName = "corrupted-v1"

    /// Returns the damaged file, writing it first when the cache has none.
    ///
    /// - Throws: ``TestSupportError`` when the source cannot be made or read.
    public func url() throws -> URL {
        let sourceURL = try source.url()
        let key = "\(sourceURL.lastPathComponent)|\(damage)|\(seed)"
        let stem = sourceURL.deletingPathExtension().lastPathComponent
        let name =
            "\(stem)-\(damage)-s\(seed)-\(StableHash.hex(key).prefix(8)).\(sourceURL.pathExtension)"
        return try FixtureCache.file(named: "\(Self.folderName)/\(name)") { output in
            try damaged(try Data(contentsOf: sourceURL)).write(to: output)
        }
    }

    /// `bytes` with this variant's damage applied.
    public func damaged(_ bytes: Data) -> Data {
        var data = [UInt8](bytes)
        guard !data.isEmpty else { return bytes }
        var generator = SeededGenerator(
            seed: seed ^ (UInt64(StableHash.hex(damage.description), radix: 16) ?? 0))
        func offset(below limit: Int) -> Int { Int(generator.next() % UInt64(max(1, limit))) }
        switch damage {
        case .scatter(let count):
            for _ in 0..<count {
                data[offset(below: data.count)] = UInt8(truncatingIfNeeded: generator.next())
            }
        case .header(let count):
            let end = min(data.count, 1024)
            for _ in 0..<count {
                data[offset(below: end)] = UInt8(truncatingIfNeeded: generator.next())
            }
        case .zeroRange(let fraction):
            let length = max(1, Int(Double(data.count) * fraction))
            let start = offset(below: data.count - length + 1)
            data.replaceSubrange(start..<(start + length), with: repeatElement(0, count: length))
        case .junkBlock:
            let length = min(4096, data.count)
            let start = offset(below: data.count - length + 1)
            for index in start..<(start + length) {
                data[index] = UInt8(truncatingIfNeeded: generator.next())
            }
        case .truncate(let fraction):
            data.removeLast(data.count - max(1, Int(Double(data.count) * fraction)))
        }
        return Data(data)
    }

    // MARK: - Sets

    /// About twenty variants across the main containers and every kind of damage: the set
    /// `make test` runs.
    public static let fastSet: [CorruptedMedia] = [
        CorruptedMedia(.mp4, .scatter(count: 64)),
        CorruptedMedia(.mp4, .header(count: 16)),
        CorruptedMedia(.mov, .truncate(fraction: 0.7)),
        CorruptedMedia(.matroska, .zeroRange(fraction: 0.1)),
        CorruptedMedia(.webM, .truncate(fraction: 0.5)),
        CorruptedMedia(.avi, .scatter(count: 64)),
        CorruptedMedia(.flv, .junkBlock),
        CorruptedMedia(.mpegTransportStream, .scatter(count: 128)),
        CorruptedMedia(.mpegProgramStream, .zeroRange(fraction: 0.1)),
        CorruptedMedia(.vob, .header(count: 16)),
        CorruptedMedia(.oggTheora, .junkBlock),
        CorruptedMedia(.windowsMedia, .scatter(count: 64)),
        CorruptedMedia(.realMedia, .truncate(fraction: 0.5)),
        CorruptedMedia(.nut, .zeroRange(fraction: 0.1)),
        CorruptedMedia(.mxf, .scatter(count: 64)),
        CorruptedMedia(.threeGP, .header(count: 16)),
        CorruptedMedia(.mp3WithCoverArt, .junkBlock),
        CorruptedMedia(.flac, .scatter(count: 32)),
        CorruptedMedia(.wav, .header(count: 16)),
        CorruptedMedia(.oggOpus, .zeroRange(fraction: 0.1)),
        CorruptedMedia(.caf, .truncate(fraction: 0.6)),
        CorruptedMedia(.wavPack, .junkBlock),
    ]

    /// Every fixture with each kind of damage (two seeds of scattered bytes), plus the 60
    /// real-world variants of ``realWorldSet()`` when the clips are present: the set
    /// `make stress` runs.
    public static func fullSet() -> [CorruptedMedia] {
        let damages: [(Damage, UInt64)] = [
            (.scatter(count: 64), 1), (.scatter(count: 256), 2), (.header(count: 16), 1),
            (.zeroRange(fraction: 0.1), 1), (.junkBlock, 1), (.truncate(fraction: 0.6), 1),
        ]
        var set = Fixture.allCases.flatMap { fixture in
            damages.map { CorruptedMedia(fixture, $0.0, seed: $0.1) }
        }
        set += realWorldSet()
        return set
    }
}
