// Playhead: subtitles in fragmented MP4 segments during playback: a DASH text AdaptationSet of
// IMSC1 (TTML) segments and an HLS subtitle rendition of IMSC1 segments with an `EXT-X-MAP`,
// each showing its cues at their times on a manual clock, over loopback HTTP.
import Foundation
import PlayheadTestSupport
import Testing

@testable import OpenAVFoundation

@MainActor
@Suite struct SegmentedSubtitleTests {
    private typealias Segments = FragmentedTextSegments

    /// Serves, under `/<folder>/`, an initialisation section and three 2 s IMSC1 segments
    /// holding the SubRip cues (1–2 s "Hello world", 3–4 s "Second line") moved by `origin`
    /// seconds, on a 1 kHz timescale.
    private func serveSegments(under folder: String, origin: Double, on server: LoopbackHTTPServer) {
        server.setRule(.content(Segments.initialisation(.ttml, timescale: 1000), contentType: "video/mp4"), for: "/\(folder)/init.mp4")
        let cues: [[(begin: Double, end: Double, text: String)]] = [
            [(origin + 1, origin + 2, "Hello world")], [(origin + 3, origin + 4, "Second line")], [],
        ]
        for (index, documentCues) in cues.enumerated() {
            let segment = Segments.segment(
                sequence: UInt32(index + 1), startTicks: UInt64(((origin + Double(2 * index)) * 1000).rounded()),
                samples: [(2000, Segments.ttml(documentCues))])
            server.setRule(.content(segment, contentType: "video/mp4"), for: "/\(folder)/seg-\(index + 1).m4s")
        }
    }

    @Test func aDASHTextSetOfIMSC1SegmentsShowsItsCuesOnTime() async throws {
        let folder = try DASHMedia.folder()
        let server = try LoopbackHTTPServer(root: folder)
        defer { server.stop() }
        let text = try String(contentsOf: folder.appendingPathComponent("template/manifest.mpd"), encoding: .utf8)
        let set = """
            <AdaptationSet contentType="text" mimeType="application/mp4" codecs="stpp.ttml.im1t" lang="en">
            <Label>English</Label>
            <SegmentTemplate timescale="1000" duration="2000" startNumber="1" initialization="imsc/init.mp4"
              media="imsc/seg-$Number$.m4s"/>
            <Representation id="imsc" bandwidth="2000"/></AdaptationSet>
            </Period>
            """
        let manifest = text.replacingOccurrences(of: "</Period>", with: set)
        #expect(manifest != text)
        server.setRule(.content(Data(manifest.utf8), contentType: "application/dash+xml"), for: "/template/imsc.mpd")
        serveSegments(under: "template/imsc", origin: 0, on: server)
        let url = server.url(for: "template/imsc.mpd")
        let group = try #require(try await AVURLAsset(url: url).loadMediaSelectionGroup(for: .legible))
        #expect(group.options.map(\.extendedLanguageTag) == ["en"])
        #expect(group.options.first?.codecName == "ttml")
        let clock = ManualClock()
        let (player, recorder) = try await MediaSelectionPlaybackTests.playWithSubtitles(url, clock: clock) {
            $0.options.first
        }
        await MediaSelectionPlaybackTests().expectSubRipTiming(player, recorder, clock: clock)
        #expect(server.requests.filter { $0.path == "/template/imsc/init.mp4" }.count == 1)
        #expect(server.requests.contains { $0.path == "/template/imsc/seg-2.m4s" })
        player.replaceCurrentItem(with: nil)
    }

