// Playhead: still pictures of an HLS stream from its I-frame playlists. The playlists as
// values, then an image generator on a loopback server: a request that allows a keyframe is
// one byte range of a segment (and the tables before it), its picture the same as that
// keyframe decoded from its whole segment; the size limit picks the I-frame playlist;
// an exact request and a stream without I-frame playlists take the demuxer's path.
import Foundation
import PlayheadTestSupport
import Testing

@testable import OpenAVFoundation

@Suite struct HLSIFramePlaylistTests {
    private let base = URL(string: "https://example.com/show/master.m3u8")!

    @Test func iFrameStreamsAndTheirKeyframesAreRead() throws {
        let text = """
            #EXTM3U
            #EXT-X-STREAM-INF:BANDWIDTH=800000,RESOLUTION=640x360
            360.m3u8
            #EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=90000,RESOLUTION=640x360,CODECS="avc1.64001e",URI="360-iframes.m3u8"
            #EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=40000,RESOLUTION=320x180,URI="180-iframes.m3u8"
            #EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=10000,RESOLUTION=320x180
            """
        guard case .multivariant(let master) = try HLSPlaylist.parse(text, base: base) else {
            Issue.record("not a multivariant playlist")
            return
        }
        #expect(master.variants.count == 1, "an I-frame stream is not a variant to play")
        #expect(master.iFrameVariants.map(\.url.lastPathComponent) == ["360-iframes.m3u8", "180-iframes.m3u8"], "one without a URI is dropped")
        #expect(master.iFrameVariants.map(\.bandwidth) == [90_000, 40_000])
        #expect(master.iFrameVariants.first?.codecs == "avc1.64001e")
        // The smallest covering the limit, else the largest.
        #expect(HLSIFrameVariant.best(of: master.iFrameVariants, forAtMost: (160, 0))?.width == 320)
        #expect(HLSIFrameVariant.best(of: master.iFrameVariants, forAtMost: (480, 270))?.width == 640)
        #expect(HLSIFrameVariant.best(of: master.iFrameVariants, forAtMost: (1920, 1080))?.width == 640)
        #expect(HLSIFrameVariant.best(of: master.iFrameVariants, forAtMost: nil)?.width == 640)
        #expect(HLSIFrameVariant.best(of: [], forAtMost: nil) == nil)

        let iFrames = """
            #EXTM3U
            #EXT-X-TARGETDURATION:1
            #EXT-X-I-FRAMES-ONLY
            #EXT-X-MAP:URI="seg0.ts",BYTERANGE="564@0"
            #EXTINF:1.0,
            #EXT-X-BYTERANGE:9000@564
            seg0.ts
            #EXTINF:1.0,
            #EXT-X-BYTERANGE:8000@120000
            seg0.ts
            #EXT-X-ENDLIST
            """
        guard case .media(let list) = try HLSPlaylist.parse(iFrames, base: base) else {
            Issue.record("not a media playlist")
            return
        }
        #expect(list.isIFramesOnly)
        #expect(list.segments.map(\.start) == [0, 1])
        #expect(list.segments.map(\.byteRange) == [564..<9564, 120_000..<128_000])
        #expect(list.segments.first?.map?.byteRange == 0..<564)
        guard case .media(let plain) = try HLSPlaylist.parse(iFrames.replacingOccurrences(of: "#EXT-X-I-FRAMES-ONLY\n", with: ""), base: base)
        else { return }
        #expect(!plain.isIFramesOnly)
    }
}

@Suite struct HLSIFramePicturesTests {
    /// The segment requests `server` saw: path and `Range` header.
    private func segmentRequests(_ server: LoopbackHTTPServer, from start: Int = 0) -> [(path: String, range: String?)] {
        server.requests.dropFirst(start).filter { $0.path.hasSuffix(".ts") }.map { ($0.path, $0.range) }
    }

