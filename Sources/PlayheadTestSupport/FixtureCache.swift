// Playhead: the on-disk cache where generated test media lives, one file per recipe.
import Foundation

/// Creates each cached file at most once per machine, however many tests ask at the same time.
///
/// A file is produced under a temporary name while its lock is held, then renamed into place.
/// Readers that find the final name therefore always see a complete file.
enum FixtureCache {
    /// `$PLAYHEAD_FIXTURE_CACHE`, or `playhead-fixtures` inside `$TMPDIR` (default `/tmp`).
    static var directory: URL {
        let environment = ProcessInfo.processInfo.environment
        if let path = environment["PLAYHEAD_FIXTURE_CACHE"], !path.isEmpty {
            return URL(fileURLWithPath: path, isDirectory: true)
        }
        let temporary = environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        return URL(fileURLWithPath: temporary, isDirectory: true)
            .appendingPathComponent("playhead-fixtures", isDirectory: true)
    }

    /// Returns the cached file `name`, calling `produce` to write it first if it is missing.
    ///
    /// - Parameters:
    ///   - name: The final file name, relative to ``directory`` (it may contain one or more
    ///     folders); it should embed a hash of whatever determines the content.
    ///   - produce: Writes the content to the URL it is given (a temporary path with the same
    ///     extension as `name`).
    /// - Throws: ``TestSupportError`` when the directory cannot be prepared, or whatever
    ///   `produce` throws.
    static func file(named name: String, produce: (URL) throws -> Void) throws -> URL {
        let root = directory
        let final = root.appendingPathComponent(name)
        if FileManager.default.fileExists(atPath: final.path) {
            return final
        }
        let locks = root.appendingPathComponent(".locks", isDirectory: true)
        let folder = final.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: locks, withIntermediateDirectories: true)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw TestSupportError("cannot create fixture cache \(root.path): \(error)")
        }
        let lockName = name.replacingOccurrences(of: "/", with: "_") + ".lock"
        return try FileLock.withLock(at: locks.appendingPathComponent(lockName)) {
            if FileManager.default.fileExists(atPath: final.path) {
                return final
            }
            let process = ProcessInfo.processInfo.processIdentifier
            let partial = folder.appendingPathComponent(
                ".partial-\(process)-\(UUID().uuidString)-\(final.lastPathComponent)")
            defer { try? FileManager.default.removeItem(at: partial) }
            try produce(partial)
            guard rename(partial.path, final.path) == 0 else {
                throw TestSupportError("cannot move \(partial.path) into place: errno \(errno)")
            }
            return final
        }
    }

    /// A scratch path inside the cache for helper inputs (such as subtitle files).
    static func scratchFile(named name: String) -> URL {
        directory.appendingPathComponent(".scratch-\(UUID().uuidString)-\(name)")
    }
}
