// Playhead: an audio-only variant in a ladder with pictures (Apple's low-bandwidth fallback,
// or FFmpeg's listing of an audio rendition as a variant) is never adapted to: the item
// opens on a variant with video and keeps its pictures, however low the start estimate or
// the peak bit rate; `AVAsset.variants` still lists it.
import Foundation
import PlayheadTestSupport
import Testing

@testable import OpenAVFoundation

@MainActor
@Suite struct HLSAudioOnlyVariantTests {
    /// The ladder's three variants and, listed first and lowest, an audio-only one.
    static let master = """
        #EXTM3U
        #EXT-X-STREAM-INF:BANDWIDTH=64000,CODECS="mp4a.40.2"
        fr/index.m3u8
        #EXT-X-STREAM-INF:BANDWIDTH=250000,RESOLUTION=160x90,CODECS="avc1.64001e,mp4a.40.2"
        ladder/low/index.m3u8
        #EXT-X-STREAM-INF:BANDWIDTH=900000,RESOLUTION=320x180,CODECS="avc1.64001e,mp4a.40.2"
        ladder/mid/index.m3u8
        #EXT-X-STREAM-INF:BANDWIDTH=2500000,RESOLUTION=640x360,CODECS="avc1.64001e,mp4a.40.2"
        ladder/high/index.m3u8
        """

    @Test func onlyVariantsWithVideoAreAdaptedOverWhenSomeHaveIt() throws {
        guard case .multivariant(let playlist) = try HLSPlaylist.parse(Self.master, base: URL(string: "https://a.example/m.m3u8")!)
        else { return }
        #expect(playlist.variants.map(\.isAudioOnly) == [true, false, false, false])
        #expect(playlist.variants.adaptedOver.map(\.bandwidth) == [250_000, 900_000, 2_500_000])
        // A radio station's ladder is all audio: kept whole.
        let radio = Array(playlist.variants.prefix(1))
        #expect(radio.adaptedOver.count == 1)
        // Without CODECS nothing is known: kept.
        let unstated = HLSVariant(
            url: URL(string: "https://a.example/x.m3u8")!, bandwidth: 1, averageBandwidth: nil, width: nil, height: nil,
            codecs: nil, audioGroup: nil, subtitleGroup: nil)
        #expect(!unstated.isAudioOnly && !unstated.hasVideo)
        // Subtitle codecs beside the sound change nothing; a size alone is video.
        var captioned = unstated
        captioned = HLSVariant(
            url: unstated.url, bandwidth: 1, averageBandwidth: nil, width: nil, height: nil, codecs: "mp4a.40.2,wvtt",
            audioGroup: nil, subtitleGroup: nil)
        #expect(captioned.isAudioOnly)
        let sized = HLSVariant(
            url: unstated.url, bandwidth: 1, averageBandwidth: nil, width: 320, height: 180, codecs: nil, audioGroup: nil,
            subtitleGroup: nil)
        #expect(sized.hasVideo && [captioned, sized].adaptedOver.count == 1)
    }

    @Test func theItemOpensOnVideoAndKeepsItsPicturesUnderALowPeak() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("audio-only-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createSymbolicLink(
            at: root.appendingPathComponent("ladder"), withDestinationURL: AdaptiveMedia.folder().appendingPathComponent("ladder"))
        try FileManager.default.createSymbolicLink(
            at: root.appendingPathComponent("fr"), withDestinationURL: AdaptiveMedia.frenchAudioFolder().appendingPathComponent("fr"))
        let server = try LoopbackHTTPServer(root: root)
        defer { server.stop() }
        server.setRule(.content(Data(Self.master.utf8), contentType: "application/vnd.apple.mpegurl"), for: "/master.m3u8")
        let asset = AVURLAsset(url: server.url(for: "master.m3u8"))
        let (tracks, variants) = try await asset.load(.tracks, .variants)
        #expect(tracks.contains { $0.mediaType == .video }, "opened on a variant with pictures")
        #expect(variants.count == 4 && variants.filter { $0.videoAttributes == nil }.count == 1, "every variant listed")
        let sink = RecordingVideoSink()
        let item = AVPlayerItem(asset: asset)
        item.preferredPeakBitRate = 100_000
        let player = AVPlayer(environment: untimedEnvironment(sink), playerItem: item)
        let log = NotificationLog([AVPlayerItem.didPlayToEndTimeNotification], object: item)
        player.play()
        await waitUntil(timeout: 30, "the end") { log.count(AVPlayerItem.didPlayToEndTimeNotification) == 1 || item.status == .failed }
        player.replaceCurrentItem(with: nil)
        #expect(sink.distinctMillis().count == Int(AdaptiveMedia.duration) * 25, "every picture, on the lowest video variant")
        #expect(!server.requests.contains { $0.path.hasPrefix("/fr/") && $0.path.hasSuffix(".ts") }, "no audio-only segment")
    }
}

