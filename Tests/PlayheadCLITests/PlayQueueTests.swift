// Playhead: `playhead play` with several inputs (a gapless queue) and --loop.
import Foundation
import PlayheadTestSupport
import Testing

// Concurrency: processes run on Dispatch threads (PlayheadProcess, or the interrupting runner
// below), never on the cooperative pool.

@Suite struct PlayQueueTests {
    static func items(_ result: SubprocessResult) throws -> [[String: Any]] {
        let object = try PlayheadProcess.jsonObject(result)
        return try #require(object["items"] as? [[String: Any]])
    }

    @Test func threeInputsPlayedHeadlessGiveThreeCompletedItems() async throws {
        let inputs = [try Fixture.url(.mp4), try Fixture.url(.webM), try Fixture.url(.videoOnlyMP4)].map(\.path)
        let result = try #require(try await PlayheadProcess.run(["play", "--untimed", "--report", "json"] + inputs))
        #expect(result.status == 0, "\(result.standardError)")
        let items = try Self.items(result)
        #expect(items.count == 3)
        #expect(items.compactMap { $0["input"] as? String } == inputs)
        #expect(items.allSatisfy { $0["status"] as? String == "completed" })
        for item in items {
            let frames = item["videoFramesPresented"] as? Int ?? 0
            #expect((48...51).contains(frames), "\(item)")
            let position = item["position"] as? Double ?? 0
            #expect(abs(position - (item["duration"] as? Double ?? 0)) < 0.05)
        }
        let object = try PlayheadProcess.jsonObject(result)
        #expect(object["status"] as? String == "completed")
        #expect(object["videoFramesPresented"] as? Int == items.reduce(0) { $0 + ($1["videoFramesPresented"] as? Int ?? 0) })
    }

    @Test func aBadInputInTheMiddleFailsAloneAndTheQueueGoesOn() async throws {
        let good = try Fixture.url(.mp4).path
        let result = try #require(
            try await PlayheadProcess.run(["play", "--untimed", "--report", "json", good, "/nonexistent/b.mp4", good]))
        #expect(result.status == 1)
        #expect(result.errorLines == ["playhead: /nonexistent/b.mp4: no such file"])
        let items = try Self.items(result)
        #expect(items.map { $0["status"] as? String } == ["completed", "failed", "completed"])
    }

    @Test func framesLimitsEveryItemOfTheQueue() async throws {
        let inputs = [try Fixture.url(.mp4), try Fixture.url(.webM)].map(\.path)
        let result = try #require(
            try await PlayheadProcess.run(["play", "--untimed", "--frames", "10", "--report", "json"] + inputs))
        #expect(result.status == 0)
        let items = try Self.items(result)
        #expect(items.map { $0["videoFramesPresented"] as? Int } == [10, 10])
        #expect(items.allSatisfy { $0["status"] as? String == "completed" })
    }

    @Test func loopPlaysTheQueueAgainUntilInterrupted() async throws {
        let inputs = [try Fixture.url(.mp4), try Fixture.url(.videoOnlyMP4)].map(\.path)
        let executable = try #require(PlayheadBinary.url)
        var items: [[String: Any]] = []
        // Interrupted after a while: a loaded machine gets another, longer try.
        for wait in [3.0, 12.0] where items.count < 4 {
            let output = try await runInterrupted(
                executable, ["play", "--untimed", "--loop", "--frames", "5", "--report", "json"] + inputs,
                after: wait)
            let object = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
            items = try #require(object["items"] as? [[String: Any]])
        }
        #expect(items.count >= 4, "only \(items.count) items")
        for (index, item) in items.enumerated() {
            #expect(item["input"] as? String == inputs[index % 2])
            if index < items.count - 1 { #expect(item["status"] as? String == "completed") }
        }
        // Ctrl-C stops the item playing, or lands between two items.
        #expect(["stopped", "completed"].contains(items.last?["status"] as? String ?? ""))
    }
}

/// Runs `executable`, sends SIGINT after `seconds`, and returns standard output.
private func runInterrupted(_ executable: URL, _ arguments: [String], after seconds: Double) async throws -> String {
    try await withCheckedThrowingContinuation { continuation in
        DispatchQueue.global(qos: .userInitiated).async {
            do {
                let (pid, output) = try Subprocess.spawnReadingOutput(executable, arguments)
                Thread.sleep(forTimeInterval: seconds)
                kill(pid, SIGINT)
                let killer = DispatchWorkItem { kill(pid, SIGTERM) }
                DispatchQueue.global().asyncAfter(deadline: .now() + 20, execute: killer)
                let data = output.readDataToEndOfFile()
                var status: Int32 = 0
                waitpid(pid, &status, 0)
                killer.cancel()
                continuation.resume(returning: String(decoding: data, as: UTF8.self))
            } catch {
                continuation.resume(throwing: error)
            }
        }
    }
}
