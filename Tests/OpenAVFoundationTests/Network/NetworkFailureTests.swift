// Playhead: network inputs that fail: HTTP errors, a connection cut for good, time-outs, and
// releasing a player while a slow server has not answered yet.
import Foundation
import PlayheadTestSupport
import Testing

@testable import OpenAVFoundation

@MainActor
@Suite struct NetworkFailureTests {
    @Test(arguments: [(404, "not found (HTTP 404)"), (500, "server error (HTTP 5xx)")])
    func httpErrorsFailTheItemWithTheStatus(_ status: Int, _ reason: String) async throws {
        let server = try networkMediaServer()
        defer { server.stop() }
        server.setRule(status == 404 ? .notFound : .serverError, for: "/progressive.mp4")
        let played = await playUntimed(AVURLAsset(url: server.url(for: "progressive.mp4")))
        #expect(played.item.status == .failed)
        let message = (played.item.error as NSError?)?.localizedDescription ?? ""
        #expect(message.contains(reason), "\(message)")
        #expect(played.sink.count == 0)
    }

    @Test func assetLoadingReportsAMissingURL() async throws {
        let server = try networkMediaServer()
        defer { server.stop() }
        let asset = AVURLAsset(url: server.url(for: "missing.mp4"))
        await #expect(throws: (any Error).self) { _ = try await asset.load(.duration) }
        var error: NSError?
        #expect(asset.statusOfValue(forKey: "duration", error: &error) == .failed)
        #expect(error?.localizedDescription.contains("HTTP 404") == true, "\(String(describing: error))")
    }

    @Test func aConnectionCutForGoodFailsAfterPlayingWhatArrived() async throws {
        let server = try networkMediaServer()
        defer { server.stop() }
        let size = try Data(contentsOf: NetworkMedia.folder().appendingPathComponent("progressive.mp4")).count
        server.setRule(.cut(atByte: size / 2), for: "/progressive.mp4")
        let start = Date()
        let played = await playUntimed(AVURLAsset(url: server.url(for: "progressive.mp4")), timeout: 110)
        // Generous: the whole suite runs at once on two cores; a hang never ends.
        #expect(Date().timeIntervalSince(start) < 100, "gives up reconnecting, no hang")
        #expect(played.item.status == .failed)
        await waitUntil("AVPlayerItemFailedToPlayToEndTime") { played.failedToEnd }
        #expect(!played.reachedEnd)
        #expect(played.sink.count > 10 && played.sink.count < 95, "frames before the cut: \(played.sink.count)")
        let loadedEnd = played.item.loadedTimeRanges.last?.timeRangeValue.end.seconds ?? 0
        #expect(loadedEnd < 3.5, "what never arrived is not reported as loaded: \(loadedEnd)")
    }

    @Test func aServerThatNeverAnswersTimesOutAfterTheAssetTimeout() async throws {
        let server = try networkMediaServer()
        defer { server.stop() }
        server.headerDelay = 300
        let asset = AVURLAsset(url: server.url(for: "progressive.mp4"), options: [AVURLAssetPlayheadTimeoutKey: 0.5])
        let start = Date()
        let played = await playUntimed(asset, timeout: 130)
        let seconds = Date().timeIntervalSince(start)
        #expect(played.item.status == .failed)
        #expect((played.item.error as NSError?)?.localizedDescription.contains("timed out") == true)
        // The server would answer after 300 s: failing long before proves the 0.5 s time-out
        // (the wide margin absorbs a loaded test machine whose main queue runs late).
        #expect(seconds < 120, "the 0.5 s time-out applies: \(seconds) s")
    }

    @Test func releasingAPlayerDuringASlowOpenReturnsAtOnceAndDropsTheConnection() async throws {
        let server = try networkMediaServer()
        defer { server.stop() }
        // Far longer than any test machine delay: the open is still waiting when released.
        server.headerDelay = 300
        let asset = AVURLAsset(url: server.url(for: "progressive.mp4"), options: [AVURLAssetPlayheadTimeoutKey: 600])
        var player: AVPlayer? = AVPlayer(
            environment: untimedEnvironment(RecordingVideoSink()), playerItem: AVPlayerItem(asset: asset))
        player?.play()
        await waitUntil("the open reached the server") { !server.requests.isEmpty }
        #expect(server.openConnectionCount == 1)
        let start = Date()
        player?.replaceCurrentItem(with: nil)
        player = nil
        let elapsed = Date().timeIntervalSince(start)
        // Waiting for the server would take 300 s; 0.5 s leaves room for a loaded machine.
        #expect(elapsed < 0.5, "release took \(elapsed) s")
        // FFmpeg polls the interrupt every 100 ms: the connection goes away soon after.
        await waitUntil(timeout: 10, "the engine dropped the connection") { server.openConnectionCount == 0 }
    }

    @Test func pauseAndReplaceDuringAStalledReadDoNotWait() async throws {
        let server = try networkMediaServer()
        defer { server.stop() }
        server.setRule(.hold(atByte: 40_000), for: "/progressive.mp4")
        let asset = AVURLAsset(url: server.url(for: "progressive.mp4"), options: [AVURLAssetPlayheadTimeoutKey: 600])
        let item = AVPlayerItem(asset: asset)
        let player = AVPlayer(environment: untimedEnvironment(RecordingVideoSink()), playerItem: item)
        player.play()
        await waitUntil(timeout: 60, "ready") { item.status == .readyToPlay }
        // Waiting for the held read would take the 600 s timeout; 0.5 s leaves room for a
        // loaded machine.
        var start = Date()
        player.pause()
        #expect(Date().timeIntervalSince(start) < 0.5)
        start = Date()
        player.replaceCurrentItem(with: nil)
        #expect(Date().timeIntervalSince(start) < 0.5)
        await waitUntil(timeout: 10, "the held connection was dropped") { server.openConnectionCount == 0 }
    }
}
