// Playhead: live DASH through Playhead's own loader: a static manifest of FFmpeg's DASH
// muxer served as a dynamic one (`LiveDASHManifest`), opened as a live item whose window is
// the time shift buffer, and played from near the live edge to the end the packager declares.
// Both follow the wall clock: they run in the real-time pass (`InRealTime`).
import Foundation
import PlayheadTestSupport
import Testing

@testable import OpenAVFoundation

@MainActor
@Suite struct DASHLiveStreamingTests {
    private func millis(_ time: CMTime) -> Int { Int((time.seconds * 1000).rounded()) }

    /// The tiers fixture's manifest (12 s: two video Representations, two audio ones, in 2 s
    /// segments), and a server for its folder.
    private func serve() throws -> (LoopbackHTTPServer, String) {
        let folder = try DASHMedia.tiersFolder()
        let source = try String(contentsOf: folder.appendingPathComponent("tiers/manifest.mpd"), encoding: .utf8)
        return (try LoopbackHTTPServer(root: folder), source)
    }

    // What is live depends on the wall clock when the item opens (which takes many seconds
    // beside the whole parallel pass): this runs in the real-time pass.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["PLAYHEAD_REALTIME_TESTS"] != nil))
    func aLiveManifestOpensAsALiveItemWhoseWindowIsTheTimeShiftBufferInRealTime() async throws {
        let (server, source) = try serve()
        defer { server.stop() }
        // Begun 9 s ago, a 6 s buffer, segments counted from the clock: 2–4, 4–6 and 6–8 s
        // are whole and inside it (the one ending at 2 s left it when the clock passed 8 s).
        let live = LiveDASHManifest(
            server: server, source: source, path: "/tiers/live.mpd", addressing: .fixedDuration(seconds: 2),
            startedAgo: 9, depth: 6)
        defer { live.stop() }
        let item = AVPlayerItem(url: server.url(for: "tiers/live.mpd"))
        let player = AVPlayer(environment: untimedEnvironment(RecordingVideoSink()), playerItem: item)
        await waitUntil("ready") { item.status == .readyToPlay || item.status == .failed }

        #expect(item.status == .readyToPlay, "\(String(describing: item.error))")
        #expect(item.duration.isIndefinite, "a live item has no length")
        #expect(item.accessLog() != nil, "Playhead's loader streams it, not libavformat")
        let window = try #require(item.seekableTimeRanges.first?.timeRangeValue)
        // (The clock may pass 10 s while the item opens: one more segment, one fewer.)
        #expect([2000, 4000].contains(millis(window.start)) && millis(window.duration) == 6000, "\(window)")
        // The live edge is three segments back from the window's end: its first segment (2 s
        // in, number 2); nothing before it is fetched, nor anything not yet whole.
        let paths = server.requests.map(\.path).filter { $0.hasPrefix("/tiers/chunk-stream") }
        #expect(!paths.isEmpty && paths.allSatisfy { path in (2...5).contains { path.hasSuffix("0000\($0).m4s") } }, "\(paths)")
        player.replaceCurrentItem(with: nil)
    }

