// Playhead: runs the ported iOS player controller (Examples/PortedPlayerController) end to end.
import Foundation
import PlayheadTestSupport
import Testing

/// The example plays in real time through the silent clock-driven audio output, so a run on
/// a two-second fixture takes about two seconds. Every run passes `--seconds 20` so that a
/// player that never ends fails the test instead of hanging it.
@Suite struct PortedControllerTests {
    static let executableName = "PortedPlayerController"

    /// One run of the example: its exit status, output lines and wall-clock time.
    struct Run {
        var status: Int32
        var lines: [String]
        var standardError: String
        var elapsed: Double

        /// The index of the first line equal to `line`, or starting with it when `prefix`.
        func index(of line: String, prefix: Bool = false) -> Int? {
            lines.firstIndex { prefix ? $0.hasPrefix(line) : $0 == line }
        }

        /// The lines starting with `prefix`.
        func lines(startingWith prefix: String) -> [String] {
            lines.filter { $0.hasPrefix(prefix) }
        }
    }

    /// Runs the example, recording an issue instead if it was not built.
    func run(_ arguments: [String]) throws -> Run? {
        guard let executable = PlayheadBinary.sibling(named: Self.executableName) else {
            let searched = PlayheadBinary.url?.deletingLastPathComponent().path ?? "nowhere"
            Issue.record(
                "\(Self.executableName) not found next to playhead (\(searched)); build the package"
            )
            return nil
        }
        let start = Date()
        let result = try PlayheadBinary.run(
            ["--seconds", "20"] + arguments, executable: executable)
        let output = result.standardOutput.split(separator: "\n").map(String.init)
        return Run(
            status: result.status, lines: output, standardError: result.standardError,
            elapsed: Date().timeIntervalSince(start))
    }

    @Test func playsAFixtureToTheEndReportingEveryCallbackInOrder() async throws {
        let media = try Fixture.url(.mp4)
        guard let run = try run([media.path]) else { return }
        let transcript = run.lines.joined(separator: "\n") + "\n" + run.standardError

        #expect(run.status == 0, "\(transcript)")
        #expect(run.standardError.isEmpty, "\(transcript)")

        // The item becomes ready before anything plays.
        let ready = try #require(run.index(of: "item status: readyToPlay"), "\(transcript)")
        let playing = try #require(run.index(of: "timeControlStatus: playing"), "\(transcript)")
        #expect(run.index(of: "item status: unknown").map { $0 < ready } == true)
        #expect(ready < playing)
        #expect(run.index(of: "ready to play").map { $0 > ready } == true)

        // Duration about two seconds: "duration: 00:02 (2.000 s)".
        let durationLine = try #require(
            run.lines(startingWith: "duration: ").first, "\(transcript)")
        let seconds = durationLine.split(separator: "(").last
            .flatMap { Double($0.split(separator: " ").first ?? "") }
        #expect(seconds.map { abs($0 - 2) < 0.2 } == true, "\(durationLine)")

        // The pending seek requested before loading ran once the item was ready.
        let seek = try #require(run.index(of: "seek to 00:00 finished: true"), "\(transcript)")
        #expect(seek > ready)

        // Once-a-second ticks while playing.
        let ticks = run.lines(startingWith: "time: ")
        #expect(ticks.count >= 2, "\(transcript)")
        #expect(ticks.contains("time: 00:01 / 00:02"), "\(transcript)")

        // Boundaries at 25, 50 and 75 %, once each and in order, after playback started.
        let boundaries = run.lines(startingWith: "boundary: ").map {
            $0.dropFirst("boundary: ".count).prefix { $0 != "%" }
        }
        #expect(boundaries == ["25", "50", "75"], "\(transcript)")
        let firstBoundary = try #require(run.index(of: "boundary: ", prefix: true))
        #expect(firstBoundary > playing)

        // The end notification arrives once, after the last boundary, and playback stops.
        let ends = run.lines.filter { $0 == "played to end" }
        #expect(ends.count == 1, "\(transcript)")
        let end = try #require(run.index(of: "played to end"))
        let lastBoundary = try #require(run.lines.lastIndex { $0.hasPrefix("boundary: ") })
        #expect(lastBoundary < end)
        #expect(run.lines[..<end].contains("playback state: Stopped"), "\(transcript)")
        #expect(run.index(of: "time limit reached", prefix: true) == nil)

        // Real time: a two-second item takes about two seconds.
        #expect(run.elapsed > 1.5, "took \(run.elapsed) s")
    }

    @Test func stopsAtTheSecondsLimitWithoutReachingTheEnd() async throws {
        let media = try Fixture.url(.mp4)
        guard let run = try run(["--seconds", "1", media.path]) else { return }
        let transcript = run.lines.joined(separator: "\n") + "\n" + run.standardError

        #expect(run.status == 0, "\(transcript)")
        #expect(run.index(of: "time limit reached", prefix: true) != nil, "\(transcript)")
        #expect(run.index(of: "played to end") == nil, "\(transcript)")
    }

    @Test func aMissingFileFailsWithTheErrorAndExitsOne() async throws {
        let media = try BadInput.url(.missingFile)
        guard let run = try run([media.path]) else { return }
        let transcript = run.lines.joined(separator: "\n") + "\n" + run.standardError

        #expect(run.status == 1, "\(transcript)")
        #expect(run.standardError.hasPrefix("error: "), "\(transcript)")
        #expect(run.standardError.contains("NSURLErrorDomain -1100"), "\(transcript)")
        #expect(run.lines.contains("playback state: Failed"), "\(transcript)")
        #expect(run.index(of: "played to end") == nil)
    }

    @Test(arguments: [BadInput.emptyFile, .textFileNamedMP4, .truncatedMP4, .directory])
    func unplayableInputsFailWithTheErrorAndExitOne(_ input: BadInput) async throws {
        let media = try BadInput.url(input)
        guard let run = try run([media.path]) else { return }
        let transcript = run.lines.joined(separator: "\n") + "\n" + run.standardError

        #expect(run.status == 1, "\(transcript)")
        #expect(run.standardError.hasPrefix("error: "), "\(transcript)")
        #expect(run.index(of: "played to end") == nil)
    }
}
