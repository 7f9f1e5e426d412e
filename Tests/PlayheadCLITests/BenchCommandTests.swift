// Playhead: `playhead bench`: seek, startup and sync runs on a small fixture, statistics, usage errors.
import Foundation
import OpenAVFoundation
import PlayheadTestSupport
import Testing

@testable import PlayheadCLI

@Suite struct BenchCommandTests {
    /// Runs `playhead ARGUMENTS` in-process and decodes its standard output as a JSON object.
    func jsonRun(_ arguments: [String]) async throws -> [String: Any] {
        let outcome = await runCLI(arguments)
        #expect(outcome.code == .success, "\(outcome.standardError)")
        let object = try JSONSerialization.jsonObject(with: Data(outcome.standardOutput.utf8))
        return try #require(object as? [String: Any])
    }

    @Test func seekBenchTimesTwentyExactSeeks() async throws {
        let url = try Fixture.url(.mp4)
        let json = try await jsonRun(["bench", "seek", "--json", url.path])
        #expect(json["n"] as? Int == 20)
        let seeks = try #require(json["seeks"] as? [Double])
        #expect(seeks.count == 20)
        #expect(seeks.allSatisfy { $0.isFinite && $0 >= 0 })
        for key in ["medianMs", "meanMs", "maxMs", "decodeOnlyMedianMs"] {
            let value = try #require(json[key] as? Double, "missing \(key)")
            #expect(value.isFinite && value >= 0)
        }
        #expect((json["maxMs"] as? Double ?? 0) >= (json["medianMs"] as? Double ?? 1))
        let positions = try #require(json["positions"] as? [Double])
        #expect(positions.count == 20)
        #expect(positions.allSatisfy { $0 >= 0 && $0 < Fixture.mp4.nominalDuration })
    }

    @Test func startupBenchReportsPhasesInOrder() async throws {
        let url = try Fixture.url(.mp4)
        let json = try await jsonRun(["bench", "startup", "--json", url.path])
        let phases = try ["openMs", "streamInfoMs", "firstPacketMs", "firstFrameMs"].map { key in
            try #require(json[key] as? Double, "missing \(key)")
        }
        #expect(phases[0] > 0)
        #expect(zip(phases, phases.dropFirst()).allSatisfy { $0 < $1 }, "\(phases)")
        let player = try #require(json["playerFirstFrameMs"] as? Double)
        #expect(player > 0 && player.isFinite)
    }

    @Test(.enabled(if: ProcessInfo.processInfo.environment["PLAYHEAD_REALTIME_TESTS"] != nil))
    func syncBenchMeasuresEveryFrameInRealTime() async throws {
        let url = try Fixture.url(.mp4)
        let json = try await jsonRun(["bench", "sync", "--json", url.path])
        #expect(Set(json.keys) == ["frames", "p50Ms", "p99Ms", "maxMs"])
        #expect(try #require(json["frames"] as? Int) > 40)
        let figures = try ["p50Ms", "p99Ms", "maxMs"].map { key in
            try #require(json[key] as? Double, "missing \(key)")
        }
        #expect(figures.allSatisfy { $0.isFinite && $0 >= 0 })
        #expect(figures[0] <= figures[1] && figures[1] <= figures[2], "\(figures)")
    }

    @Test func textOutputSummarisesTheSeeks() async throws {
        let url = try Fixture.url(.mp4)
        let outcome = await runCLI(["bench", "seek", url.path])
        #expect(outcome.code == .success)
        #expect(outcome.standardOutput.hasPrefix("20 exact seeks"))
        #expect(outcome.standardOutput.contains("median"))
        #expect(outcome.standardOutput.contains("decoding alone (no player): median"))
    }

    @Test(arguments: [
        ["bench"], ["bench", "seek"], ["bench", "warp", "a.mp4"],
        ["bench", "seek", "--bogus", "a.mp4"],
        ["bench", "startup", "a.mp4", "b.mp4"], ["bench", "seek", "--json=yes", "a.mp4"],
    ])
    func usageErrorsExitTwo(_ arguments: [String]) async {
        let outcome = await runCLI(arguments)
        #expect(outcome.code == .usageError)
        #expect(outcome.standardError.contains("Usage: playhead bench"))
    }

    @Test func missingInputFailsWithStatusOne() async {
        let outcome = await runCLI(["bench", "startup", "/nonexistent/clip.mp4"])
        #expect(outcome.code == .failure)
        #expect(outcome.standardError.contains("no such file"))
    }
}

@Suite struct BenchStatisticsTests {
    @Test func medianMeanAndMaximum() async {
        let odd = BenchStatistics([3, 1, 2])
        #expect(odd.count == 3 && odd.median == 2 && odd.mean == 2 && odd.maximum == 3)
        let even = BenchStatistics([4, 1, 2, 3])
        #expect(even.median == 2.5 && even.mean == 2.5 && even.maximum == 4)
        #expect(BenchStatistics([]).count == 0)
    }

    @Test func syncReportPrintsPercentilesInMilliseconds() async throws {
        var errors = SyncErrorHistogram()
        for _ in 0..<99 { errors.record(0.002_05) }
        errors.record(-0.0125)
        let report = SyncReport(errors: errors, framesPresented: 101, silentAudio: nil)
        let expected: JSONValue = [
            "frames": .integer(100), "p50Ms": .number(2.1), "p99Ms": .number(2.1),
            "maxMs": .number(12.5),
        ]
        #expect(report.json == expected)
        #expect(report.text.hasPrefix("A/V sync over 100 of 101 frames, system audio device"))
    }

    @Test func seekPositionsAreFixedAndInsideTheItem() async {
        let positions = SeekBenchmark.positions(duration: 20)
        #expect(positions.count == 20)
        #expect(positions == SeekBenchmark.positions(duration: 20))
        #expect(positions.allSatisfy { $0 >= 0 && $0 < 18 })
        #expect(Set(positions).count > 15)
    }
}
