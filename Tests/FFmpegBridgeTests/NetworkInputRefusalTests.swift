// Playhead: what the byte-counting shim refuses on network inputs: an https input (or one of
// its segments) redirected to plain http, and playlists or segments larger than their limits.
// The https tests put socat (TLS, self-signed certificate) in front of the loopback server.
import FFmpegBridge
import Foundation
import PlayheadTestSupport
import Testing

@Suite struct NetworkInputRefusalTests {
    /// Opens `location` and reads every packet: the packets read and the failure that ended it
    /// (nil at a clean end).
    static func readAll(_ location: MediaLocation, timeout: Double = 10) -> (packets: Int, failure: MediaFailure?) {
        let demuxer: Demuxer
        do { demuxer = try Demuxer(location: location, timeout: timeout) } catch { return (0, error) }
        var packets = 0
        while true {
            switch demuxer.readPacket() {
            case .packet: packets += 1
            case .endOfFile: return (packets, nil)
            case .failure(let failure): return (packets, failure)
            }
        }
    }

    /// `count` one-second segment lines of a VOD playlist, all pointing at `segment`.
    static func playlist(segments count: Int, segment: String) -> Data {
        var text = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:1\n#EXT-X-MEDIA-SEQUENCE:0\n"
        text.reserveCapacity(count * (segment.count + 20) + 100)
        for _ in 0..<count { text += "#EXTINF:1.000000,\n\(segment)\n" }
        return Data((text + "#EXT-X-ENDLIST\n").utf8)
    }

    // MARK: - https

    @Test func anHTTPSInputPlaysOverTLS() throws {
        let server = try LoopbackHTTPServer(root: try NetworkMedia.folder())
        let tls = try LoopbackTLSFront(for: server)
        defer { tls.stop(); server.stop() }
        let location = try MediaLocation(url: tls.url(for: "progressive.mp4"))
        let context = try FormatContext(location: location, timeout: 10)
        #expect(context.finalLocation == tls.url(for: "progressive.mp4").absoluteString)
        let read = Self.readAll(location)
        #expect(read.failure == nil)
        // 4 s of 25 fps video plus about 173 AAC packets at 44.1 kHz.
        #expect(read.packets > 250, "packets: \(read.packets)")
        #expect(server.requests.contains { $0.path == "/progressive.mp4" })
    }

    @Test func anHTTPSPlaylistPlaysOverTLS() throws {
        let server = try LoopbackHTTPServer(root: try NetworkMedia.folder())
        let tls = try LoopbackTLSFront(for: server)
        defer { tls.stop(); server.stop() }
        let read = Self.readAll(try MediaLocation(url: tls.url(for: "hls/index.m3u8")))
        #expect(read.failure == nil)
        #expect(read.packets > 250, "packets: \(read.packets)")
        let paths = Set(server.requests.map(\.path))
        #expect(paths.isSuperset(of: ["/hls/index.m3u8", "/hls/seg0.ts", "/hls/seg3.ts"]))
    }

