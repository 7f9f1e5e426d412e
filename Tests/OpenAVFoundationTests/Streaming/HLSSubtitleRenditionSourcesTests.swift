// Playhead: where an HLS subtitle rendition's cues come from, beyond a plain WebVTT playlist:
// segments encrypted with AES-128 (`EXT-X-KEY`), decrypted with their key as the media's are;
// and a backup stream's own copy of the subtitle group (Apple's authoring guidance has backup
// streams name renditions on their own server), which keeps the backup a backup and offers
// no second English.
import Foundation
import PlayheadTestSupport
import Testing

@testable import OpenAVFoundation

@MainActor
@Suite struct HLSSubtitleRenditionSourcesTests {
    /// The selection fixture's variant and its English WebVTT rendition (`subs`), and a backup
    /// of both on "another server" (the same files asked for with `?copy=b`), `subs-b`.
    static let masterWithBackup = """
        #EXTM3U
        #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="English",LANGUAGE="en",AUTOSELECT=YES,URI="hls/out_0_vtt.m3u8"
        #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs-b",NAME="English",LANGUAGE="en",AUTOSELECT=YES,URI="hls/out_0_vtt.m3u8?copy=b"
        #EXT-X-STREAM-INF:BANDWIDTH=75900,RESOLUTION=160x120,CODECS="avc1.42c00a,mp4a.40.2",SUBTITLES="subs"
        hls/out_0.m3u8
        #EXT-X-STREAM-INF:BANDWIDTH=75900,RESOLUTION=160x120,CODECS="avc1.42c00a,mp4a.40.2",SUBTITLES="subs-b"
        hls/out_0.m3u8?copy=b
        """

