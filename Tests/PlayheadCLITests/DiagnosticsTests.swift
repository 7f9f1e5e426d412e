// Playhead: tests for the one-line error messages and usage-error lines.

import Foundation
import PlayheadCLI
import Testing

@Suite struct DiagnosticsTests {
    struct Described: LocalizedError {
        var errorDescription: String?
    }

    enum Plain: Error { case broken }

    @Test func aLocalizedErrorUsesItsDescription() async {
        let failure = InputFailure(
            input: "a.mp4", error: Described(errorDescription: "No such file"))
        #expect(Diagnostics.line(for: failure) == "playhead: a.mp4: No such file")
    }

    @Test func anNSErrorUsesItsLocalizedDescription() async {
        let error = NSError(
            domain: "Test", code: 7,
            userInfo: [NSLocalizedDescriptionKey: "Server returned 404 Not Found"])
        #expect(Diagnostics.reason(for: error) == "Server returned 404 Not Found")
    }

    @Test func aPlainSwiftErrorStillGetsAReason() async {
        let reason = Diagnostics.reason(for: Plain.broken)
        #expect(!reason.isEmpty)
        #expect(!reason.contains("\n"))
    }

    @Test func newlinesCollapseToSingleSpaces() async {
        #expect(Diagnostics.singleLine("first\nsecond\r\n  third  \n\n") == "first second third")
        #expect(Diagnostics.singleLine("  keep  inner  spaces ") == "keep  inner  spaces")
    }

    @Test func anEmptyReasonBecomesUnknownError() async {
        #expect(Diagnostics.singleLine(" \n ") == "unknown error")
        #expect(Described(errorDescription: nil).localizedDescription.isEmpty == false)
    }

    @Test func theInputItselfIsKeptOnOneLine() async {
        let failure = InputFailure(input: "bad\nname", reason: "gone")
        #expect(Diagnostics.line(for: failure) == "playhead: bad name: gone")
    }

    @Test func usageErrorsPrintTheProblemUsageAndHint() async {
        let lines = Diagnostics.lines(
            for: UsageError(.missingArgument("INPUT")), usage: "playhead probe [--json] INPUT",
            hint: "See 'playhead help probe'.")
        #expect(
            lines == [
                "playhead: error: missing required argument INPUT",
                "Usage: playhead probe [--json] INPUT",
                "See 'playhead help probe'.",
            ])
    }
}
