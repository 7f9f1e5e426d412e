// Playhead: HLS WebVTT subtitle renditions: a multivariant playlist with one streams through
// Playhead's own loader, its segments' cues land where their `X-TIMESTAMP-MAP` puts them (after a
// discontinuity, on the new timeline), and a live subtitle playlist is followed as it grows
// until the rendition is no longer wanted.
import FFmpegBridge
import Foundation
import PlayheadTestSupport
import Testing

@testable import OpenAVFoundation

@MainActor
@Suite struct HLSSubtitleRenditionTests {
    /// A WebVTT segment whose cue times are `local` seconds at the media timestamp `ticks`.
    private static func segment(ticks: Int64, local: String, cues: [(String, String, String)]) -> Data {
        var lines = ["WEBVTT", "X-TIMESTAMP-MAP=MPEGTS:\(ticks),LOCAL:\(local)", ""]
        for (start, end, text) in cues { lines += ["\(start) --> \(end)", text, ""] }
        return Data(lines.joined(separator: "\n").utf8)
    }

    /// A subtitle media playlist of `count` segments `seg<N>.vtt` of `seconds` each.
    private static func playlist(count: Int, ended: Bool, seconds: Int = 4) -> Data {
        var lines = ["#EXTM3U", "#EXT-X-VERSION:3", "#EXT-X-TARGETDURATION:\(seconds)", "#EXT-X-MEDIA-SEQUENCE:0"]
        for index in 0..<count { lines += ["#EXTINF:\(seconds).0,", "seg\(index).vtt"] }
        if ended { lines.append("#EXT-X-ENDLIST") }
        return Data((lines.joined(separator: "\n") + "\n").utf8)
    }

    private static let playlistType = "application/vnd.apple.mpegurl"

    /// Serves the adaptive ladder under a master playlist (`subs/master.m3u8`) that adds an
    /// English WebVTT rendition (`subs/en/index.m3u8`); its cues are written ten seconds late
    /// in their own time and mapped back by `X-TIMESTAMP-MAP` onto the media's first timestamp
    /// (`origin` seconds): "Hello world" at 1-2 s, "Second line" at 3-4 s of item time.
    private static func serveRendition(on server: LoopbackHTTPServer, origin: Double) {
        var master = ["#EXTM3U",
            "#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID=\"subs\",NAME=\"English\",LANGUAGE=\"en\",DEFAULT=YES,URI=\"en/index.m3u8\""]
        for variant in AdaptiveMedia.variants {
            master += ["#EXT-X-STREAM-INF:BANDWIDTH=\(variant.bandwidth),RESOLUTION=\(variant.width)x\(variant.height),SUBTITLES=\"subs\"",
                "../ladder/\(variant.name)/index.m3u8"]
        }
        server.setRule(.content(Data((master.joined(separator: "\n") + "\n").utf8), contentType: playlistType), for: "/subs/master.m3u8")
        server.setRule(.content(playlist(count: 3, ended: true), contentType: playlistType), for: "/subs/en/index.m3u8")
        let ticks = Int64((origin * 90_000).rounded())
        let cues = [
            [("00:00:11.000", "00:00:12.000", "Hello world")], [("00:00:13.000", "00:00:14.000", "Second line")], [],
        ]
        for (index, segmentCues) in cues.enumerated() {
            server.setRule(
                .content(segment(ticks: ticks, local: "00:00:10.000", cues: segmentCues), contentType: "text/vtt"),
                for: "/subs/en/seg\(index).vtt")
        }
    }