    @Test func aBackupsOwnSubtitleGroupKeepsItABackupAndOffersNoSecondChoice() throws {
        let base = URL(string: "https://media.example/show/master.m3u8")!
        guard case .multivariant(let playlist) = try HLSPlaylist.parse(Self.masterWithBackup, base: base) else {
            Issue.record("not a multivariant playlist")
            return
        }
        #expect(playlist.variants.count == 1, "one variant to adapt over")
        #expect(playlist.variants.first?.subtitleGroup == "subs")
        #expect(playlist.variants.first?.backups.map(\.absoluteString) == ["https://media.example/show/hls/out_0.m3u8?copy=b"])
        let text = playlist.keepingSubtitleGroupsItsVariantsName(Self.masterWithBackup)
        #expect(text.components(separatedBy: "TYPE=SUBTITLES").count == 2, "one English")
        #expect(text.contains(#"GROUP-ID="subs","#) && !text.contains(#"GROUP-ID="subs-b""#))
        // A group that is no copy (another language) keeps the variants and the choices apart.
        let other = Self.masterWithBackup.replacingOccurrences(
            of: #"GROUP-ID="subs-b",NAME="English",LANGUAGE="en""#, with: #"GROUP-ID="subs-b",NAME="Deutsch",LANGUAGE="de""#)
        guard case .multivariant(let apart) = try HLSPlaylist.parse(other, base: base) else { return }
        #expect(apart.variants.count == 2)
        #expect(apart.keepingSubtitleGroupsItsVariantsName(other).components(separatedBy: "TYPE=SUBTITLES").count == 3)
    }

    @Test func aBackupsSubtitleCopyIsNoSecondOptionAndTheFirstsCuesShowOnTime() async throws {
        let master = try SelectionMedia.hlsWithSubtitles.url()
        let server = try LoopbackHTTPServer(root: master.deletingLastPathComponent().deletingLastPathComponent())
        defer { server.stop() }
        server.setRule(
            .content(Data(Self.masterWithBackup.utf8), contentType: "application/vnd.apple.mpegurl"), for: "/backed.m3u8")
        let url = server.url(for: "backed.m3u8")
        let group = try #require(try await AVURLAsset(url: url).loadMediaSelectionGroup(for: .legible))
        #expect(group.options.filter { $0.extendedLanguageTag == "en" }.count == 1, "\(group.options)")
        let clock = ManualClock()
        let (player, recorder) = try await MediaSelectionPlaybackTests.playWithSubtitles(url, clock: clock) {
            $0.options.first { $0.extendedLanguageTag == "en" }
        }
        await MediaSelectionPlaybackTests().expectSubRipTiming(player, recorder, clock: clock)
        player.replaceCurrentItem(with: nil)
        #expect(server.requests.filter { $0.path == "/hls/out_00.vtt" }.map(\.query) == [nil], "the first's cues, once")
    }

    @Test func aRenditionWhoseServerFailsIsReadFromTheBackupsCopy() async throws {
        let master = try SelectionMedia.hlsWithSubtitles.url()
        let server = try LoopbackHTTPServer(root: master.deletingLastPathComponent().deletingLastPathComponent())
        defer { server.stop() }
        // The first group's playlist is on a server that refuses it; the backup's copy is the
        // fixture's own.
        let text = Self.masterWithBackup
            .replacingOccurrences(of: #"URI="hls/out_0_vtt.m3u8""#, with: #"URI="primary/subs.m3u8""#)
            .replacingOccurrences(of: #"URI="hls/out_0_vtt.m3u8?copy=b""#, with: #"URI="hls/out_0_vtt.m3u8""#)
        server.setRule(.content(Data(text.utf8), contentType: "application/vnd.apple.mpegurl"), for: "/failing.m3u8")
        server.setRule(LoopbackHTTPServer.Rule(status: 503), for: "/primary/subs.m3u8")
        let url = server.url(for: "failing.m3u8")
        let group = try #require(try await AVURLAsset(url: url).loadMediaSelectionGroup(for: .legible))
        #expect(group.options.filter { $0.extendedLanguageTag == "en" }.count == 1, "\(group.options)")
        let clock = ManualClock()
        let (player, recorder) = try await MediaSelectionPlaybackTests.playWithSubtitles(url, clock: clock) {
            $0.options.first { $0.extendedLanguageTag == "en" }
        }
        await MediaSelectionPlaybackTests().expectSubRipTiming(player, recorder, clock: clock)
        let item = try #require(player.currentItem)
        player.replaceCurrentItem(with: nil)
        #expect(server.requests.contains { $0.path == "/primary/subs.m3u8" })
        #expect(server.requests.contains { $0.path == "/hls/out_00.vtt" }, "the copy's segment")
        #expect(item.errorLog()?.events.contains { $0.errorStatusCode == 503 } == true)
    }

    /// The first group's playlist names a segment its server refuses (`refused`), or one it
    /// serves but that holds no WebVTT: the first goes on from the backup's copy, the second
    /// does not (the copy would hold the same).
    @Test(arguments: [true, false])
    func aSegmentTheServerRefusesIsReadFromTheBackupsCopyButNotOneThatDoesNotDecode(refused: Bool) async throws {
        let master = try SelectionMedia.hlsWithSubtitles.url()
        let server = try LoopbackHTTPServer(root: master.deletingLastPathComponent().deletingLastPathComponent())
        defer { server.stop() }
        let text = Self.masterWithBackup
            .replacingOccurrences(of: #"URI="hls/out_0_vtt.m3u8""#, with: #"URI="primary/subs.m3u8""#)
            .replacingOccurrences(of: #"URI="hls/out_0_vtt.m3u8?copy=b""#, with: #"URI="hls/out_0_vtt.m3u8""#)
        server.setRule(.content(Data(text.utf8), contentType: "application/vnd.apple.mpegurl"), for: "/segment.m3u8")
        let playlist = [
            "#EXTM3U", "#EXT-X-TARGETDURATION:6", "#EXT-X-MEDIA-SEQUENCE:0", "#EXTINF:6.000000,", "bad.vtt", "#EXT-X-ENDLIST",
        ].joined(separator: "\n")
        server.setRule(.content(Data(playlist.utf8), contentType: "application/vnd.apple.mpegurl"), for: "/primary/subs.m3u8")
        if refused {
            server.setRule(LoopbackHTTPServer.Rule(status: 503), for: "/primary/bad.vtt")
        } else {
            server.setRule(.content(Data([0xFF, 0x00, 0xFE]), contentType: "text/vtt"), for: "/primary/bad.vtt")
        }
        let clock = ManualClock()
        let (player, recorder) = try await MediaSelectionPlaybackTests.playWithSubtitles(server.url(for: "segment.m3u8"), clock: clock) {
            $0.options.first { $0.extendedLanguageTag == "en" }
        }
        if refused {
            await MediaSelectionPlaybackTests().expectSubRipTiming(player, recorder, clock: clock)
            #expect(server.requests.contains { $0.path == "/hls/out_00.vtt" }, "the copy's segment")
        } else {
            await waitUntil("the segment read") { server.requests.contains { $0.path == "/primary/bad.vtt" } }
            for _ in 0..<2_000 where player.currentTime().seconds < 3.3 { await advance(clock, by: 0.01) }
            #expect(recorder.all.allSatisfy { $0.strings.isEmpty })
            #expect(!server.requests.contains { $0.path == "/hls/out_0_vtt.m3u8" }, "no failover for cues that do not decode")
        }
        player.replaceCurrentItem(with: nil)
    }

    /// Plays the fixture's variant with `playlist` (lines) as its English rendition, served as
    /// `sealed/subs.m3u8`, on a manual clock.
    private func playSealed(_ playlist: [String], on server: LoopbackHTTPServer) async throws
        -> (AVPlayer, LegibleRecorder, ManualClock)
    {
        server.setRule(
            .content(Data(playlist.joined(separator: "\n").utf8), contentType: "application/vnd.apple.mpegurl"),
            for: "/sealed/subs.m3u8")
        let multivariant = [
            "#EXTM3U",
            #"#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="English",LANGUAGE="en",AUTOSELECT=YES,URI="sealed/subs.m3u8""#,
            #"#EXT-X-STREAM-INF:BANDWIDTH=75900,SUBTITLES="subs""#, "hls/out_0.m3u8",
        ].joined(separator: "\n")
        server.setRule(.content(Data(multivariant.utf8), contentType: "application/vnd.apple.mpegurl"), for: "/sealed.m3u8")
        let clock = ManualClock()
        let (player, recorder) = try await MediaSelectionPlaybackTests.playWithSubtitles(
            server.url(for: "sealed.m3u8"), clock: clock
        ) { $0.options.first { $0.extendedLanguageTag == "en" } }
        return (player, recorder, clock)
    }

    @Test func aRenditionOfEncryptedWebVTTSegmentsIsDecryptedWithItsKeyFetchedOnce() async throws {
        let master = try SelectionMedia.hlsWithSubtitles.url()
        let folder = master.deletingLastPathComponent()
        let server = try LoopbackHTTPServer(root: folder.deletingLastPathComponent())
        defer { server.stop() }
        // The rendition's segment, encrypted, is served only as `sealed/out_00.vtt`, and a
        // second one without cues as `sealed/empty.vtt`; the playlist names the key once, the
        // IV of each segment its sequence number (0, 1).
        let key = AdaptiveMedia.key
        let clear = try Data(contentsOf: folder.appendingPathComponent("out_00.vtt"))
        let sealed = try AES128Files.encrypted(clear, key: key, iv: Data(count: 16))
        #expect(sealed != clear && !String(decoding: sealed, as: UTF8.self).contains("WEBVTT"))
        server.setRule(.content(sealed, contentType: "text/vtt"), for: "/sealed/out_00.vtt")
        let second = try AES128Files.encrypted(Data("WEBVTT\n\n".utf8), key: key, iv: Data(count: 15) + Data([1]))
        server.setRule(.content(second, contentType: "text/vtt"), for: "/sealed/empty.vtt")
        server.setRule(.content(key, contentType: "application/octet-stream"), for: "/sealed/key.bin")
        let playlist = [
            "#EXTM3U", "#EXT-X-VERSION:3", "#EXT-X-TARGETDURATION:6", "#EXT-X-MEDIA-SEQUENCE:0",
            #"#EXT-X-KEY:METHOD=AES-128,URI="key.bin""#, "#EXTINF:5.000000,", "out_00.vtt", "#EXTINF:1.000000,",
            "empty.vtt", "#EXT-X-ENDLIST",
        ]
        let (player, recorder, clock) = try await playSealed(playlist, on: server)
        await MediaSelectionPlaybackTests().expectSubRipTiming(player, recorder, clock: clock)
        let item = try #require(player.currentItem)
        await waitUntil("both segments read") { server.requests.contains { $0.path == "/sealed/empty.vtt" } }
        player.replaceCurrentItem(with: nil)
        #expect(server.requests.filter { $0.path == "/sealed/key.bin" }.count == 1, "the key once for both segments")
        #expect(!(item.errorLog()?.events.contains { $0.uri?.contains("/sealed/") == true } ?? false), "both decrypted")
    }

    @Test func aSubtitleSegmentItsKeyCannotDecryptLeavesAnErrorEventAndNoCues() async throws {
        let master = try SelectionMedia.hlsWithSubtitles.url()
        let folder = master.deletingLastPathComponent()
        let server = try LoopbackHTTPServer(root: folder.deletingLastPathComponent())
        defer { server.stop() }
        // Encrypted with another key than the one served.
        let clear = try Data(contentsOf: folder.appendingPathComponent("out_00.vtt"))
        let wrongKey = Data(repeating: 0x5a, count: 16)
        server.setRule(
            .content(try AES128Files.encrypted(clear, key: wrongKey, iv: Data(count: 16)), contentType: "text/vtt"),
            for: "/sealed/out_00.vtt")
        server.setRule(.content(AdaptiveMedia.key, contentType: "application/octet-stream"), for: "/sealed/key.bin")
        let playlist = [
            "#EXTM3U", "#EXT-X-TARGETDURATION:6", #"#EXT-X-KEY:METHOD=AES-128,URI="key.bin""#, "#EXTINF:6.000000,",
            "out_00.vtt", "#EXT-X-ENDLIST",
        ]
        let (player, recorder, clock) = try await playSealed(playlist, on: server)
        let item = try #require(player.currentItem)
        await waitUntil("the error event") {
            item.errorLog()?.events.contains { $0.uri?.hasSuffix("/sealed/out_00.vtt") == true } == true
        }
        // (Time may wait for data on a loaded machine: the clock moves until it has passed both cues' starts.)
        for _ in 0..<2_000 where player.currentTime().seconds < 3.3 { await advance(clock, by: 0.01) }
        #expect(player.currentTime().seconds >= 3.3)
        #expect(recorder.all.allSatisfy { $0.strings.isEmpty }, "garbage is not shown")
        #expect(item.status == .readyToPlay, "the pictures play on")
        player.replaceCurrentItem(with: nil)
    }
}
