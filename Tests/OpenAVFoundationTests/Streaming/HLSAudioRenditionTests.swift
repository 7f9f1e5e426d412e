// Playhead: HLS audio renditions (EXT-X-MEDIA TYPE=AUDIO) streamed by Playhead's own loader
// beside the variants, compared with libavformat's HLS reader on the same stream; groups per
// codec, the variants' own sound named as a rendition, and a live rendition.
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
        // What libavformat still reads: several renditions carried in the variants' bytes,
        // variants of different groups, video renditions.
        let muxedToo = #"#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="Commentary""#
        #expect(try master([muxed, muxedToo, french] + variants)?.separateAudio == nil)
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
        // A group one of whose renditions is the variants' own sound (no URI) is streamed;
        // one with two such renditions is passed over.
        let main = #"#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="ec3",NAME="Main",DEFAULT=YES"#
        let commentary = #"#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="ec3",NAME="Commentary""#
        #expect(try master([main, lines[0]] + lines[3...10])?.streamedAudio?.renditions.map(\.name) == ["Main"])
        #expect(try master([main, commentary, lines[0]] + lines[3...10])?.streamedAudio?.renditions.map(\.group) == ["aac"])
    }

    @Test func aStreamWithTwoAudioGroupsPlaysTheFirstCompleteGroupThroughPlayheadsLoader() throws {
        // The fixture's files under a playlist that lists its one variant once per group: a
        // group of both languages, then a group of French alone.
        let fixture = try SelectionMedia.hlsAudioRenditions.url()
        let folder = fixture.deletingLastPathComponent()
        let text = [
            "#EXTM3U",
            #"#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="both",NAME="English",LANGUAGE="en",DEFAULT=YES,AUTOSELECT=YES,URI="out_1.m3u8""#,
            #"#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="both",NAME="Français",LANGUAGE="fr",URI="out_2.m3u8""#,
            #"#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="fr",NAME="Français",LANGUAGE="fr",DEFAULT=YES,URI="out_2.m3u8""#,
            #"#EXT-X-STREAM-INF:BANDWIDTH=300000,AUDIO="both""#, "out_0.m3u8",
            #"#EXT-X-STREAM-INF:BANDWIDTH=290000,AUDIO="fr""#, "out_0.m3u8",
        ].joined(separator: "\n") + "\n"
        let split = folder.appendingPathComponent("split-groups.m3u8")
        try Data(text.utf8).write(to: split, options: .atomic)
        let server = try LoopbackHTTPServer(root: folder)
        defer { server.stop() }
        let opened = try StreamedOpen.demuxer(
            for: MediaLocation(url: server.url(for: split.lastPathComponent)), timeout: 15,
            interrupt: InterruptDeadline())
        let demuxer = opened.demuxer
        let loader = try #require(demuxer.streamingInput as? HLSStreamLoader, "Playhead's loader streams it")
        #expect(loader.variants.map(\.bandwidth) == [300_000], "the first group's one variant")
        #expect(loader.companions.count == 2)
        let streams = demuxer.description.streams
        #expect(streams.map(\.kind) == [.video, .audio, .audio])
        #expect(streams.dropFirst().map(\.language) == ["en", "fr"])
        #expect(demuxer.bestStream(of: .audio) == 1, "the group's default plays")
        let read = packets(of: demuxer)
        for index in 0..<3 {
            let times = read.filter { $0.stream == index }.map(\.pts)
            #expect(times.count > 50 && (times.max() ?? 0) > 5.5, "stream \(index) plays to the end")
        }
    }

    @Test(arguments: [false, true])
    func theVariantsOwnSoundIsTheRenditionWithoutAURI(frenchIsDefault: Bool) throws {
        let fixture = try SelectionMedia.hlsMuxedAudioRendition.url()
        let folder = fixture.deletingLastPathComponent()
        var name = fixture.lastPathComponent
        if frenchIsDefault {
            let text = try String(contentsOf: fixture, encoding: .utf8)
                .replacingOccurrences(of: "DEFAULT=YES,", with: "")
                .replacingOccurrences(of: #"LANGUAGE="fr","#, with: #"LANGUAGE="fr",DEFAULT=YES,"#)
            name = "muxed-audio-fr-default.m3u8"
            try Data(text.utf8).write(to: folder.appendingPathComponent(name), options: .atomic)
        }
        let server = try LoopbackHTTPServer(root: folder)
        defer { server.stop() }
        let opened = try StreamedOpen.demuxer(
            for: MediaLocation(url: server.url(for: name)), timeout: 15, interrupt: InterruptDeadline())
        let demuxer = opened.demuxer
        let loader = try #require(demuxer.streamingInput as? HLSStreamLoader, "Playhead's loader streams it")
        #expect(loader.companions.count == 1, "a loader for the French playlist alone")
        let streams = demuxer.description.streams
        #expect(streams.map(\.kind) == [.video, .audio, .audio])
        // The variant's sound is named by its rendition.
        #expect(streams.dropFirst().map(\.title) == ["English", "Français"])
        #expect(streams.dropFirst().map(\.language) == ["en", "fr"])
        #expect(streams.dropFirst().map(\.isDefault) == [!frenchIsDefault, frenchIsDefault])
        #expect(demuxer.bestStream(of: .audio) == (frenchIsDefault ? 2 : 1), "the DEFAULT=YES rendition plays")
        let read = packets(of: demuxer)
        for index in 0..<3 {
            let times = read.filter { $0.stream == index }.map(\.pts)
            #expect(times.count > 50 && (times.max() ?? 0) > 5.5, "stream \(index) plays to the end")
        }
        // Both sounds on one timeline: their first packets within one AAC frame.
        let firsts = (1...2).compactMap { index in read.first { $0.stream == index }?.pts }
        #expect(firsts.count == 2 && abs(firsts[0] - firsts[1]) < 0.03, "\(firsts)")
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
        // Every sound packet after the seek has its time, one AAC frame after the one before
        // (the fresh containers of a restart do not know the frame size the opening one probed).
        for index in 1..<3 {
            let times = after.filter { $0.stream == index }.map(\.pts)
            #expect(times.count > 5 && times.allSatisfy(\.isFinite), "stream \(index): \(times)")
            #expect(zip(times, times.dropFirst()).allSatisfy { abs($1 - $0 - 1024.0 / 48000) < 0.001 }, "stream \(index): \(times)")
        }
    }

    // A live playlist grows with the wall clock: this runs in the real-time pass.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["PLAYHEAD_REALTIME_TESTS"] != nil))
    func aLiveAudioRenditionFollowsItsWindowBesideTheVariantsInRealTime() throws {
        let server = try LoopbackHTTPServer(root: try AdaptiveMedia.folder())
        defer { server.stop() }
        // Segments 2...5 listed; the stream starts three target durations from the end, seg3.
        let live = LiveLadder(
            server: server, window: 4, published: 6, frenchAudio: try AdaptiveMedia.frenchAudioFolder(),
            frenchIsDefault: true)
        defer { live.stop() }
        let opened = try StreamedOpen.demuxer(
            for: MediaLocation(url: server.url(for: "live/master.m3u8")), timeout: 15, interrupt: InterruptDeadline())
        let demuxer = opened.demuxer
        let loader = try #require(demuxer.streamingInput as? HLSStreamLoader, "Playhead's loader streams it")
        #expect(loader.isLive && loader.companions.count == 1)
        let streams = demuxer.description.streams
        #expect(streams.map(\.kind) == [.video, .audio, .audio])
        #expect(streams.dropFirst().map(\.title) == ["English", "Français"])
        #expect(demuxer.bestStream(of: .audio) == 2, "the French rendition is the default")
        live.grow(every: 0.5, ending: true)
        let read = packets(of: demuxer, limit: 20_000)
        // Pictures and both sounds run on one timeline (the first window's start at zero) from
        // the start segment to the last published.
        for index in 0..<3 {
            let times = read.filter { $0.stream == index }.map(\.pts)
            #expect(!times.isEmpty && times.allSatisfy(\.isFinite), "stream \(index)")
            let decode = read.filter { $0.stream == index }.map(\.dts)
            #expect(zip(decode, decode.dropFirst()).allSatisfy { $1 > $0 }, "stream \(index) in decode order")
            #expect(abs((times.min() ?? -1) - 1) < 0.1, "stream \(index) starts with seg3: \(times.min() ?? -1)")
            #expect((times.max() ?? 0) > 9.9, "stream \(index) ends with seg11: \(times.max() ?? 0)")
        }
        // The French playlist followed the window: each of its segments fetched once, in order.
        let prefix = "/live/fr/seg"
        let french = server.requests.map(\.path).filter { $0.hasPrefix(prefix) }
            .compactMap { Int($0.dropFirst(prefix.count).dropLast(3)) }
        #expect(french == Array(3...11), "\(french)")
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
