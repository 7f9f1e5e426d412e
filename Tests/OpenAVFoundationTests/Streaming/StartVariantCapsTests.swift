// Playhead: an item's variant limits set before it plays pick the variant its first segments
// come from (Apple's rule: the caps hold from the start), not only the later switches.
import Foundation
import PlayheadTestSupport
import Testing

@testable import OpenAVFoundation

@MainActor
@Suite struct StartVariantCapsTests {
    /// A multivariant playlist over the ladder's segments whose first-listed variant states
    /// 4.5 Mbit/s (so the start estimate affords `mid`), served by a new loopback server.
    private func serve() throws -> (LoopbackHTTPServer, URL) {
        let root = try AdaptiveMedia.linkedVariants(["low", "mid", "high"])
        let master = """
            #EXTM3U
            #EXT-X-STREAM-INF:BANDWIDTH=4500000,RESOLUTION=640x360
            high/index.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=900000,RESOLUTION=320x180
            mid/index.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=250000,RESOLUTION=160x90
            low/index.m3u8

            """
        try master.write(
            to: root.appendingPathComponent("master.m3u8"), atomically: true, encoding: .utf8)
        return (try LoopbackHTTPServer(root: root), root)
    }

    /// The variant folders of the segments `server` served, in order.
    private func segmentVariants(_ server: LoopbackHTTPServer) -> [String] {
        server.requests.map(\.path).filter { $0.hasSuffix(".ts") }
            .map { $0.split(separator: "/").dropLast().last.map(String.init) ?? "" }
    }

    /// Plays the served ladder with `cap` until three segments were fetched; their variants.
    private func firstSegments(peakBitRate cap: Double, resolution: CGSize = .zero) async throws
        -> [String]
    {
        let (server, root) = try serve()
        defer {
            server.stop()
            try? FileManager.default.removeItem(at: root)
        }
        let item = AVPlayerItem(url: server.url(for: "master.m3u8"))
        item.preferredPeakBitRate = cap
        item.preferredMaximumResolution = resolution
        let player = AVPlayer(
            environment: untimedEnvironment(RecordingVideoSink()), playerItem: item)
        defer { player.replaceCurrentItem(with: nil) }
        player.play()
        await waitUntil(timeout: 30, "three segments") { segmentVariants(server).count >= 3 }
        return segmentVariants(server)
    }

    @Test func aPeakBitRateSetBeforePlayingHoldsForTheFirstSegments() async throws {
        // Uncapped, the start estimate (the first-listed rate) picks `mid`.
        let free = try await firstSegments(peakBitRate: 0)
        #expect(free.first == "mid", "uncapped start: \(free)")
        let capped = try await firstSegments(peakBitRate: 500_000)
        #expect(capped.allSatisfy { $0 == "low" }, "capped at 0.5 Mbit/s: \(capped)")
    }

    @Test func aMaximumResolutionSetBeforePlayingHoldsForTheFirstSegments() async throws {
        let capped = try await firstSegments(
            peakBitRate: 0, resolution: CGSize(width: 200, height: 120))
        #expect(capped.allSatisfy { $0 == "low" }, "capped at 200x120: \(capped)")
    }
}

extension StartVariantCapsTests {
    @Test func startingOnTheFirstEligibleVariantTakesThePlaylistsOrder() async throws {
        // `high` is listed first; 1 Mbit/s rules it out, so `mid`, listed next, starts.
        let (server, root) = try serve()
        defer {
            server.stop()
            try? FileManager.default.removeItem(at: root)
        }
        let item = AVPlayerItem(url: server.url(for: "master.m3u8"))
        item.startsOnFirstEligibleVariant = true
        item.preferredPeakBitRate = 1_000_000
        let player = AVPlayer(
            environment: untimedEnvironment(RecordingVideoSink()), playerItem: item)
        defer { player.replaceCurrentItem(with: nil) }
        player.play()
        await waitUntil(timeout: 30, "a segment") { !segmentVariants(server).isEmpty }
        #expect(segmentVariants(server).first == "mid")

        // Uncapped, the first listed (`high`) starts, where the throughput rule picks `mid`.
        let (second, secondRoot) = try serve()
        defer {
            second.stop()
            try? FileManager.default.removeItem(at: secondRoot)
        }
        let first = AVPlayerItem(url: second.url(for: "master.m3u8"))
        first.startsOnFirstEligibleVariant = true
        let other = AVPlayer(
            environment: untimedEnvironment(RecordingVideoSink()), playerItem: first)
        defer { other.replaceCurrentItem(with: nil) }
        other.play()
        await waitUntil(timeout: 30, "a segment") { !segmentVariants(second).isEmpty }
        #expect(segmentVariants(second).first == "high")
    }
}
