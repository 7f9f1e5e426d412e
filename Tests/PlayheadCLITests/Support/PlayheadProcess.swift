// Playhead: runs the built `playhead` executable without tying up Swift's cooperative threads,
// so parameterized end-to-end tests can run many processes at once.

import Foundation
import Testing

/// The built executable, run on a Dispatch thread per process.
enum PlayheadProcess {
    /// Runs `playhead` with `arguments`; records an issue and returns nil when it was not built.
    static func run(
        _ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> PlayheadBinary.Result? {
        guard let executable = PlayheadBinary.url else {
            let searched = PlayheadBinary.searchedDirectories.map(\.path)
            Issue.record(
                "playhead executable not found near \(searched); set PLAYHEAD_BINARY",
                sourceLocation: sourceLocation)
            return nil
        }
        return try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global(qos: .userInitiated).async {
                continuation.resume(with: Result { try PlayheadBinary.run(arguments, executable: executable) })
            }
        }
    }

    /// Parses standard output as one JSON object.
    static func jsonObject(
        _ result: PlayheadBinary.Result, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8))
        return try #require(object as? [String: Any], sourceLocation: sourceLocation)
    }
}

extension PlayheadBinary.Result {
    /// Standard error split into lines, without the final newline.
    var errorLines: [Substring] {
        let lines = standardError.split(separator: "\n", omittingEmptySubsequences: false)
        return Array(lines.dropLast(standardError.hasSuffix("\n") ? 1 : 0))
    }
}
