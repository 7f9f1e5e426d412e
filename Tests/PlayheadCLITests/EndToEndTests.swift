// Playhead: end-to-end tests that run the built `playhead` executable.

import Foundation
import PlayheadTestSupport
import Testing

@Suite struct EndToEndTests {
    /// Runs the binary, recording an issue instead if it cannot be found.
    func run(_ arguments: [String]) throws -> SubprocessResult? {
        guard let executable = PlayheadBinary.url else {
            let searched = PlayheadBinary.searchedDirectories.map(\.path)
            Issue.record("playhead executable not found near \(searched); set PLAYHEAD_BINARY")
            return nil
        }
        return try PlayheadBinary.run(arguments, executable: executable)
    }

    @Test func helpExitsZeroAndPrintsTheCommandList() async throws {
        guard let result = try run(["--help"]) else { return }
        #expect(result.status == 0)
        #expect(result.standardOutput.contains("Commands:"))
        #expect(result.standardError.isEmpty)
    }

    @Test func versionExitsZero() async throws {
        guard let result = try run(["--version"]) else { return }
        #expect(result.status == 0)
        #expect(result.standardOutput == "playhead 0.1.0\n")
    }

    @Test func helpProbeExitsZeroAndMatchesTheSnapshot() async throws {
        guard let result = try run(["help", "probe"]) else { return }
        #expect(result.status == 0)
        Snapshot.expect(result.standardOutput, matches: "help-probe.txt")
    }

    @Test func anUnknownCommandExitsTwo() async throws {
        guard let result = try run(["frobnicate", "x"]) else { return }
        #expect(result.status == 2)
        #expect(result.standardOutput.isEmpty)
        #expect(result.standardError.hasPrefix("playhead: error: unknown command 'frobnicate'\n"))
    }

    @Test func probeWithoutInputExitsTwo() async throws {
        guard let result = try run(["probe"]) else { return }
        #expect(result.status == 2)
        #expect(
            result.standardError == """
                playhead: error: missing required argument INPUT
                Usage: playhead probe [--json] INPUT
                See 'playhead help probe'.

                """)
    }

}