    @Test func timestampMapsParseAndPlaceCuesOnTheItemTimeline() throws {
        let text = "WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:900000,LOCAL:00:00:00.000\n\n00:01.000 --> 00:02.000\nHi\n"
        let map = try #require(WebVTTTimestampMap.parse(text))
        #expect(map == WebVTTTimestampMap(mpegTicks: 900_000, local: 0))
        // Media starting at 10 s: local 0 is item time 0.
        #expect(abs(map.offset(origin: 10)) < 1e-9)
        // Media starting at 1.4 s: local 0 is 8.6 s into the item.
        #expect(abs(map.offset(origin: 1.4) - 8.6) < 1e-9)
        // LOCAL in mm:ss form, fields in either order.
        let other = try #require(WebVTTTimestampMap.parse("WEBVTT\nX-TIMESTAMP-MAP=LOCAL:01:30.500,MPEGTS:126000\n\n"))
        #expect(other == WebVTTTimestampMap(mpegTicks: 126_000, local: 90.5))
        // A timestamp that wrapped (33 bits) after the media's first one.
        let wrapped = WebVTTTimestampMap(mpegTicks: 90_000, local: 0)
        let origin = Double((Int64(1) << 33) - 90_000) / 90_000
        #expect(abs(wrapped.offset(origin: origin) - 2) < 1e-6)
        // No map, or a map after the header, or a broken one: none.
        #expect(WebVTTTimestampMap.parse("WEBVTT\n\n00:01.000 --> 00:02.000\nX-TIMESTAMP-MAP=MPEGTS:1,LOCAL:00:00.000\n") == nil)
        #expect(WebVTTTimestampMap.parse("WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:x,LOCAL:00:00.000\n\n") == nil)
    }

    @Test func aMultivariantStreamWithASubtitleRenditionPlaysThroughPlayheadsLoaderWithMappedCues() async throws {
        let folder = try AdaptiveMedia.folder()
        let server = try LoopbackHTTPServer(root: folder)
        defer { server.stop() }
        // The media's first timestamp, as the loader's demuxer sees it (the map is made on it).
        Self.serveRendition(on: server, origin: 0)
        let url = server.url(for: "subs/master.m3u8")
        let demuxer = try await Task.detached {
            try StreamedOpen.demuxer(for: MediaLocation(url: url), timeout: 60, interrupt: InterruptDeadline()).demuxer
        }.value
        #expect(demuxer.streamingInput != nil, "Playhead's loader streams it")
        #expect(demuxer.description.subtitleRenditions.map(\.url) == [server.url(for: "subs/en/index.m3u8").absoluteString])
        let origin = demuxer.description.timestampOrigin
        #expect(origin > 0.5, "MPEG-TS from ffmpeg starts late: \(origin)")
        demuxer.streamingInput?.close()
        Self.serveRendition(on: server, origin: origin)

        let group = try #require(try await AVURLAsset(url: url).loadMediaSelectionGroup(for: .legible))
        #expect(group.options.map(\.extendedLanguageTag) == ["en"])
        #expect(group.options.first?.displayName == "English")
        let clock = ManualClock()
        let (player, recorder) = try await MediaSelectionPlaybackTests.playWithSubtitles(url, clock: clock) {
            $0.options.first
        }
        await MediaSelectionPlaybackTests().expectSubRipTiming(player, recorder, clock: clock)
        #expect(player.currentItem?.accessLog()?.events.isEmpty == false, "Playhead's loader logs its transfers")
        player.replaceCurrentItem(with: nil)
    }

    @Test func aLiveSubtitlePlaylistIsFollowedUntilItEndsAndStopsWhenNotWanted() async throws {
        let server = try LoopbackHTTPServer(root: FileManager.default.temporaryDirectory)
        defer { server.stop() }
        let cue = { (start: String, end: String, text: String) in
            Self.segment(ticks: 90_000, local: "00:00:00.000", cues: [(start, end, text)])
        }
        server.setRule(.content(Self.playlist(count: 1, ended: false, seconds: 1), contentType: Self.playlistType), for: "/live/index.m3u8")
        server.setRule(.content(cue("00:00:00.500", "00:00:01.000", "first"), contentType: "text/vtt"), for: "/live/seg0.vtt")
        server.setRule(.content(cue("00:00:04.500", "00:00:05.000", "second"), contentType: "text/vtt"), for: "/live/seg1.vtt")
        let url = server.url(for: "live/index.m3u8")
        let delivered = Locked<[[SubtitleEvent]]>([])
        let wanted = Locked(true)
        // Origin 0: the map's 90 000 ticks put every cue one second later on the item. The
        // playlist grows (and ends) once the first segment's cues are in, so the reader sees
        // the growth on a reload whatever the machine's speed.
        let grown = Self.playlist(count: 2, ended: true, seconds: 1)
        let playlistType = Self.playlistType
        try await offPool {
            HLSSubtitleReader(playlist: url, network: NetworkOptions(), timeout: 30, origin: 0, remote: true).run(
                deliver: { events in
                    let count = delivered.withLock { $0.append(events); return $0.count }
                    guard count == 1 else { return }
                    server.setRule(.content(grown, contentType: playlistType), for: "/live/index.m3u8")
                },
                isWanted: { wanted.withLock { $0 } })
        }
        let starts = delivered.withLock { $0 }.map { $0.map { $0.start.seconds } }
        #expect(starts == [[1.5], [5.5]], "\(starts); the server saw \(server.requests.map(\.path))")
        let playlistLoads = server.requests.filter { $0.path == "/live/index.m3u8" }.count
        #expect(playlistLoads == 2, "one load, one reload that found it grown and ended")

        // Never ending: it reloads until it is no longer wanted, then stops at once.
        server.setRule(.content(Self.playlist(count: 1, ended: false, seconds: 1), contentType: Self.playlistType), for: "/live/index.m3u8")
        server.clearRequests()
        let following = Task {
            try await offPool {
                HLSSubtitleReader(playlist: url, network: NetworkOptions(), timeout: 30, origin: 0, remote: true).run(
                    deliver: { _ in }, isWanted: { wanted.withLock { $0 } })
            }
        }
        await waitUntil(timeout: 120, "two reloads") { server.requests.filter { $0.path == "/live/index.m3u8" }.count >= 2 }
        wanted.withLock { $0 = false }
        try await following.value
        let requests = server.requests.count
        try await Task.sleep(nanoseconds: 300_000_000)
        #expect(server.requests.count == requests, "no request once it is not wanted")
    }

