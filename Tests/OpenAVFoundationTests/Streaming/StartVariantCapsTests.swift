// Playhead: an item's variant limits pick the variant its first segments come from (Apple's
// rule: the caps hold from the start), not only the later switches, whether they are set
// before the player takes the item or after (its stream opens at once); and
// `startsOnFirstEligibleVariant` starts on the first listed variant they allow.
import Foundation
import PlayheadTestSupport
import Testing

@testable import OpenAVFoundation

@MainActor
@Suite struct StartVariantCapsTests {
    /// A multivariant playlist over the ladder's segments listing `high` (stated 4.5 Mbit/s, so
    /// a start estimate from it affords `mid`), `low`, then `mid`, served by a new loopback
    /// server.
    private func serve() throws -> (LoopbackHTTPServer, URL) {
        let root = try AdaptiveMedia.linkedVariants(["low", "mid", "high"])
        let master = """
            #EXTM3U
            #EXT-X-STREAM-INF:BANDWIDTH=4500000,RESOLUTION=640x360
            high/index.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=250000,RESOLUTION=160x90
            low/index.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=900000,RESOLUTION=320x180
            mid/index.m3u8

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

    /// Plays the served ladder with the caps (and start rule) until `count` segments were
    /// fetched; their variants. `afterThePlayer`: the caps are set once the player has the
    /// item (its stream opening).
    private func firstSegments(
        peakBitRate cap: Double = 0, resolution: CGSize = .zero, firstEligible: Bool = false,
        afterThePlayer: Bool = false, count: Int = 3
    ) async throws -> [String] {
        let (server, root) = try serve()
        defer {
            server.stop()
            try? FileManager.default.removeItem(at: root)
        }
        let item = AVPlayerItem(url: server.url(for: "master.m3u8"))
        let setCaps = {
            item.preferredPeakBitRate = cap
            item.preferredMaximumResolution = resolution
            item.startsOnFirstEligibleVariant = firstEligible
        }
        if !afterThePlayer { setCaps() }
        let player = AVPlayer(
            environment: untimedEnvironment(RecordingVideoSink()), playerItem: item)
        defer { player.replaceCurrentItem(with: nil) }
        if afterThePlayer { setCaps() }
        player.play()
        await waitUntil(timeout: 30, "\(count) segments") { segmentVariants(server).count >= count }
        return segmentVariants(server)
    }

    @Test func aPeakBitRateSetBeforePlayingHoldsForTheFirstSegments() async throws {
        // Uncapped, a start estimate from the first-listed rate picks `mid` (one remembered for
        // the server's port from an earlier test could pick another).
        let capped = try await firstSegments(peakBitRate: 500_000)
        #expect(capped.allSatisfy { $0 == "low" }, "capped at 0.5 Mbit/s: \(capped)")
    }

    @Test func aMaximumResolutionSetBeforePlayingHoldsForTheFirstSegments() async throws {
        let capped = try await firstSegments(resolution: CGSize(width: 200, height: 120))
        #expect(capped.allSatisfy { $0 == "low" }, "capped at 200x120: \(capped)")
    }

    @Test func capsSetAfterThePlayerTookTheItemHoldFromTheFirstSegment() async throws {
        let capped = try await firstSegments(peakBitRate: 500_000, afterThePlayer: true)
        #expect(capped.allSatisfy { $0 == "low" }, "capped at 0.5 Mbit/s: \(capped)")
    }

    @Test func startingOnTheFirstEligibleVariantTakesThePlaylistsOrder() async throws {
        // `high` is listed first; 1 Mbit/s rules it out, so `low`, listed next, starts (where
        // the throughput rule would pick `mid`).
        let capped = try await firstSegments(peakBitRate: 1_000_000, firstEligible: true, count: 1)
        #expect(capped.first == "low", "\(capped)")
        // Uncapped, the first listed starts.
        let free = try await firstSegments(firstEligible: true, count: 1)
        #expect(free.first == "high", "\(free)")
    }
}