    // What is live depends on the wall clock: this runs in the real-time pass. The packager's
    // time is served as an ISO 8601 body and, as a second case, in the `Date` header field of
    // a HEAD response (whole seconds).
    @Test(
        .enabled(if: ProcessInfo.processInfo.environment["PLAYHEAD_REALTIME_TESTS"] != nil),
        arguments: LiveDASHManifest.TimeScheme.allCases)
    func aLiveManifestIsTimedByThePackagersClockItNamesInRealTime(_ scheme: LiveDASHManifest.TimeScheme) async throws {
        let (server, source) = try serve()
        defer { server.stop() }
        // The packager's clock is two minutes ahead of this machine's: by this machine's the
        // presentation would not begin for 111 s. Its time is read from the URL its
        // `UTCTiming` names, and the window is as in the test above. It suggests playing 3 s
        // behind the newest segment's end.
        let live = LiveDASHManifest(
            server: server, source: source, path: "/tiers/live.mpd", addressing: .fixedDuration(seconds: 2),
            startedAgo: 9, depth: 6, clockAhead: 120, timePath: "/time", timeScheme: scheme, suggestedDelay: 3)
        defer { live.stop() }
        let item = AVPlayerItem(url: server.url(for: "tiers/live.mpd"))
        let player = AVPlayer(environment: untimedEnvironment(RecordingVideoSink()), playerItem: item)
        await waitUntil("ready") { item.status == .readyToPlay || item.status == .failed }

        #expect(item.status == .readyToPlay, "\(String(describing: item.error))")
        #expect(item.accessLog() != nil, "Playhead's loader streams it, not libavformat")
        let method = scheme == .isoBody ? "GET" : "HEAD"
        #expect(server.requests.contains { $0.path == "/time" && $0.method == method }, "the packager's time was asked")
        let window = try #require(item.seekableTimeRanges.first?.timeRangeValue)
        #expect([2000, 4000].contains(millis(window.start)) && millis(window.duration) == 6000, "\(window)")
        // Playback starts in the segment holding 3 s before the window's end: 4–6 s (number 3),
        // or 6–8 s (number 4) when the clock passed 10 s meanwhile; nothing before is fetched.
        #expect(item.recommendedTimeOffsetFromLive == CMTime(seconds: 3, preferredTimescale: 1000))
        let paths = server.requests.map(\.path).filter { $0.hasPrefix("/tiers/chunk-stream") }
        #expect(!paths.isEmpty && paths.allSatisfy { path in (3...6).contains { path.hasSuffix("0000\($0).m4s") } }, "\(paths)")
        // Each segment's date is the packager's: its availability start plus its time.
        let date = try #require(item.currentDate())
        let expected = live.availabilityStart.addingTimeInterval(120 + item.currentTime().seconds)
        // (A `Date` field tells the time to the second: half a second either way.)
        #expect(abs(date.timeIntervalSince(expected)) < (scheme == .isoBody ? 0.5 : 1), "\(date) against \(expected)")
        player.replaceCurrentItem(with: nil)
    }

    // A live manifest grows with the wall clock: this runs in the real-time pass.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["PLAYHEAD_REALTIME_TESTS"] != nil))
    func aLiveManifestThatMovesIsReadFromItsNewPlaceInRealTime() async throws {
        let (server, source) = try serve()
        defer { server.stop() }
        // The manifest says it is at `/tiers/moved/live.mpd` from now on (its `BaseURL`
        // `/tiers/` keeps the segments where they are); once the item is open, the old path
        // answers 404.
        let based = source.replacingOccurrences(of: "<Period", with: "<BaseURL>/tiers/</BaseURL><Period")
        let live = LiveDASHManifest(
            server: server, source: based, path: "/tiers/live.mpd", addressing: .timeline, startedAgo: 6, depth: 30,
            movedTo: "/tiers/moved/live.mpd")
        defer { live.stop() }
        let (item, times) = await playLiveDASHToItsEnd(live, at: "tiers/live.mpd", on: server) { _ in live.leaveOldPath() }

        #expect(times.first == 0 && times.count == 12 * 25, "\(times.count) pictures from \(times.first ?? -1)")
        #expect(zip(times, times.dropFirst()).allSatisfy { $1 - $0 == 40 }, "no gap and no repeat")
        let manifests = server.requests.map(\.path).filter { $0.hasSuffix(".mpd") }
        #expect(manifests.filter { $0 == "/tiers/moved/live.mpd" }.count >= 3, "reloads read the new place: \(manifests)")
        #expect(item.errorLog()?.events.isEmpty == true, "\(item.errorLog()?.events.map(\.errorComment) ?? [])")
    }

