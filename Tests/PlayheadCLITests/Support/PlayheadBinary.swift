// Playhead: finds and runs the built `playhead` executable for end-to-end tests.

import Foundation
import PlayheadTestSupport

/// The `playhead` executable built alongside the test bundle.
enum PlayheadBinary {
    /// The executable: `$PLAYHEAD_BINARY` if set, otherwise the first `playhead` file
    /// found in the test bundle's directory or one of its parents.
    static let url: URL? = locate()

    /// Where the search started, for failure messages.
    static var searchedDirectories: [URL] {
        var starts = [Bundle.main.bundleURL.deletingLastPathComponent(), Bundle.main.bundleURL]
        if let executable = Bundle.main.executableURL {
            starts.append(executable.deletingLastPathComponent())
        }
        if let first = CommandLine.arguments.first {
            starts.append(URL(fileURLWithPath: first).deletingLastPathComponent())
        }
        return starts
    }

    /// The executable `name` built next to `playhead` (another product of the package, such as
    /// an example), or nil when `playhead` was not found or has no such sibling.
    static func sibling(named name: String) -> URL? {
        guard let directory = url?.deletingLastPathComponent() else { return nil }
        let candidate = directory.appendingPathComponent(name)
        return isExecutableFile(candidate) ? candidate : nil
    }

    private static func locate() -> URL? {
        if let path = ProcessInfo.processInfo.environment["PLAYHEAD_BINARY"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        for start in searchedDirectories {
            var directory = start.standardizedFileURL
            for _ in 0..<4 {
                let candidate = directory.appendingPathComponent("playhead")
                if isExecutableFile(candidate) { return candidate }
                directory.deleteLastPathComponent()
            }
        }
        return nil
    }

    private static func isExecutableFile(_ url: URL) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory)
            && !isDirectory.boolValue
            && FileManager.default.isExecutableFile(atPath: url.path)
    }

    /// Runs `executable` (playhead or a sibling) with `arguments` and waits for it to exit.
    static func run(_ arguments: [String], executable: URL) throws -> SubprocessResult {
        try Subprocess.run(executable, arguments)
    }
}
