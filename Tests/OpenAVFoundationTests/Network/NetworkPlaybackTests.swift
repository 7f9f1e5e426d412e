// Playhead: remote media over a loopback HTTP server: progressive files, HLS and DASH played
// to the end, live start, request options and reconnection.
import FFmpegBridge
import Foundation
import PlayheadTestSupport
import Testing

@testable import OpenAVFoundation

@MainActor
@Suite struct NetworkPlaybackTests {
    @Test func progressiveMP4PlaysToTheEndWithRangeRequests() async throws {
        let server = try networkMediaServer()
        defer { server.stop() }
        let played = await playUntimed(AVURLAsset(url: server.url(for: "progressive.mp4")))
        #expect(played.reachedEnd)
        #expect(played.item.status == .readyToPlay)
        #expect(abs(played.item.duration.seconds - NetworkMedia.clipDuration) < 0.1)
        #expect(played.sink.count >= 99, "4 s at 25 fps: \(played.sink.count) frames")
        #expect((played.frameTimes.max() ?? 0) >= 3.9)
        let requests = server.requests.filter { $0.path == "/progressive.mp4" }
        #expect(!requests.isEmpty)
        #expect(requests.allSatisfy { $0.range != nil }, "FFmpeg asks for ranges so it can seek")
        #expect(requests.allSatisfy { $0.headers["user-agent"] == "Playhead" })
    }

    @Test(arguments: ["clip.webm", "clip.mp3"])
    func otherProgressiveFormatsPlayToTheEnd(_ name: String) async throws {
        let server = try networkMediaServer()
        defer { server.stop() }
        let asset = AVURLAsset(url: server.url(for: name))
        let played = await playUntimed(asset)
        #expect(played.reachedEnd)
        #expect(abs(played.item.duration.seconds - 2) < 0.2, "\(name): \(played.item.duration.seconds)")
        if name.hasSuffix("webm") { #expect(played.sink.count >= 45) }
    }

    @Test func hlsVODPlaysEverySegmentToTheEnd() async throws {
        let server = try networkMediaServer()
        defer { server.stop() }
        let played = await playUntimed(AVURLAsset(url: server.url(for: "hls/index.m3u8")))
        #expect(played.reachedEnd)
        #expect(abs(played.item.duration.seconds - NetworkMedia.clipDuration) < 0.2)
        #expect(played.sink.count >= 95, "frames: \(played.sink.count)")
        let paths = Set(server.requests.map(\.path))
        #expect(paths.isSuperset(of: ["/hls/index.m3u8", "/hls/seg0.ts", "/hls/seg1.ts", "/hls/seg2.ts", "/hls/seg3.ts"]))
    }

    @Test func dashPlaysToTheEnd() async throws {
        let server = try networkMediaServer()
        defer { server.stop() }
        let played = await playUntimed(AVURLAsset(url: server.url(for: "dash/manifest.mpd")))
        #expect(played.reachedEnd, "error: \(String(describing: played.item.error))")
        #expect(played.sink.count >= 95, "frames: \(played.sink.count)")
        #expect(server.requests.contains { $0.path.hasPrefix("/dash/chunk-") })
    }

    @Test func liveHLSStartsNearTheLiveEdge() async throws {
        let server = try networkMediaServer()
        defer { server.stop() }
        let sink = RecordingVideoSink()
        let item = AVPlayerItem(url: server.url(for: "hls/live.m3u8"))
        let player = AVPlayer(environment: untimedEnvironment(sink), playerItem: item)
        player.play()
        await waitUntil("first frames of the live stream") { sink.count >= 10 }
        player.replaceCurrentItem(with: nil)
        // libavformat starts three segments from the live end: segment 1 of 0...3.
        #expect(!server.requests.contains { $0.path == "/hls/seg0.ts" }, "the oldest segment is skipped")
        #expect(item.duration.isIndefinite || !item.duration.isNumeric || item.duration.seconds >= 0)
    }

    @Test func requestHeadersAndUserAgentComeFromTheAssetOptions() async throws {
        let server = try networkMediaServer()
        defer { server.stop() }
        let asset = AVURLAsset(
            url: server.url(for: "hls/index.m3u8"),
            options: [
                AVURLAssetHTTPHeaderFieldsKey: ["X-Playhead-Test": "yes", "Authorization": "Bearer abc"],
                AVURLAssetHTTPUserAgentKey: "PlayheadTests/1.0",
            ])
        let played = await playUntimed(asset)
        #expect(played.reachedEnd)
        let requests = server.requests
        #expect(requests.count >= 5)
        for request in requests {
            #expect(request.headers["user-agent"] == "PlayheadTests/1.0", "\(request.path)")
            #expect(request.headers["x-playhead-test"] == "yes", "\(request.path)")
            #expect(request.headers["authorization"] == "Bearer abc", "\(request.path)")
        }
    }

    @Test func aDroppedConnectionReconnectsAndPlaysOn() async throws {
        let server = try networkMediaServer()
        defer { server.stop() }
        server.setRule(.cut(atByte: 60_000, times: 1), for: "/progressive.mp4")
        let played = await playUntimed(AVURLAsset(url: server.url(for: "progressive.mp4")))
        #expect(played.reachedEnd, "error: \(String(describing: played.item.error))")
        #expect(played.sink.count >= 99)
        let resumed = server.requests.filter { $0.path == "/progressive.mp4" && $0.rangeStart >= 60_000 }
        #expect(!resumed.isEmpty, "a new request picks up where the cut left off")
    }

    @Test func aRedirectIsFollowed() async throws {
        let server = try networkMediaServer()
        defer { server.stop() }
        server.setRule(.redirect(to: "/progressive.mp4"), for: "/moved.mp4")
        let played = await playUntimed(AVURLAsset(url: server.url(for: "moved.mp4")))
        #expect(played.reachedEnd)
    }
}

@MainActor
@Suite struct NetworkVariantTests {
    /// Plays `multi/master.m3u8` untimed and returns the variant playing at the end and the
    /// paths of the last segment fetched.
    func play(_ server: LoopbackHTTPServer, peak: Double = 0) async -> (Int?, [String]) {
        let sink = RecordingVideoSink()
        let item = AVPlayerItem(url: server.url(for: "multi/master.m3u8"))
        item.preferredPeakBitRate = peak
        let player = AVPlayer(environment: untimedEnvironment(sink), playerItem: item)
        let log = NotificationLog([AVPlayerItem.didPlayToEndTimeNotification], object: item)
        player.play()
        await waitUntil("ready") { item.status == .readyToPlay }
        await waitUntil(timeout: 30, "the end") { log.count(AVPlayerItem.didPlayToEndTimeNotification) == 1 }
        // The variant playing at the end: the loader starts low and adapts.
        let variant = item.playingVariantBitRate
        #expect(sink.count >= 95)
        player.replaceCurrentItem(with: nil)
        return (variant, server.requests.map(\.path).filter { $0.hasSuffix("seg3.ts") })
    }

