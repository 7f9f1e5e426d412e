// Playhead: where each file was left, for `playhead play --resume`: a small JSON file under the
// XDG state folder (`$XDG_STATE_HOME/playhead/resume.json`, else
// `~/.local/state/playhead/resume.json`), keyed by the media's absolute path or URL, the most
// recent first and never more than `limit` entries. A position in the first seconds or near
// the end is not worth resuming: it removes the entry instead. The file is replaced whole
// (written beside it, then renamed); a file that cannot be read is one warning and a fresh start.
//
// Concurrency: a value used by `PlaySession` on the main actor; it touches the file only in
// `load` and `save`.
import Foundation

/// Remembered playback positions, by media.
struct ResumeStore: Equatable {
    /// One remembered position.
    struct Entry: Codable, Equatable {
        /// The media's absolute path, or its URL.
        var key: String
        /// Seconds into the media.
        var position: Double
        /// When it was remembered (seconds since 1970).
        var savedAt: Double
    }

    private struct File: Codable {
        var version: Int
        var entries: [Entry]
    }

    /// Positions earlier than this are not worth resuming (seconds).
    static let startWindow = 5.0
    /// The file's default bound.
    static let defaultLimit = 200

    /// Where the state lives.
    let file: URL
    /// The most entries kept (the oldest go first).
    let limit: Int
    /// The entries, most recently saved first.
    private(set) var entries: [Entry] = []
    /// Something changed since the last load or save.
    private(set) var isDirty = false

    /// An empty store for `file` (call `load` to read it).
    init(file: URL, limit: Int = ResumeStore.defaultLimit) {
        self.file = file
        self.limit = limit
    }

    /// `$XDG_STATE_HOME/playhead/resume.json` (an absolute XDG_STATE_HOME only, as the XDG
    /// specification says), else `$HOME/.local/state/playhead/resume.json`.
    static func defaultFile(environment: [String: String] = ProcessInfo.processInfo.environment)
        -> URL
    {
        let base: URL
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
            base = URL(fileURLWithPath: state, isDirectory: true)
        } else {
            let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
            base = URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(
                ".local/state", isDirectory: true)
        }
        return base.appendingPathComponent("playhead/resume.json")
    }

    /// The key for a media URL: a file's absolute, standardised path, else the URL.
    static func key(for url: URL) -> String {
        url.isFileURL ? url.standardizedFileURL.path : url.absoluteString
    }

    /// Reads the file. A missing file is an empty store; one that cannot be read or parsed
    /// returns a warning line and leaves the store empty (the next save replaces it).
    mutating func load() -> String? {
        entries = []
        isDirty = false
        guard let data = try? Data(contentsOf: file) else {
            guard FileManager.default.fileExists(atPath: file.path) else { return nil }
            return "playhead: warning: \(file.path): cannot be read; resume positions start afresh"
        }
        guard let parsed = try? JSONDecoder().decode(File.self, from: data), parsed.version == 1
        else {
            return
                "playhead: warning: \(file.path): not a resume state file; resume positions start afresh"
        }
        entries = Array(
            parsed.entries.filter { $0.position.isFinite && $0.position >= 0 }.prefix(limit))
        return nil
    }

    /// The remembered position for `key`, if any.
    func position(for key: String) -> Double? {
        entries.first { $0.key == key }?.position
    }

    /// Remembers that `key` stopped at `position` of `duration` seconds (nil: unknown, e.g. a
    /// live stream), or forgets it when that is not worth resuming: in the first seconds,
    /// near the end (the last 5 s or 5 %), or without a duration.
    mutating func record(_ key: String, position: Double, duration: Double?, now: Date = Date()) {
        let before = entries
        entries.removeAll { $0.key == key }
        if Self.isWorthResuming(position: position, duration: duration) {
            entries.insert(
                Entry(key: key, position: position, savedAt: now.timeIntervalSince1970), at: 0)
            if entries.count > limit { entries.removeLast(entries.count - limit) }
        }
        if entries != before { isDirty = true }
    }

    /// True for a position past the first seconds and before the end.
    static func isWorthResuming(position: Double, duration: Double?) -> Bool {
        guard let duration, duration.isFinite, duration > 0, position.isFinite else { return false }
        let endWindow = max(5, duration * 0.05)
        return position >= startWindow && position <= duration - endWindow
    }

    /// Writes the file whole: a temporary file beside it, renamed over it, so a reader (or a
    /// crash) never sees half of one. Returns a warning line when it cannot.
    mutating func save() -> String? {
        let folder = file.deletingLastPathComponent()
        let temporary = folder.appendingPathComponent(".\(file.lastPathComponent).\(getpid()).tmp")
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            let data = try encoder.encode(File(version: 1, entries: entries))
            guard FileManager.default.createFile(atPath: temporary.path, contents: data) else {
                throw CocoaError(.fileWriteUnknown)
            }
            guard rename(temporary.path, file.path) == 0 else {
                let reason = String(cString: strerror(errno))
                try? FileManager.default.removeItem(at: temporary)
                return "playhead: warning: cannot save resume positions to \(file.path): \(reason)"
            }
            isDirty = false
            return nil
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            return
                "playhead: warning: cannot save resume positions to \(file.path): \(error.localizedDescription)"
        }
    }
}
