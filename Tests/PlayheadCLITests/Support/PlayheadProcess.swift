// Playhead: runs the built `playhead` executable through the test support's one process runner
// (`Subprocess`), off Swift's cooperative threads, so parameterized end-to-end tests can run
// many processes at once.

import Foundation
import PlayheadTestSupport
import Testing

/// The built executable, run on a Dispatch thread per process.
enum PlayheadProcess {
    /// Runs `playhead` with `arguments`; records an issue and returns nil when it was not built.
    ///
    /// - Parameter limit: seconds after which the run is killed and reported as `.hung`.
    /// - Parameter environment: the child's environment; nil inherits the test's, minus
    ///   `DBUS_SESSION_BUS_ADDRESS`, so no run ever reaches the developer's own session bus
    ///   (tests of the desktop integration pass the address of a bus they started).
    static func run(
        _ arguments: [String], limit: Double? = nil, environment: [String: String]? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> SubprocessResult? {
        guard let executable = PlayheadBinary.url else {
            let searched = PlayheadBinary.searchedDirectories.map(\.path)
            Issue.record(
                "playhead executable not found near \(searched); set PLAYHEAD_BINARY",
                sourceLocation: sourceLocation)
            return nil
        }
        let environment = environment ?? ProcessInfo.processInfo.environment.filter { $0.key != "DBUS_SESSION_BUS_ADDRESS" }
        return try await Subprocess.runOffPool(executable, arguments, limit: limit, environment: environment)
    }

    /// Parses standard output as one JSON object.
    static func jsonObject(
        _ result: SubprocessResult, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> [String: Any] {
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: result.outputData)
        } catch {
            // Say why there is no JSON (a failure's reason is on standard error).
            Issue.record(
                "no JSON from playhead (status \(result.status)): \(result.standardError.suffix(600))",
                sourceLocation: sourceLocation)
            throw error
        }
        return try #require(object as? [String: Any], sourceLocation: sourceLocation)
    }
}