/// Manifests at URLs that do not end in `.m3u8` or `.mpd` (API paths, tokens): told by their
/// first bytes and streamed by Playhead's loader, as AVPlayer tells them by what the server sends.
@MainActor
@Suite struct ManifestSniffingTests {
    @Test func aManifestIsToldByItsFirstBytes() {
        #expect(StreamedOpen.kind(ofStart: Data("#EXTM3U\n#EXT-X-VERSION:3\n".utf8)) == .hls)
        #expect(StreamedOpen.kind(ofStart: Data("\u{FEFF}\r\n#EXTM3U\r\n#EXT-X-STREAM-INF:BANDWIDTH=1\r\n".utf8)) == .hls)
        #expect(StreamedOpen.kind(ofStart: Data("#EXTM3U\n#EXTINF:-1,Radio\nhttp://radio.example/stream\n".utf8)) == .stationList,
            "a plain M3U list")
        #expect(StreamedOpen.kind(ofStart: Data(#"<?xml version="1.0"?><MPD type="static">"#.utf8)) == .dash)
        #expect(StreamedOpen.kind(ofStart: Data([0, 0, 0, 24]) + Data("ftypisom".utf8)) == nil)
        #expect(StreamedOpen.kind(ofStart: Data("<html><body>".utf8)) == nil)
    }

    @Test func aPlaylistAtAPathWithoutItsExtensionIsStreamedByThePlayheadLoader() async throws {
        let server = try LoopbackHTTPServer(root: try AdaptiveMedia.folder())
        defer { server.stop() }
        let master = try String(
            contentsOf: AdaptiveMedia.folder().appendingPathComponent("ladder/master.m3u8"), encoding: .utf8)
        server.setRule(.content(Data(master.utf8), contentType: "application/octet-stream"), for: "/ladder/playlist")
        let played = await playUntimed(AVURLAsset(url: server.url(for: "ladder/playlist")))
        #expect(played.reachedEnd && played.item.error == nil)
        #expect(played.sink.distinctMillis().count == Int(AdaptiveMedia.duration) * 25, "every picture")
        #expect(played.item.accessLog() != nil, "Playhead's loader streamed it")
        // Read once an open (the asset's inspection hands its open to the item), its bytes
        // handed on: a single-use token would be spent once.
        let reads = server.requests.filter { $0.path == "/ladder/playlist" }
        #expect(!reads.isEmpty && reads.count <= 2 && reads.allSatisfy { $0.range == nil }, "\(reads.count) reads")
    }

    @Test func aMediaFileAtAPathWithoutAKnownExtensionIsOpenedByLibavformatAfterItsFirstBytes() async throws {
        let server = try LoopbackHTTPServer(root: try AdaptiveMedia.folder())
        defer { server.stop() }
        let segment = try Data(contentsOf: AdaptiveMedia.folder().appendingPathComponent("ladder/low/seg0.ts"))
        server.setRule(.content(segment, contentType: "application/octet-stream"), for: "/clip")
        let asset = AVURLAsset(url: server.url(for: "clip"))
        let duration = try await asset.load(.duration)
        #expect(duration.seconds > 0.5, "opened as a file: \(duration.seconds) s")
        #expect(try await asset.load(.tracks).contains { $0.mediaType == .video })
    }
}
