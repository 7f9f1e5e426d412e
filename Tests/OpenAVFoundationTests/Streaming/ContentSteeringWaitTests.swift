// Playhead: how long a start waits for a content steering server's first ranking: 1.5 s by
// default, then the playlist's own pathway plays; `AVURLAssetPlayheadSteeringWaitKey` waits
// longer. The steering server answers 2.5 s late, so neither outcome depends on the machine.
import Foundation
import PlayheadTestSupport
import Testing

@testable import OpenAVFoundation

@MainActor
@Suite struct ContentSteeringWaitTests {
    /// The two-pathway ladder (CDN-A named by the tag) whose steering server ranks CDN-B first
    /// but answers `delay` seconds after each request.
    private func serveLateRanking(delay: Double) throws -> (LoopbackHTTPServer, URL) {
        let (server, root) = try HLSContentSteeringPlaybackTests.serve(priority: ["CDN-B", "CDN-A"])
        let json = #"{"VERSION":1,"TTL":300,"PATHWAY-PRIORITY":["CDN-B","CDN-A"]}"#
        var late = LoopbackHTTPServer.Rule.content(Data(json.utf8), contentType: "application/json")
        late.headerDelay = delay
        server.setRule(late, for: "/steer.json")
        return (server, root)
    }

    /// The first segment requests of `server`.
    private func firstSegments(_ server: LoopbackHTTPServer) -> [String] {
        Array(server.requests.map(\.path).filter { $0.hasSuffix(".ts") }.prefix(3))
    }

    @Test func aLateRankingIsNotWaitedForAndTheTagsPathwayPlays() async throws {
        let (server, root) = try serveLateRanking(delay: 2.5)
        defer { server.stop(); try? FileManager.default.removeItem(at: root) }
        let played = await playUntimed(AVURLAsset(url: server.url(for: "master.m3u8")))
        #expect(played.item.status == .readyToPlay, "\(String(describing: played.item.error))")
        let first = firstSegments(server)
        #expect(first.count == 3 && first.allSatisfy { $0.hasPrefix("/a/") }, "CDN-A, the tag's: \(first)")
        #expect(server.requests.contains { $0.path == "/steer.json" }, "the steering server was asked")
    }

    @Test func theSteeringWaitOptionWaitsForALateRanking() async throws {
        let (server, root) = try serveLateRanking(delay: 2.5)
        defer { server.stop(); try? FileManager.default.removeItem(at: root) }
        let asset = AVURLAsset(url: server.url(for: "master.m3u8"), options: patientNetworkOptions)
        let played = await playUntimed(asset)
        #expect(played.item.status == .readyToPlay, "\(String(describing: played.item.error))")
        let segments = server.requests.map(\.path).filter { $0.hasSuffix(".ts") }
        #expect(!segments.isEmpty && segments.allSatisfy { $0.hasPrefix("/b/") }, "CDN-B, the ranking's: \(segments)")
    }
}
