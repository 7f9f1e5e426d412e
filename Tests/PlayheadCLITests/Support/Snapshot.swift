// Playhead: compares text against files in Snapshots/, or records them on request.

import Foundation
import Testing

/// Text snapshots stored next to the tests in `Tests/PlayheadCLITests/Snapshots/`.
///
/// Set `PLAYHEAD_RECORD_SNAPSHOTS=1` to write the current output instead of comparing.
enum Snapshot {
    /// The snapshot folder, found from this source file's location.
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // Support/
        .deletingLastPathComponent()  // PlayheadCLITests/
        .appendingPathComponent("Snapshots", isDirectory: true)

    /// Whether this run records snapshots rather than checking them.
    static var isRecording: Bool {
        ProcessInfo.processInfo.environment["PLAYHEAD_RECORD_SNAPSHOTS"] == "1"
    }

    /// Expects `actual` to equal the stored snapshot `name` (a file name with extension).
    static func expect(
        _ actual: String, matches name: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let file = directory.appendingPathComponent(name)
        if isRecording {
            do {
                try FileManager.default.createDirectory(
                    at: directory, withIntermediateDirectories: true)
                try Data(actual.utf8).write(to: file)
            } catch {
                Issue.record(
                    "could not record \(file.path): \(error)", sourceLocation: sourceLocation)
            }
            return
        }
        guard let data = FileManager.default.contents(atPath: file.path) else {
            Issue.record(
                "missing snapshot \(file.path); run with PLAYHEAD_RECORD_SNAPSHOTS=1 to create it",
                sourceLocation: sourceLocation)
            return
        }
        let expected = String(decoding: data, as: UTF8.self)
        #expect(
            actual == expected,
            "output differs from \(name); rerun with PLAYHEAD_RECORD_SNAPSHOTS=1 if intended",
            sourceLocation: sourceLocation)
    }
}