    // A live manifest grows with the wall clock: this runs in the real-time pass.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["PLAYHEAD_REALTIME_TESTS"] != nil))
    func aLiveManifestPlaysEveryPictureFromTheEdgeToItsEndInRealTime() async throws {
        let (server, source) = try serve()
        defer { server.stop() }
        // Begun 6 s ago: three segments whole, the live edge three back from the newest.
        let live = LiveDASHManifest(
            server: server, source: source, path: "/tiers/live.mpd", addressing: .timeline, startedAgo: 6, depth: 30)
        defer { live.stop() }
        // The packager ends the event once its last segment is whole.
        let (item, times) = await playLiveDASHToItsEnd(live, at: "tiers/live.mpd", on: server) { item in
            #expect(item.duration.isIndefinite && item.accessLog() != nil, "a live item through Playhead's loader")
        }

        #expect(times.first == 0 && times.count == 12 * 25, "\(times.count) pictures from \(times.first ?? -1)")
        #expect(zip(times, times.dropFirst()).allSatisfy { $1 - $0 == 40 }, "no gap and no repeat")
        // Every segment once a Representation, none before it was whole (there are six).
        let chunks = server.requests.map(\.path).filter { $0.hasPrefix("/tiers/chunk-stream") }
        #expect(Set(chunks).count == chunks.count, "\(chunks)")
        #expect(chunks.allSatisfy { path in (1...6).contains { path.hasSuffix("0000\($0).m4s") } }, "\(chunks)")
        #expect(item.errorLog()?.events.isEmpty == true, "\(item.errorLog()?.events.map(\.errorComment) ?? [])")
    }

    @Test(.enabled(if: ProcessInfo.processInfo.environment["PLAYHEAD_REALTIME_TESTS"] != nil))
    func aLiveTextSetIsFollowedAndItsCuesShowOnThePresentationsTimesInRealTime() async throws {
        let (server, source) = try serve()
        defer { server.stop() }
        // An IMSC1 text set beside the video: in segment N (2 s each, from 0) the cue "Cue N"
        // from 2N + 0.5 s to 2N + 1.5 s.
        let set = """
            <AdaptationSet id="9" mimeType="application/mp4" codecs="stpp" lang="en">
            <Representation id="text" bandwidth="2000">
            <SegmentTemplate timescale="1000" initialization="text/init.mp4" media="text/seg-$Number$.m4s" startNumber="1">
            <SegmentTimeline><S t="0" d="2000" r="5" /></SegmentTimeline></SegmentTemplate></Representation></AdaptationSet>
            </Period>
            """
        let withText = source.replacingOccurrences(of: "</Period>", with: set)
        #expect(withText != source)
        server.setRule(
            .content(FragmentedTextSegments.initialisation(.ttml, timescale: 1000), contentType: "video/mp4"),
            for: "/tiers/text/init.mp4")
        for number in 0..<6 {
            let begin = Double(2 * number)
            let segment = FragmentedTextSegments.segment(
                sequence: UInt32(number + 1), startTicks: UInt64(2000 * number),
                samples: [(2000, FragmentedTextSegments.ttml([(begin + 0.5, begin + 1.5, "Cue \(number)")]))])
            server.setRule(.content(segment, contentType: "video/mp4"), for: "/tiers/text/seg-\(number + 1).m4s")
        }
        // Begun 6 s ago: three segments whole; the rest come with the manifest's reloads.
        let live = LiveDASHManifest(
            server: server, source: withText, path: "/tiers/live.mpd", addressing: .timeline, startedAgo: 6, depth: 30)
        defer { live.stop() }
        let (player, recorder) = try await MediaSelectionPlaybackTests.playWithSubtitles(
            server.url(for: "tiers/live.mpd"), clock: SystemHostClock()
        ) { group in
            #expect(group.options.map(\.codecName) == ["ttml"])
            return group.options.first
        }
        let log = NotificationLog([AVPlayerItem.didPlayToEndTimeNotification], object: player.currentItem)
        await waitUntil(timeout: 30, "the last segment") { Date().timeIntervalSince(live.availabilityStart) > 12.3 }
        live.end()
        await waitUntil(timeout: 30, "the end") { log.count(AVPlayerItem.didPlayToEndTimeNotification) == 1 }
        player.pause()
        // Item time is the presentation's: cue N shows at 2N + 0.5 s.
        let shown = recorder.all.filter { !$0.strings.isEmpty }
        let numbers = shown.compactMap { $0.strings.first.flatMap { Int($0.dropFirst(4)) } }
        #expect(Set(numbers).isSuperset(of: 3..<6), "the cues of segments published after the open: \(numbers)")
        for entry in shown {
            guard let number = entry.strings.first.flatMap({ Int($0.dropFirst(4)) }) else { continue }
            #expect(abs(entry.time - (Double(2 * number) + 0.5)) < 0.1, "cue \(number) at \(entry.time)")
        }
    }
}