    @Test func anHTTPSRedirectToHTTPIsRefusedBeforeItsBodyIsRead() throws {
        let server = try LoopbackHTTPServer(root: try NetworkMedia.folder())
        let tls = try LoopbackTLSFront(for: server)
        defer { server.releaseHolds(); tls.stop(); server.stop() }
        let plain = server.url(for: "progressive.mp4").absoluteString
        server.setRule(.redirect(to: plain), for: "/moved.mp4")
        // The plain-http response stalls after its headers: reading one byte of its body would
        // end in a timeout, not in the refusal.
        server.setRule(.hold(atByte: 0), for: "/progressive.mp4")
        let location = try MediaLocation(url: tls.url(for: "moved.mp4"))
        #expect(throws: MediaFailure.io(detail: "refused redirect from https to http (\(plain))")) {
            _ = try Demuxer(location: location, timeout: 8)
        }
        // On the server's clock: the plain response was dropped long before the 8 s time-out.
        var held: Double?
        for _ in 0..<500 where held == nil {  // the server notices the hang-up within 20 ms
            held = server.requests.last { $0.path == "/progressive.mp4" }?.servedSeconds
            if held == nil { usleep(20_000) }
        }
        #expect(held.map { $0 < 4 } == true, "refused at once, not after the timeout: \(String(describing: held)) s")
        #expect(MediaFailure.io(detail: "refused redirect from https to http (\(plain))").reason.contains("refused redirect from https to http"))
        #expect(server.requests.map(\.path).prefix(2) == ["/moved.mp4", "/progressive.mp4"])
    }

    @Test func anHTTPSPlaylistWhoseSegmentRedirectsToHTTPFails() throws {
        let server = try LoopbackHTTPServer(root: try NetworkMedia.folder())
        let tls = try LoopbackTLSFront(for: server)
        defer { tls.stop(); server.stop() }
        let plain = server.url(for: "hls/seg2.ts").absoluteString
        server.setRule(.redirect(to: plain), for: "/hls/moved2.ts")
        let text = String(decoding: try Data(contentsOf: try NetworkMedia.folder().appendingPathComponent("hls/index.m3u8")), as: UTF8.self)
            .replacingOccurrences(of: "seg2.ts", with: "moved2.ts")
        server.setRule(.content(Data(text.utf8), contentType: "application/vnd.apple.mpegurl"), for: "/hls/redirecting.m3u8")
        let read = Self.readAll(try MediaLocation(url: tls.url(for: "hls/redirecting.m3u8")))
        #expect(read.failure == .io(detail: "refused redirect from https to http (\(plain))"))
        #expect(read.packets > 0, "the first segments played")
        #expect(!server.requests.contains { $0.path == "/hls/seg3.ts" }, "nothing after the refusal")
    }

    // MARK: - Size limits

    @Test func aTopLevelPlaylistOverTheDefaultLimitFails() throws {
        let server = try LoopbackHTTPServer(root: try NetworkMedia.folder())
        defer { server.stop() }
        // About 5 MiB of segment lines.
        let huge = Self.playlist(segments: 200_000, segment: "seg0.ts")
        #expect(huge.count > 5 << 20 - 300_000)
        server.setRule(.content(huge, contentType: "application/vnd.apple.mpegurl"), for: "/hls/huge.m3u8")
        let read = Self.readAll(try MediaLocation(url: server.url(for: "hls/huge.m3u8")))
        #expect(read.failure == .limitExceeded("playlist larger than 4 MiB"))
        #expect(read.failure?.reason == "playlist larger than 4 MiB")
    }

    @Test func aNestedPlaylistOverItsLimitFails() throws {
        let server = try LoopbackHTTPServer(root: try NetworkMedia.folder())
        defer { server.stop() }
        let master = "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=300000,RESOLUTION=320x240\nbig.m3u8\n"
        server.setRule(.content(Data(master.utf8), contentType: "application/vnd.apple.mpegurl"), for: "/hls/master.m3u8")
        server.setRule(
            .content(Self.playlist(segments: 20_000, segment: "seg0.ts"), contentType: "application/vnd.apple.mpegurl"),
            for: "/hls/big.m3u8")
        var options = NetworkOptions()
        options.maximumPlaylistBytes = 64 << 10
        let read = Self.readAll(try MediaLocation(url: server.url(for: "hls/master.m3u8"), network: options))
        #expect(read.failure == .limitExceeded("playlist larger than 64 KiB"))
        #expect(!server.requests.contains { $0.path == "/hls/seg0.ts" }, "no segment of the cut playlist was read")
    }

    @Test func aDASHManifestOverItsLimitFails() throws {
        let folder = try NetworkMedia.folder()
        let server = try LoopbackHTTPServer(root: folder)
        defer { server.stop() }
        let manifest = try String(contentsOf: folder.appendingPathComponent("dash/manifest.mpd"), encoding: .utf8)
        let padded = manifest + "<!--" + String(repeating: "x", count: 100_000) + "-->\n"
        server.setRule(.content(Data(padded.utf8), contentType: "application/dash+xml"), for: "/dash/padded.mpd")
        var options = NetworkOptions()
        options.maximumPlaylistBytes = 64 << 10
        let read = Self.readAll(try MediaLocation(url: server.url(for: "dash/padded.mpd"), network: options))
        #expect(read.failure == .limitExceeded("playlist larger than 64 KiB"))
        // The same manifest under the limit plays.
        let plain = Self.readAll(try MediaLocation(url: server.url(for: "dash/manifest.mpd"), network: options))
        #expect(plain.failure == nil)
        #expect(plain.packets > 250)
    }

    @Test func aPlaylistUnderItsLimitPlays() throws {
        let server = try LoopbackHTTPServer(root: try NetworkMedia.folder())
        defer { server.stop() }
        var options = NetworkOptions()
        options.maximumPlaylistBytes = 64 << 10
        let read = Self.readAll(try MediaLocation(url: server.url(for: "hls/index.m3u8"), network: options))
        #expect(read.failure == nil)
        #expect(read.packets > 250)
    }

    @Test func aSegmentOverItsLimitFails() throws {
        let folder = try NetworkMedia.folder()
        let server = try LoopbackHTTPServer(root: folder)
        defer { server.stop() }
        let sizes = try (0..<4).map {
            try FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent("hls/seg\($0).ts").path)[.size] as! Int
        }
        var options = NetworkOptions()
        options.maximumSegmentBytes = 16 << 10
        #expect(sizes.allSatisfy { $0 > 2 * options.maximumSegmentBytes }, "segments: \(sizes)")
        let read = Self.readAll(try MediaLocation(url: server.url(for: "hls/index.m3u8"), network: options))
        #expect(read.failure == .limitExceeded("segment larger than 16 KiB"))
        // libavformat asks for the next segment early (http_multiple); nothing after that.
        let paths = server.requests.map(\.path)
        #expect(!paths.contains("/hls/seg2.ts") && !paths.contains("/hls/seg3.ts"), "stopped in the first segment: \(paths)")
    }

    @Test func aProgressiveFileIsNotBoundedBySegmentLimits() throws {
        let server = try LoopbackHTTPServer(root: try NetworkMedia.folder())
        defer { server.stop() }
        var options = NetworkOptions()
        options.maximumSegmentBytes = 16 << 10
        options.maximumPlaylistBytes = 16 << 10
        let read = Self.readAll(try MediaLocation(url: server.url(for: "progressive.mp4"), network: options))
        #expect(read.failure == nil)
        #expect(read.packets > 250)
    }

    @Test func limitsAreDescribedInBinaryUnits() {
        #expect(InputRefusal.playlistTooLarge.reason(NetworkOptions()) == "playlist larger than 4 MiB")
        #expect(InputRefusal.segmentTooLarge.reason(NetworkOptions()) == "segment larger than 256 MiB")
    }
}
