// Playhead: an item's variant limits set before the player takes it pick the variant its
// first segments come from (Apple's rule: the caps hold from the start), not only the later
// switches; set after (its stream opens at once) they hold once its loader starts; and
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

    @Test func capsSetAfterThePlayerTookTheItemHoldOnceItsLoaderStarts() async throws {
        // The stream opens as soon as the player has the item, so its first segments (at most
        // three, while the asset opens) may come before the caps; every later one obeys them
        // (they were lost for the whole playback when set during the open).
        let segments = try await firstSegments(peakBitRate: 500_000, afterThePlayer: true, count: 6)
        #expect(
            segments.dropFirst(3).allSatisfy { $0 == "low" }, "capped at 0.5 Mbit/s: \(segments)")
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

extension StartVariantCapsTests {
    @Test func capsSetOnAQueuesNextItemWhileItWaitsHoldWhenItPlays() async throws {
        let (server, root) = try serve()
        defer {
            server.stop()
            try? FileManager.default.removeItem(at: root)
        }
        let first = AVPlayerItem(url: try Fixture.url(.mp4))
        let next = AVPlayerItem(url: server.url(for: "master.m3u8"))
        // A short buffer, so the waiting item's loader leaves most of its segments for later.
        next.preferredForwardBufferDuration = 2
        let player = AVQueuePlayer(
            environment: untimedEnvironment(RecordingVideoSink()), items: [first, next])
        defer { player.removeAllItems() }
        // The next item's stream opens while the first waits (the queue prepares it): its
        // loader is taken over by the waiting engine before the caps are set.
        await waitUntil(timeout: 30, "the next item opened") {
            player.queue.withLock { $0.prerolled }.map { $0.item === next && $0.hasOpened } ?? false
        }
        // (Its loader may be fetching ahead already: what it asked for before, and the one
        // request in flight, are not the caps'.)
        let before = segmentVariants(server).count
        next.preferredPeakBitRate = 500_000
        player.play()
        await waitUntil(timeout: 60, "the next item's segments") {
            segmentVariants(server).count >= before + 4 || player.currentItem == nil
        }
        let segments = segmentVariants(server)
        #expect(segments.count >= before + 4, "\(segments)")
        #expect(
            segments.dropFirst(before + 1).allSatisfy { $0 == "low" },
            "capped at 0.5 Mbit/s: \(segments)")
    }
}
