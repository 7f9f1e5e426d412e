// Playhead: `AVPlayerItem.currentDate()` and `seek(to: Date)` for HLS streams that date their
// segments (`EXT-X-PROGRAM-DATE-TIME`), through Playhead's loader (a multivariant ladder) and
// through libavformat (one media playlist), and the parser and map underneath.
import Foundation
import PlayheadTestSupport
import Testing

@testable import OpenAVFoundation

@Suite struct ProgramDateMapTests {
    let base = URL(string: "https://media.example/show/index.m3u8")!

    @Test func datesCarryOnFromTagToTagAcrossTheSegments() throws {
        let text = """
            #EXTM3U
            #EXT-X-TARGETDURATION:2
            #EXTINF:2.0,
            a.ts
            #EXT-X-PROGRAM-DATE-TIME:2026-12-02T10:00:00.500Z
            #EXTINF:2.0,
            b.ts
            #EXTINF:2.0,
            c.ts
            #EXT-X-DISCONTINUITY
            #EXT-X-PROGRAM-DATE-TIME:2026-12-02T12:00:00+0100
            #EXTINF:2.0,
            d.ts
            #EXT-X-ENDLIST
            """
        guard case .media(let playlist) = try HLSPlaylist.parse(text, base: base) else {
            Issue.record("not a media playlist")
            return
        }
        let ten = Date(timeIntervalSince1970: 1_796_205_600)  // 2026-12-02T10:00:00Z
        #expect(playlist.segments.map(\.programDate) == [nil, ten + 0.5, ten + 2.5, ten + 3600])
        let map = try #require(ProgramDateMap(playlist))
        // Before the first tag the first dated segment's clock is carried back.
        #expect(map.date(at: 0) == ten - 1.5)
        #expect(map.date(at: 3) == ten + 1.5)
        #expect(map.date(at: 7.25) == ten + 3601.25)
        #expect(map.time(for: ten + 2.75) == 4.25)
        #expect(map.time(for: ten + 3600) == 6)
        #expect(map.time(for: ten + 10) == nil, "no segment shows that moment")
        #expect(map.time(for: ten) == nil, "the undated first segment is not guessed into")
    }

    @Test func aLivePlaylistsDatesStartWhereLibavformatStarts() throws {
        let live = """
            #EXTM3U
            #EXT-X-TARGETDURATION:2
            #EXT-X-MEDIA-SEQUENCE:40
            #EXT-X-PROGRAM-DATE-TIME:2026-12-02T10:00:00Z
            #EXTINF:2.0,
            a.ts
            #EXTINF:2.0,
            b.ts
            #EXTINF:2.0,
            c.ts
            #EXTINF:2.0,
            d.ts
            #EXTINF:2.0,
            e.ts
            """
        guard case .media(let playlist) = try HLSPlaylist.parse(live, base: base) else { return }
        let map = try #require(ProgramDateMap(playlist))
        let ten = Date(timeIntervalSince1970: 1_796_205_600)
        // Three segments from the end (c.ts) is the item's time zero; the clock runs on past the
        // last segment listed.
        #expect(map.date(at: 0) == ten + 4)
        #expect(map.date(at: 9) == ten + 13)
        #expect(map.time(for: ten + 5) == 1)
        #expect(map.time(for: ten + 1) == nil, "before the item's timeline")
    }

    @Test func aPlaylistWithoutDatesHasNoMap() throws {
        let plain = """
            #EXTM3U
            #EXT-X-TARGETDURATION:2
            #EXTINF:2.0,
            a.ts
            #EXT-X-ENDLIST
            """
        guard case .media(let playlist) = try HLSPlaylist.parse(plain, base: base) else { return }
        #expect(ProgramDateMap(playlist) == nil)
        #expect(ProgramDateMap.parseDate("yesterday") == nil)
        #expect(ProgramDateMap.parseDate("2026-12-02T10:00:00.250+00:00") == Date(timeIntervalSince1970: 1_796_205_600.25))
    }
}

