// Playhead: HLS audio renditions read through Playhead's loader by a demuxer, packet by packet:
// the renditions' streams join the variant's, compared with libavformat's HLS reader; groups
// per codec; the variants' own sound named as a rendition; a live rendition. (Not on the main
// actor: these tests block on the network and on reading, which must not hold up the main
// queue the other tests of the parallel pass wait on.)
import FFmpegBridge
import Foundation
import PlayheadTestSupport
import Testing

@testable import OpenAVFoundation

@Suite struct HLSAudioRenditionReadingTests {
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

    @Test func severalRenditionsWithoutAURIAreTheVariantsAudioStreamsPairedByLanguage() throws {
        // Listed French first, the streams English ("eng") first: each rendition names the
        // stream of its language, and the English one, DEFAULT=YES, plays.
        let fixture = try SelectionMedia.hlsTwoCarriedAudioRenditions.url()
        let server = try LoopbackHTTPServer(root: fixture.deletingLastPathComponent())
        defer { server.stop() }
        let opened = try StreamedOpen.demuxer(
            for: MediaLocation(url: server.url(for: fixture.lastPathComponent)), timeout: 15, interrupt: InterruptDeadline())
        let demuxer = opened.demuxer
        let loader = try #require(demuxer.streamingInput as? HLSStreamLoader, "Playhead's loader streams it")
        #expect(loader.companions.isEmpty, "both sounds are in the variant's own bytes")
        let streams = demuxer.description.streams
        #expect(streams.map(\.kind) == [.video, .audio, .audio])
        #expect(streams.dropFirst().map(\.title) == ["English", "Français"])
        #expect(streams.dropFirst().map(\.language) == ["en", "fr"])
        #expect(streams.dropFirst().map(\.isDefault) == [true, false])
        #expect(demuxer.bestStream(of: .audio) == 1, "the DEFAULT=YES rendition plays")
    }

    @Test func renditionsArePairedWithStreamsByLanguageThenInOrder() {
        func rendition(_ name: String, _ language: String?) -> CompanionRendition {
            CompanionRendition(name: name, language: language, isDefault: false)
        }
        let renditions = [rendition("Deutsch", "de"), rendition("Commentary", nil), rendition("English", "en-GB")]
        // ISO 639-2 in either form, or a tag; the rest in order.
        #expect(CompanionRendition.pairing(renditions, withStreamLanguages: ["eng", "spa", "ger"]) == [2, 1, 0])
        #expect(CompanionRendition.pairing(renditions, withStreamLanguages: ["en", nil, "deu"]) == [2, 1, 0])
        // Streams without languages are taken in order; a rendition left over has none.
        #expect(CompanionRendition.pairing(renditions, withStreamLanguages: [nil, nil]) == [0, 1, nil])
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
}
