// Playhead: https playback through a TLS front (socat) and the refusals players report: an
// https URL redirected to plain http, and a playlist larger than the 4 MiB limit.
import Foundation
import PlayheadTestSupport
import Testing

@testable import OpenAVFoundation

@MainActor
@Suite struct NetworkRefusalTests {
    /// A TLS front for `server`, started off the main actor (it waits for socat to listen).
    static func tlsFront(for server: LoopbackHTTPServer) async throws -> LoopbackTLSFront {
        try await Task.detached { try LoopbackTLSFront(for: server) }.value
    }

    @Test func anHTTPSURLPlaysToTheEnd() async throws {
        let server = try networkMediaServer()
        let tls = try await Self.tlsFront(for: server)
        defer { tls.stop(); server.stop() }
        let played = await playUntimed(AVURLAsset(url: tls.url(for: "hls/index.m3u8")))
        #expect(played.reachedEnd, "\(String(describing: played.item.error))")
        #expect(played.sink.count > 90, "4 s at 25 fps: \(played.sink.count) frames")
    }

    @Test func anHTTPSURLRedirectedToHTTPFailsSayingSo() async throws {
        let server = try networkMediaServer()
        let tls = try await Self.tlsFront(for: server)
        defer { tls.stop(); server.stop() }
        let plain = server.url(for: "progressive.mp4").absoluteString
        server.setRule(.redirect(to: plain), for: "/moved.mp4")
        let played = await playUntimed(AVURLAsset(url: tls.url(for: "moved.mp4")))
        #expect(played.item.status == .failed)
        let message = (played.item.error as NSError?)?.localizedDescription ?? ""
        #expect(message.contains("refused redirect from https to http (\(plain))"), "\(message)")
        #expect(played.sink.count == 0)
    }

    @Test func aPlaylistLargerThan4MiBFailsSayingSo() async throws {
        let server = try networkMediaServer()
        defer { server.stop() }
        var text = "#EXTM3U\n#EXT-X-TARGETDURATION:1\n"
        text.reserveCapacity(5 << 20)
        while text.utf8.count < 5 << 20 { text += "#EXTINF:1.000000,\nseg0.ts\n" }
        server.setRule(.content(Data(text.utf8), contentType: "application/vnd.apple.mpegurl"), for: "/hls/huge.m3u8")
        let played = await playUntimed(AVURLAsset(url: server.url(for: "hls/huge.m3u8")))
        #expect(played.item.status == .failed)
        let message = (played.item.error as NSError?)?.localizedDescription ?? ""
        #expect(message.contains("playlist larger than 4 MiB"), "\(message)")
    }
}
