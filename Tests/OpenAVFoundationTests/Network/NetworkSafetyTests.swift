// Playhead: what network input may reach: a playlist served over HTTP can never make the player
// read local files (file:, concat:, subfile:), and local inputs cannot reach the network.
import FFmpegBridge
import Foundation
import PlayheadTestSupport
import Testing

@testable import OpenAVFoundation

@MainActor
@Suite struct NetworkSafetyTests {
    /// The VOD playlist with its second segment replaced by `secondSegment`.
    static func playlist(secondSegment: String) -> Data {
        var lines = ["#EXTM3U", "#EXT-X-VERSION:3", "#EXT-X-TARGETDURATION:1", "#EXT-X-MEDIA-SEQUENCE:0"]
        for index in 0..<4 {
            lines.append("#EXTINF:1.000000,")
            lines.append(index == 1 ? secondSegment : "seg\(index).ts")
        }
        lines.append("#EXT-X-ENDLIST")
        return Data((lines.joined(separator: "\n") + "\n").utf8)
    }

    @Test(arguments: ["file://", "concat:", "subfile:"])
    func aRemotePlaylistNeverPlaysALocalSegment(_ kind: String) async throws {
        let server = try networkMediaServer()
        defer { server.stop() }
        let local = try NetworkMedia.folder().appendingPathComponent("hls/seg1.ts").path
        let segment: String
        switch kind {
        case "file://": segment = "file://" + local
        case "concat:": segment = "concat:\(server.url(for: "hls/seg0.ts").absoluteString)|file:\(local)"
        default: segment = "subfile,,start,0,end,0,,:\(local)"
        }
        server.setRule(
            .content(Self.playlist(secondSegment: segment), contentType: "application/vnd.apple.mpegurl"),
            for: "/hls/attack.m3u8")
        let played = await playUntimed(AVURLAsset(url: server.url(for: "hls/attack.m3u8")))
        // The local segment held seconds 1...2: no frame from it may appear.
        let fromLocal = played.frameTimes.filter { $0 >= 1.0 && $0 < 1.96 }
        #expect(fromLocal.isEmpty, "\(kind): frames from the local segment: \(fromLocal)")
        #expect(played.frameTimes.contains { $0 < 1.0 }, "the remote first segment played")
        #expect(played.frameTimes.contains { $0 >= 2.0 }, "playback went on after the refused segment")
        #expect(!server.requests.contains { $0.path == "/hls/seg1.ts" })
        // Playhead's loader streams the playlist and says what it skipped.
        #expect(played.item.accessLog() != nil, "Playhead's loader streamed it")
        let errors = played.item.errorLog()?.events ?? []
        if kind == "subfile:" {
            // Not a URL scheme: resolved against the playlist, it names a file the server lacks.
            #expect(errors.contains { $0.errorStatusCode == 404 }, "\(errors.map { ($0.uri, $0.errorStatusCode) })")
        } else {
            let scheme = String(segment.prefix { $0 != ":" })
            #expect(errors.count == 1 && errors[0].uri?.hasPrefix(scheme + ":") == true
                && errors[0].errorComment == "refused \(scheme) URL in a remote playlist",
                "\(errors.map { ($0.uri, $0.errorComment) })")
        }
    }

    @Test func protocolWhitelistsFollowTheInputKind() throws {
        let file = try MediaLocation(url: URL(fileURLWithPath: "/tmp/a.m3u8"))
        #expect(file.allowedProtocols == "file,crypto,data")
        #expect(!file.isNetwork)
        let http = try MediaLocation(url: URL(string: "http://example.com/a.m3u8")!)
        #expect(http.allowedProtocols == "http,https,tls,tcp,crypto,data")
        let https = try MediaLocation(url: URL(string: "https://example.com/a.m3u8")!)
        #expect(https.allowedProtocols == "https,tls,tcp,crypto,data", "no plain http under https")
        #expect(https.requiresTLS)
        for scheme in ["concat:x", "subfile:x", "ftp://x/y", "pipe:0", "udp://x:1"] {
            #expect(throws: MediaFailure.self) { try MediaLocation(url: URL(string: scheme)!) }
        }
    }

    @Test func headerValuesCannotAddHeaderLines() {
        var options = NetworkOptions()
        options.headers = ["X-A": "1\r\nX-Injected: yes"]
        #expect(options.headerLines == "X-A: 1X-Injected: yes\r\n")
    }

    @Test func aLocalPlaylistCannotReachTheNetwork() async throws {
        let server = try networkMediaServer()
        defer { server.stop() }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("playhead-local-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let playlist = folder.appendingPathComponent("remote.m3u8")
        let text = String(decoding: Self.playlist(secondSegment: server.url(for: "hls/seg1.ts").absoluteString), as: UTF8.self)
            .replacingOccurrences(of: "\nseg", with: "\n\(server.baseURL.absoluteString)hls/seg")
        try text.write(to: playlist, atomically: true, encoding: .utf8)
        _ = await playUntimed(AVURLAsset(url: playlist))
        #expect(server.requests.isEmpty, "a local playlist made requests: \(server.requests.map(\.path))")
    }

    @Test func aRedirectLoopFailsInsteadOfHanging() async throws {
        let server = try networkMediaServer()
        defer { server.stop() }
        server.setRule(.redirect(to: "/b.mp4"), for: "/a.mp4")
        server.setRule(.redirect(to: "/a.mp4"), for: "/b.mp4")
        let played = await playUntimed(AVURLAsset(url: server.url(for: "a.mp4")))
        #expect(played.item.status == .failed)
        #expect(server.requests.count <= 12, "redirects are bounded: \(server.requests.count)")
    }
}
