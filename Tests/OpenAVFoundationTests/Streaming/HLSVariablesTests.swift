// Playhead: HLS variable substitution (`EXT-X-DEFINE` with NAME/VALUE, IMPORT and QUERYPARAM):
// the rules on text, and a ladder whose playlists build their URIs from variables played over
// loopback by Playhead's loader, the server's log telling what was asked for.
import Foundation
import PlayheadTestSupport
import Testing

@testable import OpenAVFoundation

@Suite struct HLSVariablesTests {
    let url = URL(string: "https://media.example/show/master.m3u8?token=abc%20d&x=1")!

    @Test func referencesAreReplacedInURIsAndQuotedValuesAfterTheirDefinition() throws {
        let text = """
            #EXTM3U
            #EXT-X-DEFINE:NAME="host",VALUE="https://cdn.example"
            #EXT-X-DEFINE:QUERYPARAM="token"
            #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",NAME="English",URI="{$host}/en.m3u8?t={$token}"
            #EXT-X-STREAM-INF:BANDWIDTH=1000,AUDIO="a"
            {$host}/v/index.m3u8?t={$token}&keep={$not a name}
            """
        let resolved = try HLSVariables(text, url: url)
        #expect(resolved.definitions == ["host": "https://cdn.example", "token": "abc d"])
        let lines = resolved.text.split(separator: "\n").map(String.init)
        try #require(lines.count >= 6)
        #expect(lines[3] == #"#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",NAME="English",URI="https://cdn.example/en.m3u8?t=abc d""#)
        #expect(lines[5] == "https://cdn.example/v/index.m3u8?t=abc d&keep={$not a name}", "not a name: kept as written")
        #expect(lines[1] == #"#EXT-X-DEFINE:NAME="host",VALUE="https://cdn.example""#)
        guard case .multivariant(let master) = try HLSPlaylist.parse(text, base: url) else {
            Issue.record("not a multivariant playlist")
            return
        }
        #expect(master.variants.first?.url.host == "cdn.example")
        #expect(master.definitions["host"] == "https://cdn.example")
    }

