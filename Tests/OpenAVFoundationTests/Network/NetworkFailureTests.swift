// Playhead: network inputs that fail: HTTP errors, a connection cut for good, time-outs, and
// releasing a player while a slow server has not answered yet.
import FFmpegBridge
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
        // The time-out only guards against a hang; how fast the engine gives up is measured on
        // the server's clock below, which a busy main queue does not delay.
        let played = await playUntimed(AVURLAsset(url: server.url(for: "progressive.mp4")), timeout: 300)
        #expect(played.item.status == .failed)
        let requests = server.requests.filter { $0.path == "/progressive.mp4" }
        let reconnects = requests.filter { $0.rangeStart >= size / 2 }
        // Reconnection waits 0 s, then 1 s, then stops (the next wait would pass 2 s).
        #expect(!reconnects.isEmpty && reconnects.count <= 4, "reconnection attempts: \(reconnects.count)")
        if let firstCut = requests.first(where: { $0.rangeStart < size / 2 && $0.endedAt != nil }),
            let last = reconnects.last
        {
            let retrying = last.receivedAt - (firstCut.endedAt ?? 0)
            #expect(retrying < 10, "gave up reconnecting after \(retrying) s, not minutes")
        }
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
        let played = await playUntimed(asset, timeout: 300)
        #expect(played.item.status == .failed)
        #expect((played.item.error as NSError?)?.localizedDescription.contains("timed out") == true)
        // The server would answer after 300 s. It sees the client hang up; measured on the
        // server's own clock, that comes after the 0.5 s time-out, far from the default 15 s,
        // however late a busy main queue delivers the failure (or the server's thread notes it).
        await waitUntil("the server saw the client give up") { server.requests.contains { $0.servedSeconds != nil } }
        let waits = server.requests.compactMap(\.servedSeconds)
        #expect(!waits.isEmpty, "the server saw the client give up")
        #expect(waits.allSatisfy { $0 >= 0.4 && $0 < 8 }, "the client waited \(waits) s for the headers")
    }

    @Test func anAddressWithoutAnExtensionThatNeverAnswersIsAskedOnce() async throws {
        // Playhead asks such an address what it is (a manifest, a list of streams, media)
        // before libavformat opens it; when that request times out, libavformat's own would
        // only wait as long again.
        let server = try networkMediaServer()
        defer { server.stop() }
        server.headerDelay = 300
        let asset = AVURLAsset(url: server.url(for: "live?station=1"), options: [AVURLAssetPlayheadTimeoutKey: 1.0])
        let played = await playUntimed(asset, timeout: 300)
        #expect(played.item.status == .failed)
        #expect((played.item.error as NSError?)?.localizedDescription.contains("timed out") == true)
        await waitUntil("the server saw the client give up") { server.requests.contains { $0.servedSeconds != nil } }
        #expect(server.requests.map(\.path) == ["/live"], "one request: \(server.requests.map(\.path))")
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
        // Waiting for the server would block for 300 s. Time blocked, not wall time, so a busy
        // machine that delays the main thread does not count.
        let blocked = blockedSeconds {
            player?.replaceCurrentItem(with: nil)
            player = nil
        }
        #expect(blocked < 0.25, "release waited \(blocked) s")
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
        // Waiting for the held read would block until the 600 s timeout.
        let pausing = blockedSeconds { player.pause() }
        #expect(pausing < 0.25, "pause waited \(pausing) s")
        let replacing = blockedSeconds { player.replaceCurrentItem(with: nil) }
        #expect(replacing < 0.25, "replacing waited \(replacing) s")
        await waitUntil(timeout: 10, "the held connection was dropped") { server.openConnectionCount == 0 }
    }
}

/// Seconds the calling thread spent blocked (on I/O, a lock, a join) while `body` ran: near
/// zero for a call that never waits, however slowly a busy machine runs it.
func blockedSeconds(_ body: () -> Void) -> Double {
    let stopwatch = TransferStopwatch()
    body()
    return stopwatch.elapsedWaiting
}
