// Playhead: tests for Playhead.run's dispatch, streams and exit-code conventions.

import Foundation
import PlayheadCLI
import Testing

@Suite struct CommandDispatchTests {
    // MARK: - Help and version

    @Test(arguments: [["--help"], ["-h"], ["help"]])
    func topLevelHelpGoesToStandardOutputWithStatusZero(arguments: [String]) async {
        let outcome = await runCLI(arguments)
        #expect(outcome.code == .success)
        #expect(outcome.standardOutput.hasPrefix("playhead: "))
        #expect(outcome.standardOutput.contains("  probe "))
        #expect(outcome.standardError.isEmpty)
    }

    @Test(arguments: [["help", "probe"], ["probe", "--help"], ["probe", "-h", "x", "y"]])
    func commandHelpGoesToStandardOutputWithStatusZero(arguments: [String]) async {
        let outcome = await runCLI(arguments)
        #expect(outcome.code == .success)
        #expect(outcome.standardOutput.contains("Usage: playhead probe [--json] INPUT\n"))
        #expect(outcome.standardError.isEmpty)
    }

    @Test func versionPrintsTheSingleVersionConstant() async {
        let outcome = await runCLI(["--version"])
        #expect(outcome.code == .success)
        #expect(outcome.standardOutput == "playhead 0.1.0\n")
        #expect(Playhead.version == "0.1.0")
    }

    @Test func helpWinsOverVersion() async {
        #expect(await runCLI(["--version", "--help"]).standardOutput.contains("Commands:"))
    }

    // MARK: - Usage errors

    @Test func theTopLevelHelpSaysNoInputPlaysTheBuiltInDemo() async {
        // `playhead` alone plays the demo (BuiltInDemoTests), so the usage says so.
        let outcome = await runCLI(["--help"])
        #expect(outcome.standardOutput.contains("playhead [PLAY OPTIONS]      plays the built-in demo"))
    }

    @Test func anUnknownCommandIsAUsageError() async {
        let outcome = await runCLI(["frobnicate", "x"])
        #expect(outcome.code == .usageError)
        #expect(outcome.standardOutput.isEmpty)
        #expect(
            outcome.standardError == """
                playhead: error: unknown command 'frobnicate'
                Usage: playhead COMMAND [OPTIONS] [ARGUMENTS]
                See 'playhead --help'.

                """)
    }

    @Test func anUnknownGlobalOptionIsAUsageError() async {
        let outcome = await runCLI(["--frob"])
        #expect(outcome.code == .usageError)
        #expect(outcome.standardError.hasPrefix("playhead: error: unknown option '--frob'\n"))
    }

    @Test func aWordAfterVersionIsAUsageError() async {
        let outcome = await runCLI(["--version", "probe"])
        #expect(outcome.code == .usageError)
        #expect(outcome.standardError.hasPrefix("playhead: error: unexpected argument 'probe'\n"))
    }

    @Test func probeWithoutInputPrintsTheProbeUsageHint() async {
        let outcome = await runCLI(["probe"])
        #expect(outcome.code == .usageError)
        #expect(outcome.standardOutput.isEmpty)
        #expect(
            outcome.standardError == """
                playhead: error: missing required argument INPUT
                Usage: playhead probe [--json] INPUT
                See 'playhead help probe'.

                """)
    }

    @Test(arguments: [
        (["probe", "a", "b"], "unexpected argument 'b'"),
        (["probe", "--jsn", "a"], "unknown option '--jsn'"),
        (["probe", "--json=1", "a"], "option '--json' does not take a value"),
    ])
    func probeUsageErrorsExitWithStatusTwo(arguments: [String], message: String) async {
        let outcome = await runCLI(arguments)
        #expect(outcome.code == .usageError)
        #expect(outcome.standardError.hasPrefix("playhead: error: \(message)\n"))
    }

    @Test func helpForAnUnknownCommandIsAUsageError() async {
        let outcome = await runCLI(["help", "frobnicate"])
        #expect(outcome.code == .usageError)
        #expect(outcome.standardError.hasPrefix("playhead: error: unknown command 'frobnicate'\n"))
    }

    // MARK: - Probe outcomes

    @Test func probeRunsTheInjectedLoaderAndPrintsText() async {
        let outcome = await runCLI(["probe", "demo.mp4"]) { input in
            #expect(input == "demo.mp4")
            return SampleSummaries.film
        }
        #expect(outcome.code == .success)
        #expect(outcome.standardOutput == SampleSummaries.film.readableText + "\n")
        #expect(outcome.standardError.isEmpty)
    }

    @Test func probeJSONPrintsOneObjectAndANewline() async throws {
        let outcome = await runCLI(["probe", "--json", "demo.mp4"]) { _ in SampleSummaries.film }
        #expect(outcome.code == .success)
        #expect(outcome.standardOutput.hasSuffix("}\n"))
        let object = try JSONSerialization.jsonObject(with: Data(outcome.standardOutput.utf8))
        #expect(object is [String: Any])
    }

    @Test func theUnwiredLoaderFailsWithStatusOne() async {
        let outcome = await runCLI(["probe", "a.mp4"])
        #expect(outcome.code == .failure)
        #expect(outcome.standardOutput.isEmpty)
        #expect(outcome.standardError == "playhead: a.mp4: probe backend not wired\n")
    }

    @Test func aLoaderErrorIsOneLineNamingTheInput() async {
        struct Unreachable: LocalizedError {
            var errorDescription: String? { "Connection refused\n  (after 3 attempts)" }
        }
        let outcome = await runCLI(["probe", "http://x/y.mp4"]) { _ in throw Unreachable() }
        #expect(outcome.code == .failure)
        #expect(
            outcome.standardError
                == "playhead: http://x/y.mp4: Connection refused (after 3 attempts)\n")
    }

    @Test func aCommandErrorWithoutAnInputIsOneLine() async {
        struct Broken: LocalizedError {
            var errorDescription: String? { "engine exploded" }
        }
        let command = Command(name: "boom", abstract: "Fails.") { _ in throw Broken() }
        let recorder = ConsoleRecorder()
        let code = await Playhead.run(command, arguments: [], console: recorder.console)
        #expect(code == .failure)
        #expect(recorder.standardError == "playhead: engine exploded\n")
    }
}
