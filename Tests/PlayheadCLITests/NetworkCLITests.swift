// Playhead: `playhead probe` and `playhead play` on http URLs served by the loopback test
// server: success, HTTP errors and a cut connection (exit 1, one line, no hang), and the
// stall count of a capped stream.
import Foundation
import PlayheadTestSupport
import Testing

@testable import PlayheadCLI

@Suite("network inputs on the command line")
struct NetworkCLITests {
    @Test func probeDescribesAnHTTPInput() async throws {
        let server = try LoopbackHTTPServer(root: try NetworkMedia.folder())
        defer { server.stop() }
        let url = server.url(for: "hls/index.m3u8").absoluteString
        guard let result = try await PlayheadProcess.run(["probe", "--json", url]) else { return }
        #expect(result.status == 0, "\(result.standardError)")
        let object = try PlayheadProcess.jsonObject(result)
        #expect(object["format"] as? String == "hls")
        #expect(((object["duration"] as? Double) ?? 0) > 3.9)
        #expect((object["tracks"] as? [[String: Any]])?.count == 2)
    }

    @Test(arguments: ["progressive.mp4", "hls/index.m3u8", "dash/manifest.mpd"])
    func playCompletesAnHTTPInput(_ path: String) async throws {
        let server = try LoopbackHTTPServer(root: try NetworkMedia.folder())
        defer { server.stop() }
        let url = server.url(for: path).absoluteString
        let arguments = ["play", "--untimed", "--no-audio", "--report", "json", url]
        guard let result = try await PlayheadProcess.run(arguments) else { return }
        #expect(result.status == 0, "\(result.standardError)")
        let report = try PlayheadProcess.jsonObject(result)
        #expect(report["status"] as? String == "completed")
        #expect(report["stalls"] as? Int == 0)
        #expect(((report["videoFramesPresented"] as? Int) ?? 0) >= 95)
    }

