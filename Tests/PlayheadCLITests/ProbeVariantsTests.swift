// Playhead: `playhead probe` lists an adaptive stream's variants (an HLS ladder served over
// loopback, a DASH manifest with its frame rate), as text and JSON, run as a process; a file
// lists none.

import Foundation
import PlayheadCLI
import PlayheadTestSupport
import Testing

@Suite("probe lists variants")
struct ProbeVariantsTests {
    @Test func anHLSLaddersVariantsAreListedLowestFirst() async throws {
        let server = try LoopbackHTTPServer(root: try AdaptiveMedia.folder())
        defer { server.stop() }
        let url = server.url(for: "ladder/master.m3u8").absoluteString
        guard let text = try await PlayheadProcess.run(["probe", url]) else { return }
        #expect(text.status == 0)
        let lines = text.standardOutput.split(separator: "\n").map(String.init)
        let heading = try #require(lines.firstIndex(of: "Variants:"))
        #expect(Array(lines.dropFirst(heading + 1).prefix(3)) == [
            "  #1  250 kb/s  160x90  avc1 aac", "  #2  900 kb/s  320x180  avc1 aac", "  #3  2.5 Mb/s  640x360  avc1 aac",
        ])

        guard let result = try await PlayheadProcess.run(["probe", "--json", url]) else { return }
        let variants = try #require(try PlayheadProcess.jsonObject(result)["variants"] as? [[String: Any]])
        #expect(variants.map { $0["peakBitRate"] as? Int } == AdaptiveMedia.variants.map(\.bandwidth))
        #expect(variants.first?["codecs"] as? [String] == ["avc1", "aac "])
        #expect(variants.first?["averageBitRate"] is NSNull)
        #expect(variants.map { $0["layouts"] as? [String] } == [["mono rectangular"], ["mono rectangular"], ["mono rectangular"]])
    }

    @Test func aStereoVariantShowsItsLayouts() async throws {
        // The ladder's lowest variant listed by a playlist of this test's stating a stereo
        // 180° layout, or flat video.
        let root = try AdaptiveMedia.linkedVariants(["low"])
        defer { try? FileManager.default.removeItem(at: root) }
        try """
            #EXTM3U
            #EXT-X-STREAM-INF:BANDWIDTH=250000,RESOLUTION=160x90,CODECS="avc1.64001e",REQ-VIDEO-LAYOUT="CH-STEREO/PROJ-HEQU,CH-MONO"
            low/index.m3u8

            """.write(to: root.appendingPathComponent("master.m3u8"), atomically: true, encoding: .utf8)
        let server = try LoopbackHTTPServer(root: root)
        defer { server.stop() }
        let url = server.url(for: "master.m3u8").absoluteString
        guard let text = try await PlayheadProcess.run(["probe", url]) else { return }
        #expect(text.status == 0)
        let lines = text.standardOutput.split(separator: "\n").map(String.init)
        let heading = try #require(lines.firstIndex(of: "Variants:"))
        #expect(lines.dropFirst(heading + 1).first == "  #1  250 kb/s  160x90  stereo half-equirectangular or mono rectangular  avc1")
        guard let result = try await PlayheadProcess.run(["probe", "--json", url]) else { return }
        let variants = try #require(try PlayheadProcess.jsonObject(result)["variants"] as? [[String: Any]])
        #expect(variants.first?["layouts"] as? [String] == ["stereo half-equirectangular", "mono rectangular"])
    }

    @Test func aDASHManifestsVariantsShowTheirFrameRate() async throws {
        let server = try LoopbackHTTPServer(root: try DASHMedia.folder())
        defer { server.stop() }
        let url = server.url(for: "template/manifest.mpd").absoluteString
        guard let text = try await PlayheadProcess.run(["probe", url]) else { return }
        #expect(text.status == 0)
        let lines = text.standardOutput.split(separator: "\n").map(String.init)
        let heading = try #require(lines.firstIndex(of: "Variants:"))
        // 200 kb/s of picture and the 64 kb/s sound that plays with it.
        #expect(lines.dropFirst(heading + 1).first == "  #1  264 kb/s  160x90  25 fps  avc1")
        guard let result = try await PlayheadProcess.run(["probe", "--json", url]) else { return }
        let variants = try #require(try PlayheadProcess.jsonObject(result)["variants"] as? [[String: Any]])
        #expect(variants.map { $0["frameRate"] as? Double } == [25, 25])
        #expect(variants.map { $0["videoRange"] as? String } == ["SDR", "SDR"])
        #expect(variants.map { $0["layouts"] as? [String] } == [["mono rectangular"], ["mono rectangular"]])
    }

    @Test func aFileHasNoVariants() async throws {
        let path = try Fixture.url(.mp4).path
        guard let text = try await PlayheadProcess.run(["probe", path]) else { return }
        #expect(!text.standardOutput.contains("Variants:"))
        guard let result = try await PlayheadProcess.run(["probe", "--json", path]) else { return }
        #expect((try PlayheadProcess.jsonObject(result)["variants"] as? [Any])?.isEmpty == true)
    }
}