    @Test func afterADiscontinuityOfAnEndedPlaylistCuesFollowTheNewTimelineFromItsPlaylistStart() async throws {
        // 4-second segments; timestamps start again at 1.4 s (126 000 ticks) after the
        // discontinuity, as the media's do (an inserted piece encoded apart).
        let playlist = [
            "#EXTM3U", "#EXT-X-VERSION:3", "#EXT-X-TARGETDURATION:4", "#EXT-X-MEDIA-SEQUENCE:0",
            "#EXTINF:4.0,", "seg0.vtt", "#EXTINF:4.0,", "seg1.vtt", "#EXT-X-DISCONTINUITY",
            "#EXTINF:4.0,", "seg2.vtt", "#EXTINF:4.0,", "seg3.vtt", "#EXT-X-ENDLIST",
        ].joined(separator: "\n") + "\n"
        let server = try LoopbackHTTPServer(root: FileManager.default.temporaryDirectory)
        defer { server.stop() }
        server.setRule(.content(Data(playlist.utf8), contentType: Self.playlistType), for: "/disc/index.m3u8")
        // Segment 3 maps its cue times per segment (LOCAL 4 s at the timestamp 4 s on).
        let segments = [
            Self.segment(ticks: 126_000, local: "00:00:00.000", cues: [("00:00:00.500", "00:00:01.000", "first")]),
            Self.segment(ticks: 126_000, local: "00:00:00.000", cues: [("00:00:04.500", "00:00:05.000", "second")]),
            Self.segment(ticks: 126_000, local: "00:00:00.000", cues: [("00:00:01.000", "00:00:02.000", "third")]),
            Self.segment(ticks: 486_000, local: "00:00:04.000", cues: [("00:00:05.000", "00:00:06.000", "fourth")]),
        ]
        for (index, bytes) in segments.enumerated() {
            server.setRule(.content(bytes, contentType: "text/vtt"), for: "/disc/seg\(index).vtt")
        }
        let url = server.url(for: "disc/index.m3u8")
        let starts = try await offPool {
            var starts: [Double] = []
            HLSSubtitleReader(playlist: url, network: NetworkOptions(), timeout: 30, origin: 1.4, remote: true).run(
                deliver: { starts += $0.map { $0.start.seconds } }, isWanted: { true })
            return starts
        }
        // Before: the map's 1.4 s against the media's first timestamp; after: from 8 s on.
        let expected = [0.5, 4.5, 9.0, 13.0]
        #expect(starts.count == 4 && zip(starts, expected).allSatisfy { abs($0 - $1) < 0.001 }, "\(starts)")
    }

