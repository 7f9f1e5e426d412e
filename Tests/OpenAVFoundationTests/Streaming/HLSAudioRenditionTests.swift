// Playhead: HLS audio renditions (EXT-X-MEDIA TYPE=AUDIO) streamed by Playhead's own loader
// beside the variants: which renditions and variants it streams (one group every variant names,
// groups per codec, the variants' own sound), and the access log of a played stream. The
// packet-level reading is in HLSAudioRenditionReadingTests.
import FFmpegBridge
import Foundation
import PlayheadTestSupport
import Testing

@testable import OpenAVFoundation

@MainActor
@Suite struct HLSAudioRenditionTests {
    private let base = URL(string: "https://media.example/show/master.m3u8")!

    private func master(_ lines: [String]) throws -> HLSMultivariantPlaylist? {
        let text = (["#EXTM3U"] + lines).joined(separator: "\n")
        guard case .multivariant(let master) = try HLSPlaylist.parse(text, base: base) else { return nil }
        return master
    }

    @Test func theLoaderStreamsTheAudioRenditionsOfTheOneGroupEveryVariantNames() throws {
        let english = #"#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="English",LANGUAGE="en",DEFAULT=YES,AUTOSELECT=YES,URI="en/index.m3u8""#
        let french = #"#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="Français",LANGUAGE="fr",URI="https://cdn.example/fr.m3u8""#
        let variants = [
            #"#EXT-X-STREAM-INF:BANDWIDTH=300000,AUDIO="aud""#, "low.m3u8",
            #"#EXT-X-STREAM-INF:BANDWIDTH=900000,AUDIO="aud""#, "mid.m3u8",
        ]
        let both = try #require(try master([english, french] + variants))
        let renditions = try #require(both.separateAudio)
        #expect(renditions.map(\.name) == ["English", "Français"])
        #expect(renditions.map(\.language) == ["en", "fr"])
        #expect(renditions.map(\.isDefault) == [true, false] && renditions[0].autoselect)
        #expect(renditions.map { $0.url?.absoluteString } == [
            "https://media.example/show/en/index.m3u8", "https://cdn.example/fr.m3u8",
        ])
        // No renditions: nothing beside the variants.
        #expect(try master(variants)?.separateAudio == [])
        // Subtitles alone change nothing.
        let subtitles = #"#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="s",NAME="en",URI="s.m3u8""#
        #expect(try master([subtitles] + variants)?.separateAudio == [])
        // One rendition may be the sound the variants carry in their own bytes (no URI).
        let muxed = #"#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="Main",DEFAULT=YES"#
        let withMuxed = try #require(try master([muxed, french] + variants)?.separateAudio)
        #expect(withMuxed.map(\.name) == ["Main", "Français"] && withMuxed.map { $0.url == nil } == [true, false])
        #expect(try master([muxed] + variants)?.separateAudio?.map(\.name) == ["Main"])
        // Several may be: the variants' several audio streams.
        let muxedToo = #"#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="Commentary""#
        let twoMuxed = try #require(try master([muxed, muxedToo, french] + variants)?.separateAudio)
        #expect(twoMuxed.map(\.name) == ["Main", "Commentary", "Français"])
        #expect(twoMuxed.map { $0.url == nil } == [true, true, false])
        // What libavformat still reads: variants of different groups, video renditions.
        let other = [#"#EXT-X-STREAM-INF:BANDWIDTH=2000000,AUDIO="hi""#, "high.m3u8"]
        #expect(try master([english] + variants + other)?.separateAudio == nil)
        let angle = #"#EXT-X-MEDIA:TYPE=VIDEO,GROUP-ID="v",NAME="Angle",URI="angle.m3u8""#
        #expect(try master([english, angle] + variants)?.separateAudio == nil)
    }

    @Test func ofGroupsByCodecTheFirstIsStreamedWithItsVariants() throws {
        // Apple's authoring rules: every variant listed once per audio group (one per codec).
        let lines = [
            #"#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aac",NAME="English",LANGUAGE="en",DEFAULT=YES,URI="aac/en.m3u8""#,
            #"#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aac",NAME="Français",LANGUAGE="fr",URI="aac/fr.m3u8""#,
            #"#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="ec3",NAME="English",LANGUAGE="en",DEFAULT=YES,URI="ec3/en.m3u8""#,
            #"#EXT-X-STREAM-INF:BANDWIDTH=900000,CODECS="avc1.64001f,ec-3",AUDIO="ec3""#, "mid.m3u8",
            #"#EXT-X-STREAM-INF:BANDWIDTH=400000,CODECS="avc1.64001f,mp4a.40.2",AUDIO="aac""#, "low.m3u8",
            #"#EXT-X-STREAM-INF:BANDWIDTH=800000,CODECS="avc1.64001f,mp4a.40.2",AUDIO="aac""#, "mid.m3u8",
            #"#EXT-X-STREAM-INF:BANDWIDTH=500000,CODECS="avc1.64001f,ec-3",AUDIO="ec3""#, "low.m3u8",
        ]
        let split = try #require(try master(lines))
        let streamed = try #require(split.streamedAudio)
        // The first group the variants name (ec3), with its variants in playlist order.
        #expect(streamed.renditions.map(\.group) == ["ec3"])
        #expect(streamed.variants.map(\.bandwidth) == [900_000, 500_000])
        #expect(streamed.variants.map(\.url.lastPathComponent) == ["mid.m3u8", "low.m3u8"])
        // A group that misses a variant's playlist is passed over for the next.
        let partial = Array(lines[0...8])  // without ec3's low variant
        let aacFirst = try #require(try master(partial)?.streamedAudio)
        #expect(aacFirst.renditions.map(\.name) == ["English", "Français"] && aacFirst.renditions[0].group == "aac")
        #expect(aacFirst.variants.map(\.bandwidth) == [400_000, 800_000])
        // Tiered groups (low variants with one group, high with another) stay with libavformat.
        let tiered = [
            #"#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="lo",NAME="English",URI="lo.m3u8""#,
            #"#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="hi",NAME="English",URI="hi.m3u8""#,
            #"#EXT-X-STREAM-INF:BANDWIDTH=400000,AUDIO="lo""#, "low.m3u8",
            #"#EXT-X-STREAM-INF:BANDWIDTH=2000000,AUDIO="hi""#, "high.m3u8",
        ]
        #expect(try master(tiered)?.streamedAudio == nil)
        // A group whose renditions are the variants' own sound (no URI) is streamed, one or
        // several.
        let main = #"#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="ec3",NAME="Main",DEFAULT=YES"#
        let commentary = #"#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="ec3",NAME="Commentary""#
        #expect(try master([main, lines[0]] + lines[3...10])?.streamedAudio?.renditions.map(\.name) == ["Main"])
        #expect(try master([main, commentary, lines[0]] + lines[3...10])?.streamedAudio?.renditions.map(\.name)
            == ["Main", "Commentary"])
    }

    @Test func theAccessLogCountsEveryRenditionRequestTheServerSaw() async throws {
        let playlist = try SelectionMedia.hlsAudioRenditions.url()
        let folder = playlist.deletingLastPathComponent()
        let server = try LoopbackHTTPServer(root: folder)
        defer { server.stop() }
        let sink = RecordingVideoSink()
        let item = AVPlayerItem(url: server.url(for: playlist.lastPathComponent))
        let player = AVPlayer(environment: untimedEnvironment(sink, audio: true), playerItem: item)
        let log = NotificationLog([AVPlayerItem.didPlayToEndTimeNotification], object: item)
        player.play()
        await waitUntil(timeout: 60, "the end") { log.count(AVPlayerItem.didPlayToEndTimeNotification) == 1 }
        #expect(sink.frames.count == 60, "every picture of the 6 s at 10 fps")
        #expect(item.playbackStatistics.audioSeconds > 5.5, "the default rendition's sound played")
        let served = server.requests.map(\.path).filter { $0.hasSuffix(".ts") }
        #expect(served.contains { $0.hasPrefix("/out_0") } && served.contains { $0.hasPrefix("/out_1") })
        // French, not selected, fetched only what opening its playlist read, not its last segment.
        let french = served.filter { $0.hasPrefix("/out_2") }
        #expect(!french.isEmpty && !french.contains("/out_22.ts"), "\(french)")
        let events = try #require(item.accessLog()?.events, "Playhead's loader streamed it")
        #expect(events.reduce(0) { $0 + $1.numberOfMediaRequests } == served.count)
        let sizes = try served.map { path in
            Int64(try FileManager.default.attributesOfItem(atPath: folder.path + path)[.size] as? Int ?? 0)
        }
        // Within one segment: French's read-ahead at opening may be given up when it is parked
        // (the server sent it whole into the socket; the log counts what arrived).
        let loggedBytes = events.reduce(Int64(0)) { $0 + $1.numberOfBytesTransferred }
        #expect(loggedBytes <= sizes.reduce(0, +) && loggedBytes >= sizes.reduce(0, +) - (sizes.max() ?? 0))
        // The media downloaded is the variant's: 6 s, not counted again for the renditions.
        #expect(abs(events.reduce(0) { $0 + $1.segmentsDownloadedDuration } - 6) < 0.1)
        #expect(item.errorLog()?.events.isEmpty == true)
        player.replaceCurrentItem(with: nil)
    }
}