@MainActor
@Suite struct ProgramDateTests {
    /// Checks an item that plays the dated ladder: its date at the start, seeks to dates in
    /// both dated stretches, and a date the stream never shows.
    private func checkDates(of item: AVPlayerItem, player: AVPlayer) async {
        await waitUntil("ready") { item.status == .readyToPlay }
        // The date and the time read while the time stands (it settles on the first picture's
        // as the open completes, which a loaded machine can leave until between two reads).
        var start = player.currentTime().seconds
        var date = item.currentDate()
        var settled = PatientDeadline(seconds: 20)
        while player.currentTime().seconds != start, !settled.hasPassed() {
            await mainQueueSleep(nanoseconds: 5_000_000)
            start = player.currentTime().seconds
            date = item.currentDate()
        }
        #expect(start >= 0 && start < 0.05)
        #expect(abs((date ?? .distantPast).timeIntervalSince(AdaptiveMedia.firstDate) - start) < 1e-6)

        let early = AdaptiveMedia.firstDate + 3.5
        #expect(await item.seek(to: early))
        #expect(abs(player.currentTime().seconds - 3.5) < 0.001)
        #expect(abs((item.currentDate() ?? .distantPast).timeIntervalSince(early)) < 0.001)

        // After the jump in dates at the seventh segment.
        let late = AdaptiveMedia.laterDate + 1.5
        let finished = Locked<Bool?>(nil)
        #expect(item.seek(to: late) { done in finished.withLock { $0 = $0 ?? done } })
        await waitUntil("the seek to a later date") { finished.withLock { $0 } != nil }
        #expect(finished.withLock { $0 } == true)
        #expect(abs(player.currentTime().seconds - 7.5) < 0.001)
        #expect(abs((item.currentDate() ?? .distantPast).timeIntervalSince(late)) < 0.001)

        let time = player.currentTime()
        #expect(!item.seek(to: AdaptiveMedia.firstDate - 60), "a date before the stream")
        #expect(!item.seek(to: AdaptiveMedia.firstDate + 8), "a date in the jump between the stretches")
        #expect(player.currentTime() == time, "a refused date does not move the item")
    }

    @Test func aLadderStreamedByPlayheadsLoaderSeeksToDates() async throws {
        let folder = try AdaptiveMedia.folder()
        let server = try LoopbackHTTPServer(root: folder)
        defer { server.stop() }
        try AdaptiveMedia.serveWithProgramDates(from: folder, on: server)
        let item = AVPlayerItem(url: server.url(for: "ladder/master.m3u8"))
        let player = AVPlayer(environment: untimedEnvironment(RecordingVideoSink()), playerItem: item)
        await checkDates(of: item, player: player)
        #expect(item.accessLog() != nil, "Playhead's loader streamed it")
        player.replaceCurrentItem(with: nil)
    }

    @Test func oneMediaPlaylistStreamedByPlayheadsLoaderSeeksToDates() async throws {
        let folder = try AdaptiveMedia.folder()
        let server = try LoopbackHTTPServer(root: folder)
        defer { server.stop() }
        try AdaptiveMedia.serveWithProgramDates(from: folder, on: server)
        let item = AVPlayerItem(url: server.url(for: "ladder/mid/index.m3u8"))
        let player = AVPlayer(environment: untimedEnvironment(RecordingVideoSink()), playerItem: item)
        await checkDates(of: item, player: player)
        #expect(item.accessLog() != nil, "Playhead's loader streamed it, as one variant")
        player.replaceCurrentItem(with: nil)
    }

