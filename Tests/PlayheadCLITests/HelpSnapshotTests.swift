// Playhead: snapshot tests for the generated help text.

import PlayheadCLI
import Testing

@Suite struct HelpSnapshotTests {
    @Test func topLevelHelpMatchesItsSnapshot() async {
        Snapshot.expect(await runCLI(["--help"]).standardOutput, matches: "help-root.txt")
    }

    @Test func probeHelpMatchesItsSnapshot() async {
        Snapshot.expect(await runCLI(["help", "probe"]).standardOutput, matches: "help-probe.txt")
    }

    @Test func thumbnailHelpMatchesItsSnapshot() async {
        Snapshot.expect(await runCLI(["help", "thumbnail"]).standardOutput, matches: "help-thumbnail.txt")
    }

    @Test func helpCommandHelpMatchesItsSnapshot() async {
        Snapshot.expect(await runCLI(["help", "help"]).standardOutput, matches: "help-help.txt")
    }

    @Test func everySpellingOfCommandHelpPrintsTheSameText() async {
        let viaHelp = await runCLI(["help", "probe"]).standardOutput
        #expect(await runCLI(["probe", "--help"]).standardOutput == viaHelp)
        #expect(await runCLI(["probe", "-h"]).standardOutput == viaHelp)
    }

    @Test func longOptionsWrapAndMoveTheirHelpBelow() async {
        let command = Command(
            name: "demo", abstract: "Demonstrates layout.",
            options: [
                .value(
                    "a-rather-long-option-name", short: "l", valueName: "VALUE",
                    help: "A label wider than the column, so this sentence starts on its own line."),
                .value(
                    "at", valueName: "S",
                    help: "A help sentence that is long enough that it has to wrap onto a "
                        + "second line under its column.", repeatable: true),
            ]
        ) { _ in .success }
        Snapshot.expect(HelpFormatter.help(for: command), matches: "help-layout.txt")
    }
}
