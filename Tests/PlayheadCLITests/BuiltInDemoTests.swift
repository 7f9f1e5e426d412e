// Playhead: `playhead` with no input plays the built-in demo (a libavfilter graph, no file).

import Foundation
import PlayheadTestSupport
import Testing

@testable import PlayheadCLI

@Suite struct BuiltInDemoTests {
    @Test func noInputPlaysTheBuiltInDemoHeadless() async throws {
        let arguments = ["--untimed", "--frames", "45", "--report", "json"]
        guard let result = try await PlayheadProcess.run(arguments) else { return }
        #expect(result.status == 0)
        let json = try PlayheadProcess.jsonObject(result)
        #expect(json["status"] as? String == "completed")
        #expect(json["duration"] as? Double == 30)
        #expect(json["videoFramesPresented"] as? Int == 45)
        // The tone plays too (untimed, audio runs ahead of or behind the pictures freely).
        #expect((json["audioSeconds"] as? Double ?? 0) > 0)
        let items = try #require(json["items"] as? [[String: Any]])
        #expect(items.map { $0["input"] as? String } == ["Playhead demo"])
    }

    @Test(.enabled(if: ProcessInfo.processInfo.environment["PLAYHEAD_REALTIME_TESTS"] != nil))
    func noInputPlaysTheDemoAtItsFrameRateInRealTime() async throws {
        /// Seconds a headless run of `frames` frames takes, start-up and exit included.
        func run(frames: Int) async throws -> (seconds: Double, result: SubprocessResult)? {
            let started = Date()
            guard let result = try await PlayheadProcess.run(["--headless", "--frames", "\(frames)", "--report", "json"])
            else { return nil }
            return (Date().timeIntervalSince(started), result)
        }
        // A one-frame run first: the start-up it takes (loading the binary and FFmpeg's
        // libraries, cold after a long build) is taken off the measured run.
        guard let warmUp = try await run(frames: 1), let (elapsed, result) = try await run(frames: 30) else { return }
        #expect(result.status == 0)
        let json = try PlayheadProcess.jsonObject(result)
        #expect(json["videoFramesPresented"] as? Int == 30)
        // 30 frames at 30 fps take a second of real time (plus start-up).
        let playing = elapsed - warmUp.seconds
        #expect(elapsed > 0.9 && playing < 2, "took \(elapsed) s, \(playing) s past a one-frame run's")
        #expect(abs((json["position"] as? Double ?? 0) - 1) < 0.2)
    }

    @Test func playItselfStillNeedsAnInputAndNoWordReachesTheDemo() async throws {
        guard let usage = try await PlayheadProcess.run(["play"]) else { return }
        #expect(usage.status == 2)
        for word in ["playhead-demo:built-in", "lavfi:testsrc2"] {
            guard let result = try await PlayheadProcess.run(["play", "--untimed", word]) else {
                return
            }
            #expect(result.status == 1, "\(word)")
        }
    }

    @Test func playOptionsWithoutAnInputSelectTheDemo() {
        #expect(PlayCommand.isPlayOption("--frames"))
        #expect(PlayCommand.isPlayOption("--gravity=fill"))
        #expect(!PlayCommand.isPlayOption("--version"))
        #expect(!PlayCommand.isPlayOption("--frob"))
    }
}