    @Test func aLiveSegmentWaitsUntilTheDemuxerAnchoredItsTimelineAndIsPlacedWhereItWas() async throws {
        func playlist(ended: Bool) -> Data {
            var lines = [
                "#EXTM3U", "#EXT-X-VERSION:3", "#EXT-X-TARGETDURATION:1", "#EXT-X-MEDIA-SEQUENCE:10",
                "#EXT-X-DISCONTINUITY-SEQUENCE:3", "#EXTINF:1.0,", "seg0.vtt", "#EXT-X-DISCONTINUITY",
                "#EXTINF:1.0,", "seg1.vtt",
            ]
            if ended { lines.append("#EXT-X-ENDLIST") }
            return Data((lines.joined(separator: "\n") + "\n").utf8)
        }
        let server = try LoopbackHTTPServer(root: FileManager.default.temporaryDirectory)
        defer { server.stop() }
        server.setRule(.content(playlist(ended: false), contentType: Self.playlistType), for: "/tl/index.m3u8")
        for (index, cue) in [("00:00:00.500", "00:00:01.000", "first"), ("00:00:01.000", "00:00:02.000", "second")]
            .enumerated()
        {
            server.setRule(
                .content(Self.segment(ticks: 126_000, local: "00:00:00.000", cues: [cue]), contentType: "text/vtt"),
                for: "/tl/seg\(index).vtt")
        }
        // The demuxer anchored timeline 3 with the media at 1.4 s on item zero; not 4 yet.
        let offsets = TimelineOffsets()
        offsets.record([3: 1_400_000])
        let url = server.url(for: "tl/index.m3u8")
        let delivered = Locked<[Double]>([])
        let reading = Task {
            try await offPool {
                HLSSubtitleReader(
                    playlist: url, network: NetworkOptions(), timeout: 30, origin: 99, remote: true, timelineOffsets: offsets
                ).run(deliver: { events in delivered.withLock { $0 += events.map { $0.start.seconds } } }, isWanted: { true })
            }
        }
        // Generous limits: only a starved test run is slow here (CI once waited past 20 s for
        // the first cue; the cause, beyond the fetcher's queue fixed in HTTPFetcher, is not found).
        await waitUntil(timeout: 120, "the first timeline's cue") { !delivered.withLock { $0 }.isEmpty }
        await waitUntil(timeout: 120, "two reloads") { server.requests.filter { $0.path == "/tl/index.m3u8" }.count >= 3 }
        #expect(!server.requests.contains { $0.path == "/tl/seg1.vtt" }, "not fetched before its timeline is anchored")
        // Timeline 4's timestamps start again at 1.4 s, which the demuxer put at item 8 s.
        offsets.record([4: -6_600_000])
        server.setRule(.content(playlist(ended: true), contentType: Self.playlistType), for: "/tl/index.m3u8")
        try await reading.value
        let starts = delivered.withLock { $0 }
        #expect(starts.count == 2 && abs(starts[0] - 0.5) < 0.001 && abs(starts[1] - 9.0) < 0.001, "\(starts)")
    }

    @Test func aRemoteStreamsRenditionNeverReadsALocalFileNorLeavesHTTPS() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("subs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Self.playlist(count: 1, ended: true).write(to: folder.appendingPathComponent("index.m3u8"))
        try Self.segment(ticks: 0, local: "00:00:00.000", cues: [("00:00:01.000", "00:00:02.000", "local")])
            .write(to: folder.appendingPathComponent("seg0.vtt"))
        let local = folder.appendingPathComponent("index.m3u8")
        let log = StreamingLog()
        func read(_ url: URL, remote: Bool, secure: Bool = false) async throws -> [String] {
            try await offPool {
                var texts: [String] = []
                HLSSubtitleReader(
                    playlist: url, network: NetworkOptions(), timeout: 60, origin: 0, remote: remote, secure: secure, log: log
                ).run(deliver: { texts += $0.flatMap(\.assLines) }, isWanted: { true })
                return texts
            }
        }
        #expect(try await read(local, remote: false).count == 1, "a local stream's rendition is read")
        #expect(try await read(local, remote: true).isEmpty, "a remote stream's is not")
        let server = try LoopbackHTTPServer(root: folder)
        defer { server.stop() }
        #expect(try await read(server.url(for: "index.m3u8"), remote: true).count == 1)
        #expect(try await read(server.url(for: "index.m3u8"), remote: true, secure: true).isEmpty, "no https to http")
        #expect(server.requests.count == 2, "the refused reading asked nothing")
        // Each refusal leaves an error event in the item's log (when Playhead's loader streams it).
        let refusals = log.errorRecords.map(\.comment)
        #expect(refusals.count == 2 && refusals.allSatisfy { $0.hasPrefix("refused") }, "\(refusals)")
    }
}
