// Playhead: `playhead play --sub-delay/--sub-font/--sub-scale`: parsing, checking and the
// window look they ask for.
import Foundation
import PlayheadTestSupport
import Testing

@testable import PlayheadCLI

@Suite struct PlaySubtitleStyleTests {
    func parse(_ words: [String]) throws -> PlayOptions {
        let parsed = try OptionParser.parse(
            words, options: PlayOptions.all, arguments: [PlayCommand.inputsArgument])
        return try PlayOptions.from(parsed, inputs: parsed.arguments("INPUT"))
    }

    @Test func readsTheValues() throws {
        let style = try parse([
            "--sub-delay", "-0.25", "--sub-font", "DejaVu Serif", "--sub-scale", "1.5", "a.mkv",
        ]).subtitleStyle
        #expect(style.delay == -0.25)
        #expect(style.fontName == "DejaVu Serif")
        #expect(style.scale == 1.5)
        #expect(style.appearance.fontName == "DejaVu Serif")
        #expect(style.appearance.scale == 1.5)
        #expect(try parse(["--sub-delay", "2", "a.mkv"]).subtitleStyle.delay == 2)
        #expect(try parse(["a.mkv"]).subtitleStyle == PlaySubtitleStyle())
    }

    @Test(arguments: [
        ["--sub-delay", "soon"], ["--sub-delay", "nan"], ["--sub-delay", "601"], ["--sub-delay", "-1e9"],
        ["--sub-font", ""], ["--sub-font", "   "], ["--sub-font", "Bad\u{7}Name"],
        ["--sub-scale", "0"], ["--sub-scale", "-1"], ["--sub-scale", "11"], ["--sub-scale", "big"],
        ["--sub-scale", "inf"],
    ])
    func rejectsBadValues(_ words: [String]) throws {
        #expect(throws: UsageError.self) { try parse(words + ["a.mkv"]) }
    }

    @Test func theMessageNamesTheOptionAndWhatItExpects() {
        do {
            _ = try parse(["--sub-scale", "0", "a.mkv"])
            Issue.record("accepted")
        } catch let error as UsageError {
            #expect(error.message == "invalid value '0' for option '--sub-scale': expected a factor from 0.1 to 10")
        } catch {
            Issue.record("\(error)")
        }
    }

    @Test func badValuesExitTwoWithAUsageLine() async throws {
        let wav = try Fixture.url(.wav).path
        for arguments in [
            ["play", "--sub-delay", "x", wav], ["play", "--sub-scale", "0", wav], ["play", "--sub-font", "", wav],
        ] {
            guard let result = try await PlayheadProcess.run(arguments) else { return }
            #expect(result.status == 2, "\(arguments)")
            #expect(result.standardError.hasPrefix("playhead: error: "), "\(arguments)")
        }
    }

    @Test func theOptionsAreInTheHelp() {
        let help = HelpFormatter.help(for: PlayCommand.command())
        for name in ["--sub-delay", "--sub-font", "--sub-scale", "--no-sub"] {
            #expect(help.contains(name), "\(name)")
        }
        #expect(help.contains("z/x"))
    }
}
