// Playhead: FFmpegBridge on http inputs: the location after redirects (what the https-to-http
// check reads), failure reasons and the throughput measured while opening.
import FFmpegBridge
import Foundation
import PlayheadTestSupport
import Testing

@Suite struct NetworkFormatContextTests {
    @Test func theFinalLocationFollowsRedirects() throws {
        let server = try LoopbackHTTPServer(root: try NetworkMedia.folder())
        defer { server.stop() }
        server.setRule(.redirect(to: "/progressive.mp4"), for: "/moved.mp4")
        let location = try MediaLocation(url: server.url(for: "moved.mp4"))
        let context = try FormatContext(location: location, timeout: 60)
        #expect(context.finalLocation == server.url(for: "progressive.mp4").absoluteString)
        #expect(server.requests.map(\.path).prefix(2) == ["/moved.mp4", "/progressive.mp4"])
    }

    @Test func aFileHasNoFinalLocation() throws {
        let location = try MediaLocation(url: try NetworkMedia.folder().appendingPathComponent("progressive.mp4"))
        let context = try FormatContext(location: location, timeout: 5)
        #expect(context.finalLocation == nil)
    }

    @Test func aRefusedConnectionSaysSo() throws {
        let server = try LoopbackHTTPServer(root: try NetworkMedia.folder())
        let url = server.url(for: "progressive.mp4")
        server.stop()
        Thread.sleep(forTimeInterval: 0.05)
        var options = NetworkOptions()
        options.reconnects = false
        let location = try MediaLocation(url: url, network: options)
        #expect(throws: MediaFailure.io(detail: "connection refused")) {
            _ = try FormatContext(location: location, timeout: 5)
        }
    }

    @Test func openingMeasuresTheThroughput() throws {
        let server = try LoopbackHTTPServer(root: try NetworkMedia.folder())
        defer { server.stop() }
        server.bytesPerSecond = 100_000
        let demuxer = try Demuxer(location: try MediaLocation(url: server.url(for: "hls/index.m3u8")), timeout: 60)
        let rate = try #require(demuxer.measuredBitRate)
        #expect(rate > 200_000 && rate < 1_000_000, "about 800 kbit/s: \(rate)")
        let local = try Demuxer(location: try MediaLocation(url: try NetworkMedia.folder().appendingPathComponent("progressive.mp4")))
        #expect(local.measuredBitRate == nil)
    }
}
