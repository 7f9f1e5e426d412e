// Playhead: `playhead` with no input plays the built-in demo (a libavfilter graph, no file).

import Foundation
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
        let started = Date()
        let arguments = ["--headless", "--frames", "30", "--report", "json"]
        guard let result = try await PlayheadProcess.run(arguments) else { return }
        let elapsed = Date().timeIntervalSince(started)
        #expect(result.status == 0)
        let json = try PlayheadProcess.jsonObject(result)
        #expect(json["videoFramesPresented"] as? Int == 30)
        // 30 frames at 30 fps take a second of real time (plus start-up).
        #expect(elapsed > 0.9 && elapsed < 3, "took \(elapsed) s")
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