    @Test func aLiveMediaPlaylistKnowsItsDateAndSeeksToOneInsideItsWindow() async throws {
        let folder = try NetworkMedia.folder()
        let server = try LoopbackHTTPServer(root: folder)
        defer { server.stop() }
        let path = folder.appendingPathComponent("hls/live.m3u8").path
        let dated = try String(contentsOfFile: path, encoding: .utf8).replacingOccurrences(
            of: "#EXTINF", with: "#EXT-X-PROGRAM-DATE-TIME:2026-12-02T10:00:00Z\n#EXTINF", options: [], range: nil)
        // Only the first tag counts for the test's dates; later ones repeat it, so keep one.
        var seen = false
        let oneTag = dated.components(separatedBy: "\n").filter { line in
            guard line.hasPrefix("#EXT-X-PROGRAM-DATE-TIME") else { return true }
            defer { seen = true }
            return !seen
        }.joined(separator: "\n")
        server.setRule(.content(Data(oneTag.utf8), contentType: "application/vnd.apple.mpegurl"), for: "/hls/live.m3u8")
        let item = AVPlayerItem(url: server.url(for: "hls/live.m3u8"))
        let player = AVPlayer(environment: untimedEnvironment(RecordingVideoSink()), playerItem: item)
        await waitUntil("ready") { item.status == .readyToPlay }
        let time = player.currentTime().seconds
        let shown = try #require(item.currentDate())
        // Playhead's loader streams it: item time zero is the window's first segment, dated 10:00:00.
        #expect(abs(shown.timeIntervalSince(AdaptiveMedia.firstDate) - time) < 1e-3, "\(time) shows \(shown)")
        let window = try #require(item.seekableTimeRanges.first?.timeRangeValue)
        #expect(window.start.seconds == 0 && window.duration.seconds == 4, "the four 1 s segments: \(window)")
        #expect(!item.seek(to: AdaptiveMedia.firstDate + 10), "past the window")
        #expect(item.seek(to: AdaptiveMedia.firstDate + 2), "inside the window")
        await waitUntil("the seek to 10:00:02") { abs(player.currentTime().seconds - 2) < 0.05 }
        player.replaceCurrentItem(with: nil)
    }

    @Test func aLiveWindowsNewSegmentsAreDatedAsTheyArrive() async throws {
        let server = try LoopbackHTTPServer(root: try AdaptiveMedia.folder())
        defer { server.stop() }
        // Segment N shows 10:00:00 + N s; each playlist dates its first segment.
        let live = LiveLadder(server: server, window: 4, published: 6) { published in
            let formatter = ISO8601DateFormatter()
            let first = Double(max(0, published - 4))
            return ["#EXT-X-PROGRAM-DATE-TIME:" + formatter.string(from: AdaptiveMedia.firstDate + first)]
        }
        defer { live.stop() }
        let item = AVPlayerItem(url: server.url(for: "live/master.m3u8"))
        let player = AVPlayer(environment: untimedEnvironment(RecordingVideoSink()), playerItem: item)
        await waitUntil("ready") { item.status == .readyToPlay }
        // Item time zero is segment 2 (the first listed at open).
        let later = AdaptiveMedia.firstDate + 8.5
        #expect(!item.seek(to: later), "segment 8 is not published yet")
        live.publish(through: 10)
        await waitUntil(timeout: 30, "a reload listing segments 6 to 9") {
            item.seekableTimeRanges.first.map { abs($0.timeRangeValue.end.seconds - 8) < 1e-3 } ?? false
        }
        #expect(item.seek(to: later), "segment 8 joined the window after the open")
        await waitUntil("the seek to 10:00:08.5") { abs(player.currentTime().seconds - 6.5) < 0.05 }
        let shown = try #require(item.currentDate())
        #expect(abs(shown.timeIntervalSince(later)) < 0.05, "\(shown)")
        #expect(!item.seek(to: AdaptiveMedia.firstDate + 5.5), "segment 5 left the window")
        player.replaceCurrentItem(with: nil)
    }

    @Test func aFileHasNoDates() async throws {
        let item = AVPlayerItem(url: try Fixture.url(.mp4))
        let player = AVPlayer(environment: untimedEnvironment(RecordingVideoSink()), playerItem: item)
        await waitUntil("ready") { item.status == .readyToPlay }
        #expect(item.currentDate() == nil)
        #expect(!item.seek(to: Date()))
        #expect(await item.seek(to: Date()) == false)
        player.replaceCurrentItem(with: nil)
    }
}