    @Test func aMediaPlaylistImportsTheMultivariantPlaylistsVariables() throws {
        let text = """
            #EXTM3U
            #EXT-X-TARGETDURATION:2
            #EXT-X-DEFINE:IMPORT="dir"
            #EXTINF:2,
            {$dir}/seg0.ts
            #EXT-X-ENDLIST
            """
        guard case .media(let playlist) = try HLSPlaylist.parse(text, base: url, imports: ["dir": "low"]) else {
            Issue.record("not a media playlist")
            return
        }
        #expect(playlist.segments.map(\.url.absoluteString) == ["https://media.example/show/low/seg0.ts"])
        #expect(throws: HLSPlaylist.ParseError.variables(.undefined("dir")), "nothing to import") {
            try HLSPlaylist.parse(text, base: url)
        }
    }

    @Test func aPlaylistWhoseVariablesCannotBeResolvedIsRefused() {
        let head = "#EXTM3U\n#EXT-X-TARGETDURATION:2\n"
        #expect(throws: HLSVariables.Failure.undefined("a"), "referenced before its definition") {
            try HLSVariables(head + "#EXTINF:2,\n{$a}.ts\n#EXT-X-DEFINE:NAME=\"a\",VALUE=\"x\"\n", url: url)
        }
        #expect(throws: HLSVariables.Failure.badDefinition("a"), "defined twice") {
            try HLSVariables(head + "#EXT-X-DEFINE:NAME=\"a\",VALUE=\"x\"\n#EXT-X-DEFINE:NAME=\"a\",VALUE=\"y\"\n", url: url)
        }
        #expect(throws: HLSVariables.Failure.undefined("missing"), "a query parameter the URL lacks") {
            try HLSVariables(head + "#EXT-X-DEFINE:QUERYPARAM=\"missing\"\n", url: url)
        }
        #expect(throws: HLSVariables.Failure.badDefinition("growth"), "a value repeated past the size limit") {
            let big = String(repeating: "x", count: 1000)
            try HLSVariables(head + "#EXT-X-DEFINE:NAME=\"b\",VALUE=\"\(big)\"\n" + String(repeating: "{$b}\n", count: 10), url: url)
        }
        let plain = head + "#EXTINF:2,\na.ts\n"
        #expect((try? HLSVariables(plain, url: url).text) == plain, "no variables: unchanged")
    }

    /// The ladder's low and mid variants listed by playlists of this test's whose URIs are built
    /// from variables: the multivariant playlist takes a token from its own URL and defines the
    /// folder, each media playlist imports them and takes the token again from its own URL.
    @MainActor
    @Test func aLadderBuiltFromVariablesPlaysOverPlayheadsLoader() async throws {
        let ladder = try AdaptiveMedia.folder().appendingPathComponent("ladder")
        let root = try AdaptiveMedia.linkedVariants(["low", "mid"])
        defer { try? FileManager.default.removeItem(at: root) }
        for name in ["low", "mid"] {
            let original = try String(contentsOf: ladder.appendingPathComponent("\(name)/index.m3u8"), encoding: .utf8)
            let rewritten = original.split(separator: "\n", omittingEmptySubsequences: false).map { line in
                line.hasSuffix(".ts") ? "{$site}/\(name)/\(line)?t={$token}" : String(line)
            }
            var lines = rewritten
            lines.insert("#EXT-X-DEFINE:IMPORT=\"site\"\n#EXT-X-DEFINE:QUERYPARAM=\"token\"", at: 1)
            try lines.joined(separator: "\n").write(
                to: root.appendingPathComponent("\(name).m3u8"), atomically: true, encoding: .utf8)
        }
        let server = try LoopbackHTTPServer(root: root)
        defer { server.stop() }
        let site = server.url(for: "").absoluteString.trimmingCharacters(in: CharacterSet(charactersIn: "/"))
        try """
            #EXTM3U
            #EXT-X-DEFINE:QUERYPARAM="token"
            #EXT-X-DEFINE:NAME="site",VALUE="\(site)"
            #EXT-X-STREAM-INF:BANDWIDTH=250000,RESOLUTION=160x90,CODECS="avc1.64001e,mp4a.40.2"
            {$site}/low.m3u8?token={$token}
            #EXT-X-STREAM-INF:BANDWIDTH=900000,RESOLUTION=320x180,CODECS="avc1.64001e,mp4a.40.2"
            {$site}/mid.m3u8?token={$token}

            """.write(to: root.appendingPathComponent("master.m3u8"), atomically: true, encoding: .utf8)

        let sink = RecordingVideoSink()
        let url = try #require(URL(string: server.url(for: "master.m3u8").absoluteString + "?token=s3cr3t"))
        let item = AVPlayerItem(url: url)
        let player = AVPlayer(environment: untimedEnvironment(sink), playerItem: item)
        let log = NotificationLog([AVPlayerItem.didPlayToEndTimeNotification], object: item)
        player.play()
        await waitUntil(timeout: 60, "the end") {
            log.count(AVPlayerItem.didPlayToEndTimeNotification) == 1 || item.status == .failed
        }
        #expect(item.status == .readyToPlay && item.error == nil, "\(String(describing: item.error))")
        let segments = server.requests.filter { $0.path.hasSuffix(".ts") }
        #expect(!segments.isEmpty && segments.allSatisfy { $0.query == "t=s3cr3t" }, "\(segments.map(\.query))")
        #expect(server.requests.filter { $0.path.hasSuffix(".m3u8") && $0.path != "/master.m3u8" }.allSatisfy {
            $0.query == "token=s3cr3t"
        })
        // Played by Playhead's loader (libavformat knows no variables): its access log is there.
        #expect((item.accessLog()?.events.count ?? 0) >= 1)
        let last = try #require(sink.frames.last)
        #expect(last.pts.seconds > AdaptiveMedia.duration - 0.1, "played to the end: \(last.pts.seconds)")
        player.replaceCurrentItem(with: nil)
    }
}