    @Test func aSlowConnectionPlaysTheLowVariant() async throws {
        let server = try networkMediaServer()
        defer { server.stop() }
        server.bytesPerSecond = 200_000  // 1.6 Mbit/s: below the high variant's 3 Mbit/s
        let (variant, lastSegments) = await play(server)
        #expect(variant == 300_000)
        #expect(lastSegments == ["/multi/low/seg3.ts"])
    }

    @Test func thePeakBitRateCapsTheVariant() async throws {
        let server = try networkMediaServer()
        defer { server.stop() }
        let (variant, lastSegments) = await play(server, peak: 1_000_000)
        #expect(variant == 300_000)
        #expect(lastSegments == ["/multi/low/seg3.ts"])
    }

    @Test func variantChoiceFollowsTheMeasuredRate() {
        func stream(_ index: Int, _ kind: StreamKind, _ rate: Int) -> VariantChoice.Member {
            VariantChoice.Member(index: index, kind: kind, bitRate: rate)
        }
        let streams = [stream(0, .video, 300_000), stream(1, .audio, 300_000),
                       stream(2, .video, 3_000_000), stream(3, .audio, 3_000_000)]
        let fast = VariantChoice.choose(among: streams, measuredBitRate: 10_000_000, peakBitRate: 0)
        #expect(fast == VariantChoice(bitRate: 3_000_000, videoStream: 2, audioStream: 3))
        let slow = VariantChoice.choose(among: streams, measuredBitRate: 1_000_000, peakBitRate: 0)
        #expect(slow?.bitRate == 300_000)
        let tooSlow = VariantChoice.choose(among: streams, measuredBitRate: 10_000, peakBitRate: 0)
        #expect(tooSlow?.bitRate == 300_000, "the lowest when nothing fits")
        #expect(VariantChoice.choose(among: Array(streams.prefix(2)), measuredBitRate: nil, peakBitRate: 0) == nil)
    }
}