    /// Checks the cues of the two Periods' text sets: "Intro" 1–2 s, "Late" 3.5 s cut at the
    /// introduction's end (4 s), "Programme" 1–2 s into the programme (5–6 s).
    private func expectPeriodCues(_ player: AVPlayer, _ recorder: LegibleRecorder, _ clock: ManualClock) async {
        func reach(_ seconds: Double) async {
            for _ in 0..<2_000 where player.currentTime().seconds < seconds { await advance(clock, by: 0.01) }
        }
        for (time, strings, shownAt) in [
            (1.1, ["Intro"], 1.0), (2.1, [], 2.0), (3.6, ["Late"], 3.5), (4.1, [], 4.0), (5.1, ["Programme"], 5.0),
            (6.1, [], 6.0),
        ] {
            await reach(time)
            await waitUntil("\(strings) at \(time) s") { recorder.last?.strings == strings }
            if let last = recorder.last { #expect(abs(last.time - shownAt) < 0.035, "\(strings): \(last.time) s") }
        }
    }

    @Test func textSetsOfSeveralPeriodsJoinEachPeriodsCuesAtItsStartAndEnd() async throws {
        let folder = try DASHMedia.periodsFolder()
        let server = try LoopbackHTTPServer(root: folder)
        defer { server.stop() }
        // Each Period's text set counts from the Period's start; "Late" runs past the
        // introduction's end (4 s) in its document.
        let set = """
            <AdaptationSet mimeType="application/mp4" codecs="stpp" lang="en">
            <SegmentTemplate timescale="1000" duration="2000" startNumber="1" initialization="text-init.mp4"
              media="text-$Number$.m4s"/>
            <Representation id="text" bandwidth="2000"/></AdaptationSet>
            </Period>
            """
        let manifest = try DASHMedia.periodsManifest(introductionEndingAt: 4).replacingOccurrences(of: "</Period>", with: set)
        server.setRule(.content(Data(manifest.utf8), contentType: "application/dash+xml"), for: "/periods/text.mpd")
        let parts: [(folder: String, segments: [[(begin: Double, end: Double, text: String)]])] = [
            ("intro", [[(1, 2, "Intro")], [(3.5, 4.5, "Late")]]),
            ("programme", [[(1, 2, "Programme")], [], [], []]),
        ]
        for part in parts {
            server.setRule(
                .content(Segments.initialisation(.ttml, timescale: 1000), contentType: "video/mp4"),
                for: "/periods/\(part.folder)/text-init.mp4")
            for (index, cues) in part.segments.enumerated() {
                // The introduction's last sample claims a second past the Period's end.
                let duration: UInt32 = part.folder == "intro" && index == 1 ? 3000 : 2000
                let segment = Segments.segment(
                    sequence: UInt32(index + 1), startTicks: UInt64(2000 * index), samples: [(duration, Segments.ttml(cues))])
                server.setRule(.content(segment, contentType: "video/mp4"), for: "/periods/\(part.folder)/text-\(index + 1).m4s")
            }
        }
        let url = server.url(for: "periods/text.mpd")
        let clock = ManualClock()
        let (player, recorder) = try await MediaSelectionPlaybackTests.playWithSubtitles(url, clock: clock) {
            $0.options.first
        }
        await expectPeriodCues(player, recorder, clock)
        player.replaceCurrentItem(with: nil)
    }

    /// Each Period's text set one whole file (WebVTT, TTML, or WebVTT then TTML), timed from its
    /// Period's start: joined as segmented sets are, "Late" cut at the introduction's end.
    @Test(arguments: ["webvtt", "ttml", "mixed"])
    func wholeTextFilesOfSeveralPeriodsJoinEachPeriodsCuesAtItsStartAndEnd(_ codec: String) async throws {
        let folder = try DASHMedia.periodsFolder()
        let server = try LoopbackHTTPServer(root: folder)
        defer { server.stop() }
        // The introduction's codec, then the programme's.
        let codecs = codec == "mixed" ? ["webvtt", "ttml"] : [codec, codec]
        func kind(_ codec: String) -> (mime: String, name: String) {
            codec == "ttml" ? ("application/ttml+xml", "subs.ttml") : ("text/vtt", "subs.vtt")
        }
        var manifest = try DASHMedia.periodsManifest(introductionEndingAt: 4)
        for periodCodec in codecs {
            let set = """
                <AdaptationSet mimeType="\(kind(periodCodec).mime)" lang="en">
                <Representation id="text" bandwidth="2000"><BaseURL>\(kind(periodCodec).name)</BaseURL></Representation>
                </AdaptationSet></PeriodDone>
                """
            let end = try #require(manifest.range(of: "</Period>"))
            manifest.replaceSubrange(end, with: set)
        }
        manifest = manifest.replacingOccurrences(of: "</PeriodDone>", with: "</Period>")
        server.setRule(.content(Data(manifest.utf8), contentType: "application/dash+xml"), for: "/periods/whole.mpd")
        func file(_ codec: String, _ cues: [(begin: String, end: String, text: String)]) -> Data {
            if codec == "ttml" {
                let paragraphs = cues.map { #"<p begin="\#($0.begin)" end="\#($0.end)">\#($0.text)</p>"# }.joined()
                return Data(#"<?xml version="1.0"?><tt xmlns="http://www.w3.org/ns/ttml"><body><div>\#(paragraphs)</div></body></tt>"#.utf8)
            }
            return Data(("WEBVTT\n\n" + cues.map { "\($0.begin) --> \($0.end)\n\($0.text)\n\n" }.joined()).utf8)
        }
        server.setRule(
            .content(
                file(codecs[0], [("00:00:01.000", "00:00:02.000", "Intro"), ("00:00:03.500", "00:00:04.500", "Late")]),
                contentType: kind(codecs[0]).mime),
            for: "/periods/intro/\(kind(codecs[0]).name)")
        server.setRule(
            .content(file(codecs[1], [("00:00:01.000", "00:00:02.000", "Programme")]), contentType: kind(codecs[1]).mime),
            for: "/periods/programme/\(kind(codecs[1]).name)")
        let clock = ManualClock()
        let (player, recorder) = try await MediaSelectionPlaybackTests.playWithSubtitles(
            server.url(for: "periods/whole.mpd"), clock: clock
        ) { $0.options.first { $0.extendedLanguageTag == "en" } }
        await expectPeriodCues(player, recorder, clock)
        player.replaceCurrentItem(with: nil)
        #expect(server.requests.filter { $0.path == "/periods/intro/\(kind(codecs[0]).name)" }.count == 1)
    }

    @Test func aDASHTextSetOfOneIndexedWebVTTFileShowsItsCuesOnTime() async throws {
        let folder = try DASHMedia.folder()
        let server = try LoopbackHTTPServer(root: folder)
        defer { server.stop() }
        // WebVTT boxes in one file indexed by its sidx: 2 s segments, each a sample of nothing
        // before the cue, the cue, and nothing after it.
        let samples: [[(duration: UInt32, bytes: Data)]] = [
            [(1000, Segments.emptyWebVTTSample), (1000, Segments.webVTTCue("Hello world"))],
            [(1000, Segments.emptyWebVTTSample), (1000, Segments.webVTTCue("Second line"))],
            [(2000, Segments.emptyWebVTTSample)],
        ]
        var ticks: UInt64 = 0
        var segments: [(duration: UInt32, bytes: Data)] = []
        for (index, segmentSamples) in samples.enumerated() {
            segments.append((2000, Segments.segment(sequence: UInt32(index + 1), startTicks: ticks, samples: segmentSamples)))
            ticks += 2000
        }
        let indexed = Segments.indexedFile(
            initialisation: Segments.initialisation(.webVTT, timescale: 1000), timescale: 1000, segments: segments)
        server.setRule(.content(indexed.file, contentType: "video/mp4"), for: "/template/vtt/subs.mp4")
        let text = try String(contentsOf: folder.appendingPathComponent("template/manifest.mpd"), encoding: .utf8)
        let set = """
            <AdaptationSet contentType="text" mimeType="application/mp4" codecs="wvtt" lang="en">
            <Representation id="vtt" bandwidth="2000"><BaseURL>vtt/subs.mp4</BaseURL>
            <SegmentBase indexRange="\(indexed.index.lowerBound)-\(indexed.index.upperBound - 1)">
            <Initialization range="0-\(indexed.initialisation.upperBound - 1)"/></SegmentBase>
            </Representation></AdaptationSet>
            </Period>
            """
        let manifest = text.replacingOccurrences(of: "</Period>", with: set)
        #expect(manifest != text)
        server.setRule(.content(Data(manifest.utf8), contentType: "application/dash+xml"), for: "/template/indexed-vtt.mpd")
        let url = server.url(for: "template/indexed-vtt.mpd")
        let group = try #require(try await AVURLAsset(url: url).loadMediaSelectionGroup(for: .legible))
        #expect(group.options.map(\.codecName) == ["webvtt"])
        let clock = ManualClock()
        let (player, recorder) = try await MediaSelectionPlaybackTests.playWithSubtitles(url, clock: clock) {
            $0.options.first
        }
        await MediaSelectionPlaybackTests().expectSubRipTiming(player, recorder, clock: clock)
        #expect(server.requests.contains { $0.path == "/template/vtt/subs.mp4" })
        player.replaceCurrentItem(with: nil)
    }

    @Test func anHLSRenditionOfIMSC1SegmentsShowsItsCuesOnTheMediasTimeline() async throws {
        let master = try SelectionMedia.hlsWithSubtitles.url()
        let root = master.deletingLastPathComponent().deletingLastPathComponent()
        let server = try LoopbackHTTPServer(root: root)
        defer { server.stop() }
        // The MPEG-TS video's timestamps start where FFmpeg's muxer put them; the IMSC1 track's
        // are on the same timeline.
        let origin = try FFprobe.startTime(of: master.deletingLastPathComponent().appendingPathComponent("out_00.ts"))
        let playlist = [
            "#EXTM3U", "#EXT-X-VERSION:7", "#EXT-X-TARGETDURATION:2", "#EXT-X-PLAYLIST-TYPE:VOD",
            #"#EXT-X-MAP:URI="init.mp4""#, "#EXTINF:2,", "seg-1.m4s", "#EXTINF:2,", "seg-2.m4s", "#EXTINF:2,", "seg-3.m4s",
            "#EXT-X-ENDLIST",
        ].joined(separator: "\n")
        server.setRule(.content(Data(playlist.utf8), contentType: "application/vnd.apple.mpegurl"), for: "/imsc/subs.m3u8")
        let multivariant = [
            "#EXTM3U",
            #"#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="English",LANGUAGE="en",AUTOSELECT=YES,URI="imsc/subs.m3u8""#,
            #"#EXT-X-STREAM-INF:BANDWIDTH=400000,SUBTITLES="subs""#, "hls/out_0.m3u8",
        ].joined(separator: "\n")
        server.setRule(.content(Data(multivariant.utf8), contentType: "application/vnd.apple.mpegurl"), for: "/imsc.m3u8")
        serveSegments(under: "imsc", origin: origin, on: server)
        let url = server.url(for: "imsc.m3u8")
        let clock = ManualClock()
        let (player, recorder) = try await MediaSelectionPlaybackTests.playWithSubtitles(url, clock: clock) {
            $0.options.first { $0.extendedLanguageTag == "en" }
        }
        await MediaSelectionPlaybackTests().expectSubRipTiming(player, recorder, clock: clock)
        #expect(server.requests.filter { $0.path == "/imsc/init.mp4" }.count == 1)
        player.replaceCurrentItem(with: nil)
    }
}