    /// Through a multivariant playlist and through one variant's media playlist on its own.
    @Test(arguments: ["ladder/master.m3u8", "ladder/\(AdaptiveMedia.variants[0].name)/index.m3u8"])
    func aRefusedSegmentOfAnHLSStreamIsOneWarningLine(_ path: String) async throws {
        let folder = try AdaptiveMedia.folder()
        let server = try LoopbackHTTPServer(root: folder)
        defer { server.stop() }
        try AdaptiveMedia.serveFourthSegmentAsALocalFile(from: folder, on: server)
        let url = server.url(for: path).absoluteString
        let arguments = ["play", "--untimed", "--no-audio", "--report", "json", url]
        guard let result = try await PlayheadProcess.run(arguments) else { return }
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.errorLines == [
            "playhead: \(url): warning: refused file URL in a remote playlist (file:///etc/passwd)"[...]
        ])
        let report = try PlayheadProcess.jsonObject(result)
        #expect(report["status"] as? String == "completed")
        let item = try #require((report["items"] as? [[String: Any]])?.first)
        #expect(((item["observedBitrate"] as? Double) ?? 0) > 0, "\(item)")
        // A media playlist on its own states no variant rate.
        #expect((item["variantBitrate"] as? Int != nil) == path.hasSuffix("master.m3u8"), "\(item)")
    }

    @Test func aMissingURLExitsOneWithOneLine() async throws {
        let server = try LoopbackHTTPServer(root: try NetworkMedia.folder())
        defer { server.stop() }
        let url = server.url(for: "missing.mp4").absoluteString
        for command in ["play", "probe"] {
            let arguments = command == "play" ? ["play", "--untimed", "--no-audio", url] : ["probe", url]
            guard let result = try await PlayheadProcess.run(arguments) else { return }
            #expect(result.status == 1)
            #expect(result.errorLines == ["playhead: \(url): not found (HTTP 404)"[...]], "\(command)")
        }
    }

    @Test func aServerErrorExitsOneWithOneLine() async throws {
        let server = try LoopbackHTTPServer(root: try NetworkMedia.folder())
        defer { server.stop() }
        server.setRule(.serverError, for: "/progressive.mp4")
        let url = server.url(for: "progressive.mp4").absoluteString
        guard let result = try await PlayheadProcess.run(["play", "--untimed", "--no-audio", url]) else { return }
        #expect(result.status == 1)
        #expect(result.errorLines == ["playhead: \(url): server error (HTTP 5xx)"[...]])
    }

    @Test func aConnectionCutMidFileExitsOneWithOneLineAndNoHang() async throws {
        let server = try LoopbackHTTPServer(root: try NetworkMedia.folder())
        defer { server.stop() }
        let size = try Data(contentsOf: NetworkMedia.folder().appendingPathComponent("progressive.mp4")).count
        server.setRule(.cut(atByte: size / 2), for: "/progressive.mp4")
        let url = server.url(for: "progressive.mp4").absoluteString
        let arguments = ["play", "--untimed", "--no-audio", "--report", "json", url]
        guard let result = try await PlayheadProcess.run(arguments) else { return }
        #expect(result.status == 1)
        // No hang: reconnection stops after a few attempts within seconds, on the server's
        // clock (a busy machine slows the process, not the retry schedule).
        let requests = server.requests.filter { $0.path == "/progressive.mp4" }
        let reconnects = requests.filter { $0.rangeStart >= size / 2 }
        #expect(!reconnects.isEmpty && reconnects.count <= 4, "reconnection attempts: \(reconnects.count)")
        if let cut = requests.first(where: { $0.rangeStart < size / 2 })?.endedAt, let last = reconnects.last {
            #expect(last.receivedAt - cut < 10, "retried for \(last.receivedAt - cut) s")
        }
        #expect(result.errorLines.count == 1)
        #expect(result.errorLines.first == "playhead: \(url): connection lost", "\(result.errorLines)")
        let report = try PlayheadProcess.jsonObject(result)
        #expect(report["status"] as? String == "failed")
    }

    @Test(.enabled(if: ProcessInfo.processInfo.environment["PLAYHEAD_REALTIME_TESTS"] != nil))
    func aCappedStreamReportsItsStallsInRealTime() async throws {
        let server = try LoopbackHTTPServer(root: try NetworkMedia.folder())
        defer { server.stop() }
        server.bytesPerSecond = 60_000
        let url = server.url(for: "heavy.mp4").absoluteString
        let arguments = ["play", "--headless", "--no-audio", "--report", "json", url]
        guard let result = try await PlayheadProcess.run(arguments) else { return }
        #expect(result.status == 0, "\(result.standardError)")
        let report = try PlayheadProcess.jsonObject(result)
        #expect(report["status"] as? String == "completed")
        #expect(((report["stalls"] as? Int) ?? 0) >= 1, "\(report)")
    }
}

@Suite struct NetworkStatusLineTests {
    @Test func aStallShowsInTheStateAndTheCount() {
        let line = StatusLine.render(
            StatusSnapshot(state: "stalled", position: 12, duration: 60, bufferedAhead: 0.4, rate: 1, stalls: 2),
            width: 100)
        #expect(line.hasPrefix("stalled   00:12 / 01:00"))
        #expect(line.contains("buffered 0.4 s"))
        #expect(line.hasSuffix("stalls 2"))
    }

    @Test func audioDropoutsShowAfterTheStallsAndNotWhenThereAreNone() {
        let line = StatusLine.render(
            StatusSnapshot(
                state: "playing", position: 3, duration: 60, bufferedAhead: 2, rate: 1, stalls: 1, dropouts: 3),
            width: 100)
        #expect(line.hasSuffix("stalls 1  dropouts 3"))
        let clean = StatusLine.render(
            StatusSnapshot(state: "playing", position: 3, duration: 60, bufferedAhead: 2, rate: 1), width: 100)
        #expect(!clean.contains("dropouts"))
    }
}