    /// Clear, and encrypted whole with AES-128 (each range decrypted from the block before it).
    @Test(arguments: [false, true])
    func aKeyframePictureIsOneByteRangeAndMatchesTheExactDecode(encrypted: Bool) async throws {
        let folder = try encrypted ? IFramePlaylistMedia.encryptedFolder() : IFramePlaylistMedia.folder()
        let server = try LoopbackHTTPServer(root: folder)
        defer { server.stop() }
        let url = server.url(for: "master.m3u8")
        let generator = AVAssetImageGenerator(asset: AVURLAsset(url: url))
        // Default tolerances: the keyframe at or before each time.
        let asked = [0.4, 2.5, 5.2, 7.9]
        var pictures: [(CGImage, Double)] = []
        for seconds in asked {
            let (image, actual) = try await generator.image(at: CMTime(seconds: seconds, preferredTimescale: 600))
            pictures.append((image, actual.seconds))
        }
        #expect(pictures.map(\.1) == [0, 2, 5, 7], "the keyframes before the times")
        // Without a size limit, the largest I-frame playlist's pictures.
        #expect(pictures.allSatisfy { $0.0.width == 640 && $0.0.height == 360 })
        let fetched = segmentRequests(server)
        #expect(fetched.count == 5, "the tables once, then one range per picture: \(fetched)")
        #expect(fetched.allSatisfy { $0.path.hasPrefix("/large/") && $0.range != nil }, "\(fetched)")
        #expect(!server.requests.contains { $0.path.hasSuffix("index.m3u8") }, "no variant playlist read")
        // The keyframe as ffmpeg decodes it from its whole segment, read from disk.
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("iframes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        for (image, time) in pictures {
            let index = Int(time / IFramePlaylistMedia.segmentDuration)
            let within = Int((time - Double(index) * IFramePlaylistMedia.segmentDuration) / IFramePlaylistMedia.keyframeInterval)
            let keyframes = scratch.appendingPathComponent("seg\(index)-%d.png")
            try GeneratedMedia.runFFmpeg([
                "-skip_frame", "nokey", "-f", "mpegts",
                "-i", folder.appendingPathComponent("large/seg\(index).ts" + (encrypted ? ".clear" : "")).path,
                "-vsync", "0", "-y", keyframes.path,
            ])
            let ours = scratch.appendingPathComponent("ours-\(time).png")
            try image.write(to: ours)
            let reference = scratch.appendingPathComponent("seg\(index)-\(within + 1).png")
            let psnr = try GeneratedMedia.psnr(ours, reference)
            #expect(psnr >= 35, "PSNR \(psnr) dB at \(time) s")
        }
    }

    @Test func aMasterAtAPathWithoutItsExtensionStillGivesKeyframePictures() async throws {
        let folder = try IFramePlaylistMedia.folder()
        let server = try LoopbackHTTPServer(root: folder)
        defer { server.stop() }
        let master = try Data(contentsOf: folder.appendingPathComponent("master.m3u8"))
        server.setRule(.content(master, contentType: "application/octet-stream"), for: "/stream")
        let generator = AVAssetImageGenerator(asset: AVURLAsset(url: server.url(for: "stream")))
        let (_, actual) = try await generator.image(at: CMTime(seconds: 2.5, preferredTimescale: 600))
        #expect(actual.seconds == 2, "the keyframe before, from the I-frame playlist")
        #expect(server.requests.contains { $0.path.hasSuffix("iframes.m3u8") })
    }

    @Test func theSizeLimitPicksTheSmallestPlaylistThatFillsItAndAToleranceIsKept() async throws {
        let server = try LoopbackHTTPServer(root: try IFramePlaylistMedia.folder())
        defer { server.stop() }
        let generator = AVAssetImageGenerator(asset: AVURLAsset(url: server.url(for: "master.m3u8")))
        generator.maximumSize = CGSize(width: 200, height: 0)
        generator.requestedTimeToleranceBefore = CMTime(seconds: 0.2, preferredTimescale: 600)
        generator.requestedTimeToleranceAfter = CMTime(seconds: 0.3, preferredTimescale: 600)
        // 3.8 s: the keyframe at 4 s lies within the tolerance after.
        let (image, actual) = try await generator.image(at: CMTime(seconds: 3.8, preferredTimescale: 600))
        #expect(actual.seconds == 4)
        #expect(image.width == 200 && image.height == 113)
        let fetched = segmentRequests(server)
        #expect(!fetched.isEmpty && fetched.allSatisfy { $0.path.hasPrefix("/small/") && $0.range != nil }, "\(fetched)")
        // 2.5 s: no keyframe within 0.2 s before or 0.3 s after: decoded from the stream.
        let before = server.requests.count
        let (_, between) = try await generator.image(at: CMTime(seconds: 2.5, preferredTimescale: 600))
        #expect(abs(between.seconds - 2.5) <= 0.3, "\(between.seconds)")
        #expect(server.requests.dropFirst(before).contains { $0.path.hasSuffix("/index.m3u8") }, "the stream read")
    }
}
