// Playhead: inputs that are not playable media, for testing failure paths.
import Foundation

/// A path that a player must reject cleanly rather than crash on or hang.
///
/// All of them live in one folder of the fixture cache, named after ``folderName``.
public enum BadInput: String, CaseIterable, Sendable {
    /// A path to `missing.mp4` that does not exist.
    case missingFile
    /// A directory named `directory.mp4`.
    case directory
    /// A zero-byte file named `empty.mp4`.
    case emptyFile
    /// 64 KiB of pseudo-random bytes (fixed seed, so identical on every machine), `random.bin`.
    case randomBytes
    /// A plain-text file named `notes.mp4`.
    case textFileNamedMP4
    /// The first 40% of ``Fixture/mp4`` (whose `moov` atom is at the end), `truncated.mp4`.
    case truncatedMP4

    /// The seed behind ``randomBytes``.
    public static let randomSeed: UInt64 = 0x504C_4159_4845_4144
    /// The size of ``randomBytes`` in bytes.
    public static let randomByteCount = 64 * 1024
    /// The share of ``Fixture/mp4`` kept by ``truncatedMP4``.
    public static let truncatedFraction = 0.4
    /// The text stored in ``textFileNamedMP4``.
    public static let notesText = """
        Meeting notes, not a movie.
        - pick a release date
        - buy popcorn

        """

    /// The cache sub-folder that holds every bad input.
    public static let folderName = "bad-inputs-v1"

    /// Returns the path for `input`, creating whatever should exist there first.
    ///
    /// - Throws: ``TestSupportError`` if the cache cannot be written or ffmpeg fails.
    public static func url(_ input: BadInput) throws -> URL {
        try input.url()
    }

    /// Returns this input's path; see ``url(_:)``.
    public func url() throws -> URL {
        switch self {
        case .missingFile:
            let url = FixtureCache.directory
                .appendingPathComponent(Self.folderName, isDirectory: true)
                .appendingPathComponent("missing.mp4")
            if FileManager.default.fileExists(atPath: url.path) {
                throw TestSupportError("\(url.path) should not exist; delete it")
            }
            return url
        case .directory:
            return try cached("directory.mp4") {
                try FileManager.default.createDirectory(at: $0, withIntermediateDirectories: false)
            }
        case .emptyFile:
            return try cached("empty.mp4") { try Data().write(to: $0) }
        case .randomBytes:
            return try cached("random.bin") {
                var generator = SeededGenerator(seed: Self.randomSeed)
                try generator.bytes(count: Self.randomByteCount).write(to: $0)
            }
        case .textFileNamedMP4:
            return try cached("notes.mp4") { try Data(Self.notesText.utf8).write(to: $0) }
        case .truncatedMP4:
            let source = try Fixture.url(.mp4)
            let tag = StableHash.hex(source.lastPathComponent).prefix(8)
            return try cached("truncated-\(tag).mp4") { output in
                let whole = try Data(contentsOf: source)
                let prefix = whole.prefix(Int(Double(whole.count) * Self.truncatedFraction))
                guard prefix.range(of: Data("moov".utf8)) == nil else {
                    throw TestSupportError("\(source.path) has its moov atom near the front")
                }
                try prefix.write(to: output)
            }
        }
    }

    private func cached(_ name: String, _ produce: (URL) throws -> Void) throws -> URL {
        try FixtureCache.file(named: "\(Self.folderName)/\(name)", produce: produce)
    }
}
