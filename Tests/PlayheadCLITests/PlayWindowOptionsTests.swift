// Playhead: `playhead play`'s window options (--headless, --fullscreen, --gravity).
import OpenAVFoundation
import Testing

@testable import PlayheadCLI

@Suite struct PlayWindowOptionsTests {
    func parse(_ words: [String]) throws -> PlayOptions {
        let parsed = try OptionParser.parse(
            words, options: PlayOptions.all, arguments: [PlayCommand.inputsArgument])
        return try PlayOptions.from(parsed, inputs: parsed.arguments("INPUT"))
    }

    @Test func aWindowIsWantedUnlessHeadlessOrUntimed() async throws {
        #expect(try !parse(["a.mp4"]).headless)
        #expect(try parse(["--headless", "a.mp4"]).headless)
        #expect(try parse(["--untimed", "a.mp4"]).headless)
    }

    @Test func readsFullscreenAndGravity() async throws {
        let options = try parse(["--fullscreen", "--gravity", "fill", "a.mp4"])
        #expect(options.fullscreen)
        #expect(options.gravity == .resizeAspectFill)
        #expect(try parse(["a.mp4"]).gravity == .resizeAspect)
        #expect(try parse(["--gravity", "resize", "a.mp4"]).gravity == .resize)
        #expect(throws: UsageError.self) { try parse(["--gravity", "stretch", "a.mp4"]) }
    }
}
