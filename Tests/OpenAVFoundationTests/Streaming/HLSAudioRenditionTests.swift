// Playhead: HLS audio renditions (EXT-X-MEDIA TYPE=AUDIO) streamed by Playhead's own loader
// beside the variants, compared with libavformat's HLS reader on the same stream.
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
        // What libavformat still reads: a rendition carried in the variants' own bytes (no
        // URI), variants of different groups, video renditions.
        let muxed = #"#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="Main",DEFAULT=YES"#
        #expect(try master([muxed, french] + variants)?.separateAudio == nil)
        let other = [#"#EXT-X-STREAM-INF:BANDWIDTH=2000000,AUDIO="hi""#, "high.m3u8"]
        #expect(try master([english] + variants + other)?.separateAudio == nil)
        let angle = #"#EXT-X-MEDIA:TYPE=VIDEO,GROUP-ID="v",NAME="Angle",URI="angle.m3u8""#
        #expect(try master([english, angle] + variants)?.separateAudio == nil)
    }

    /// Every packet `demuxer` reads from the start: stream index, decode and presentation
    /// seconds.
    private func packets(of demuxer: Demuxer, limit: Int = 10_000) -> [(stream: Int, dts: Double, pts: Double)] {
        var result: [(Int, Double, Double)] = []
        while result.count < limit, case .packet(let packet) = demuxer.readPacket() {
            result.append((packet.streamIndex, packet.dts.seconds, packet.pts.seconds))
        }
        return result
    }

    @Test func theRenditionsStreamsJoinTheVariantsInDecodeOrderKeepingLibavformatsTiming() throws {
        let playlist = try SelectionMedia.hlsAudioRenditions.url()
        let server = try LoopbackHTTPServer(root: playlist.deletingLastPathComponent())
        defer { server.stop() }
        let opened = try StreamedOpen.demuxer(
            for: MediaLocation(url: server.url(for: playlist.lastPathComponent)), timeout: 15,
            interrupt: InterruptDeadline())
        let demuxer = opened.demuxer
        let loader = try #require(demuxer.streamingInput as? HLSStreamLoader, "Playhead's loader streams it")
        #expect(loader.companions.count == 2)
        let streams = demuxer.description.streams
        #expect(streams.map(\.kind) == [.video, .audio, .audio])
        #expect(streams.map(\.index) == [0, 1, 2])
        #expect(streams.dropFirst().map(\.language) == ["en", "fr"])
        #expect(streams.dropFirst().map(\.title) == ["audio_1", "audio_2"])
        #expect(streams.dropFirst().map(\.isDefault) == [true, false])
        #expect(Set(streams.map(\.trackID)).count == 3, "one track ID each")
        #expect(demuxer.bestStream(of: .audio) == 1, "the default rendition plays")

        let read = packets(of: demuxer)
        // One interleaved stream in decode order across the three sources.
        #expect(zip(read, read.dropFirst()).allSatisfy { $1.dts >= $0.dts - 1e-6 })
        // libavformat's own HLS reader on the same files: the same packets of each stream at
        // the same times relative to the video.
        // (Its streams come in the playlists' order: the renditions' before the variant's.)
        let reference = try Demuxer(location: MediaLocation(url: playlist))
        let expected = packets(of: reference)
        func times(_ list: [(stream: Int, dts: Double, pts: Double)], _ index: Int, from origin: Double) -> [Double] {
            list.filter { $0.stream == index }.map { (($0.pts - origin) * 1000).rounded() / 1000 }
        }
        let theirStreams = reference.description.streams
        let theirVideo = try #require(theirStreams.first { $0.kind == .video }?.index)
        let theirAudio = theirStreams.filter { $0.kind == .audio }.map(\.index)
        #expect(theirAudio.count == 2)
        let origin = read.first { $0.stream == 0 }?.pts ?? 0
        let expectedOrigin = expected.first { $0.stream == theirVideo }?.pts ?? 0
        for (index, theirs) in zip([0, 1, 2], [theirVideo] + theirAudio) {
            let mine = times(read, index, from: origin)
            #expect(!mine.isEmpty)
            #expect(mine == times(expected, theirs, from: expectedOrigin), "stream \(index)")
        }
        #expect(abs(origin) < 0.001, "the item timeline starts at the first picture")

        // A seek starts every source again at the segment holding the target.
        #expect(demuxer.seek(to: CMTime(seconds: 3, preferredTimescale: 1000), earliest: .negativeInfinity, latest: .positiveInfinity))
        let after = packets(of: demuxer, limit: 60)
        for index in 0..<3 {
            let first = try #require(after.first { $0.stream == index }, "stream \(index) after the seek")
            #expect(first.pts >= 1.9 && first.pts <= 2.1, "stream \(index) starts at 2 s: \(first.pts)")
        }
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
        let events = try #require(item.accessLog()?.events, "Playhead's loader streamed it")
        #expect(events.reduce(0) { $0 + $1.numberOfMediaRequests } == served.count)
        let servedBytes = try served.reduce(Int64(0)) { total, path in
            total + Int64(try FileManager.default.attributesOfItem(atPath: folder.path + path)[.size] as? Int ?? 0)
        }
        #expect(events.reduce(Int64(0)) { $0 + $1.numberOfBytesTransferred } == servedBytes)
        // The media downloaded is the variant's: 6 s, not counted again for the renditions.
        #expect(abs(events.reduce(0) { $0 + $1.segmentsDownloadedDuration } - 6) < 0.1)
        #expect(item.errorLog()?.events.isEmpty == true)
        player.replaceCurrentItem(with: nil)
    }
}
