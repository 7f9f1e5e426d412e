// Playhead: Playhead's own HLS loader on a live multivariant stream whose playlists grow one
// one-second segment at a time (`LiveLadder`): it starts three target durations from the end,
// reloads at the target duration (half of it while nothing changes), reports the window as
// `seekableTimeRanges`, ends normally at `EXT-X-ENDLIST` or when the playlist stops changing,
// and a stream paused for longer than the window resumes at the window's start.
import Foundation
import PlayheadTestSupport
import Testing

@testable import OpenAVFoundation

@MainActor
@Suite struct LiveStreamingTests {
    private func millis(_ time: CMTime) -> Int { Int((time.seconds * 1000).rounded()) }

    /// The segment numbers served, in order.
    private func segmentNumbers(_ server: LoopbackHTTPServer) -> [Int] {
        server.requests.map(\.path).filter { $0.hasSuffix(".ts") }.compactMap { path in
            Int(path.split(separator: "/").last?.dropFirst(3).dropLast(3) ?? "")
        }
    }

    // A live playlist grows with the wall clock: this runs in the real-time pass.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["PLAYHEAD_REALTIME_TESTS"] != nil))
    func aLiveStreamStartsNearTheEdgeFollowsItsWindowAndEndsAtTheEndListInRealTime() async throws {
        let server = try LoopbackHTTPServer(root: try AdaptiveMedia.folder())
        defer { server.stop() }
        // Segments 2...5 listed: the window is 4 s; the edge three target durations back is seg3.
        let live = LiveLadder(server: server, window: 4, published: 6)
        defer { live.stop() }
        let sink = RecordingVideoSink()
        let item = AVPlayerItem(url: server.url(for: "live/master.m3u8"))
        let player = AVPlayer(environment: untimedEnvironment(sink), playerItem: item)
        let log = NotificationLog([AVPlayerItem.didPlayToEndTimeNotification], object: item)
        await waitUntil("ready") { item.status == .readyToPlay }
        #expect(item.duration.isIndefinite, "a live item has no length")
        #expect(item.accessLog() != nil, "Playhead's loader streamed it, not libavformat")
        let first = try #require(item.seekableTimeRanges.first?.timeRangeValue)
        #expect(millis(first.start) == 0 && millis(first.duration) == 4000, "the window: \(first)")
        player.play()
        live.grow(every: 1, ending: true)
        await waitUntil(timeout: 30, "the end") { log.count(AVPlayerItem.didPlayToEndTimeNotification) == 1 }

        #expect(segmentNumbers(server).first == 3, "three target durations from the end: \(segmentNumbers(server))")
        #expect(Array(Set(segmentNumbers(server))).sorted() == Array(3...11), "every later segment once")
        // The pictures run from the start segment (1 s after the window's start) to the last.
        let times = sink.frames.map { millis($0.itemTime) }
        #expect(times.count == 9 * 25, "\(times.count) pictures")
        #expect(zip(times, times.dropFirst()).allSatisfy { $1 - $0 == 40 }, "no gap and no repeat")
        #expect((times.first ?? 0) >= 1000 && (times.first ?? 0) < 1100, "\(times.first ?? -1)")
        // The window moved on with the reloads, four seconds long.
        let window = try #require(item.seekableTimeRanges.first?.timeRangeValue)
        #expect(millis(window.start) == 6000 && millis(window.duration) == 4000, "the last window: \(window)")
        // Reloads: about one a second while the playlist grows, never closer than half a target
        // (but for the playlist of a variant switched to, loaded when the switch comes).
        let reloads = server.requests.filter { $0.path.hasPrefix("/live/") && $0.path.hasSuffix("/index.m3u8") }
            .map(\.receivedAt)
        let gaps = zip(reloads, reloads.dropFirst()).map { $1 - $0 }
        let variants = server.requests.map(\.path).filter { $0.hasSuffix(".ts") }.map { $0.split(separator: "/")[1] }
        let switches = zip(variants, variants.dropFirst()).filter { $0 != $1 }.count
        #expect(reloads.count >= 6 && reloads.count <= 20, "\(reloads.count) playlist requests")
        #expect(gaps.dropFirst().filter { $0 < 0.4 }.count <= switches, "\(gaps), \(switches) switches")
        player.replaceCurrentItem(with: nil)
    }

    // A live playlist grows with the wall clock: this runs in the real-time pass.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["PLAYHEAD_REALTIME_TESTS"] != nil))
    func aLiveSubtitleRenditionIsFollowedAndItsCuesShowOnTheirMappedTimesInRealTime() async throws {
        let folder = try AdaptiveMedia.folder()
        let server = try LoopbackHTTPServer(root: folder)
        defer { server.stop() }
        let origin = try FFprobe.startTime(of: folder.appendingPathComponent("ladder/low/seg0.ts"))
        let live = LiveLadder(server: server, window: 4, published: 6, subtitleOrigin: origin)
        defer { live.stop() }
        let url = server.url(for: "live/master.m3u8")
        let asset = AVURLAsset(url: url)
        let group = try #require(try await asset.loadMediaSelectionGroup(for: .legible))
        let item = AVPlayerItem(asset: asset)
        item.select(group.options.first, in: group)
        let recorder = LegibleRecorder()
        let output = AVPlayerItemLegibleOutput()
        output.setDelegate(recorder, queue: nil)
        item.add(output)
        let player = AVPlayer(environment: timedEnvironment(RecordingVideoSink(), clock: SystemHostClock()), playerItem: item)
        let log = NotificationLog([AVPlayerItem.didPlayToEndTimeNotification], object: item)
        player.play()
        await waitUntil("playing") { player.timeControlStatus == .playing }
        live.grow(every: 1, ending: true)
        await waitUntil(timeout: 30, "the end") { log.count(AVPlayerItem.didPlayToEndTimeNotification) == 1 }
        // Cues of segments published after the start came from reloads of the subtitle
        // playlist. Item time is the live timeline's, which starts at the first segment listed
        // when the stream opened (seg2), at the media's first timestamp: cue N, at N + 0.2 s
        // of the map's time, shows at N - 2 + 0.2 s (within the 50 ms by which the video's
        // first timestamp follows its segment's start).
        let shown = recorder.all.filter { !$0.strings.isEmpty }
        let numbers = shown.compactMap { $0.strings.first.flatMap { Int($0.dropFirst(4)) } }
        #expect(Set(numbers).isSuperset(of: 6..<Int(AdaptiveMedia.duration)), "\(numbers)")
        for entry in shown {
            guard let number = entry.strings.first.flatMap({ Int($0.dropFirst(4)) }) else { continue }
            #expect(abs(entry.time - (Double(number) - 2 + 0.2)) < 0.1, "cue \(number) at \(entry.time)")
        }
        player.pause()
    }

    @Test(.enabled(if: ProcessInfo.processInfo.environment["PLAYHEAD_REALTIME_TESTS"] != nil))
    func aConfiguredOffsetFromLiveMovesTheStartCloserToTheEdgeInRealTime() async throws {
        let server = try LoopbackHTTPServer(root: try AdaptiveMedia.folder())
        defer { server.stop() }
        let live = LiveLadder(server: server, window: 4, published: 6)
        defer { live.stop() }
        let sink = RecordingVideoSink()
        let item = AVPlayerItem(url: server.url(for: "live/master.m3u8"))
        #expect(!item.recommendedTimeOffsetFromLive.isValid && !item.configuredTimeOffsetFromLive.isValid)
        item.configuredTimeOffsetFromLive = CMTime(seconds: 1, preferredTimescale: 1)
        // Observable, as Apple documents it.
        let offsets = Locked<[Double]>([])
        let observation = item.observe(\.recommendedTimeOffsetFromLive, options: .new) { _, change in
            offsets.withLock { $0.append(change.newValue?.seconds ?? -1) }
        }
        defer { observation.invalidate() }
        let player = AVPlayer(environment: untimedEnvironment(sink), playerItem: item)
        await waitUntil("ready") { item.status == .readyToPlay }
        #expect(item.recommendedTimeOffsetFromLive == CMTime(seconds: 3, preferredTimescale: 1000), "three target durations")
        #expect(offsets.withLock { $0 }.first == 3, "observers heard the recommended offset: \(offsets.withLock { $0 })")
        player.play()
        live.grow(every: 1, ending: false)
        await waitUntil(timeout: 10, "the edge") { sink.frames.contains { millis($0.itemTime) >= 3900 } }
        // One second before the window's end (4 s): segment 5, at 3 s on the item's timeline.
        // (A first picture at the default start, 1 s, may show before the item moves.)
        let times = sink.frames.map { millis($0.itemTime) }.filter { $0 >= 1100 }
        #expect((times.first ?? 0) >= 3000 && (times.first ?? 0) < 3100, "\(sink.frames.prefix(5).map { millis($0.itemTime) })")
        #expect(zip(times, times.dropFirst()).allSatisfy { $1 - $0 == 40 })
        player.replaceCurrentItem(with: nil)
    }

    // A live playlist grows with the wall clock: this runs in the real-time pass.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["PLAYHEAD_REALTIME_TESTS"] != nil))
    func aLivePlaylistThatStopsChangingEndsTheStreamInRealTime() async throws {
        let server = try LoopbackHTTPServer(root: try AdaptiveMedia.folder())
        defer { server.stop() }
        let live = LiveLadder(server: server, window: 4, published: 6)
        let sink = RecordingVideoSink()
        let item = AVPlayerItem(url: server.url(for: "live/master.m3u8"))
        let player = AVPlayer(environment: untimedEnvironment(sink), playerItem: item)
        let log = NotificationLog([AVPlayerItem.didPlayToEndTimeNotification], object: item)
        player.play()
        await waitUntil("the edge") { sink.count >= 3 * 25 - 5 }
        await waitUntil(timeout: 30, "the end") { log.count(AVPlayerItem.didPlayToEndTimeNotification) == 1 }
        #expect(live.count == 6)
        #expect(sink.count == 3 * 25, "segments 3...5")
        // Unchanged reloads come every half target duration until six target durations passed.
        let reloads = server.requests.filter { $0.path.hasPrefix("/live/") && $0.path.hasSuffix("/index.m3u8") }
            .map(\.receivedAt)
        let gaps = zip(reloads, reloads.dropFirst()).map { $1 - $0 }.sorted()
        let median = gaps.isEmpty ? 0 : gaps[gaps.count / 2]
        #expect(reloads.count >= 6 && median > 0.4 && median < 0.8, "\(reloads.count) reloads, gaps \(gaps)")
        #expect(item.status == .readyToPlay)
        player.replaceCurrentItem(with: nil)
    }

    // A live playlist grows with the wall clock: this runs in the real-time pass.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["PLAYHEAD_REALTIME_TESTS"] != nil))
    func aLiveStreamPausedLongerThanItsWindowResumesAtTheWindowsStartInRealTime() async throws {
        let server = try LoopbackHTTPServer(root: try AdaptiveMedia.folder())
        defer { server.stop() }
        let live = LiveLadder(server: server, window: 4, published: 6)
        defer { live.stop() }
        let sink = RecordingVideoSink()
        let item = AVPlayerItem(url: server.url(for: "live/master.m3u8"))
        let player = AVPlayer(environment: untimedEnvironment(sink), playerItem: item)
        player.play()
        await waitUntil("the edge") { sink.count >= 3 * 25 - 5 }
        player.pause()
        let paused = player.currentTime()
        // Six more segments while paused: the window (4 s, seg8...seg11) passes the paused time.
        live.publish(through: 12)
        await waitUntil(timeout: 10, "the window past the paused time") {
            (item.seekableTimeRanges.first?.timeRangeValue.start.seconds ?? 0) > paused.seconds
        }
        let window = try #require(item.seekableTimeRanges.first?.timeRangeValue)
        #expect(millis(window.start) == 6000, "\(window)")
        sink.reset()
        player.play()
        await waitUntil(timeout: 10, "playing on at the window's start") {
            sink.frames.contains { millis($0.itemTime) >= 6000 }
        }
        // The first picture after the pause is the window's first, not the one after the pause.
        let times = sink.frames.map { millis($0.itemTime) }
        #expect((times.first ?? 0) >= 6000 && (times.first ?? 0) < 6100, "at the window's start: \(times.prefix(8))")
        player.replaceCurrentItem(with: nil)
    }

    /// What a live stream played at `rate` until its item time jumped ahead by more than a
    /// second: the item times shown, the jump (from, to) and the window then.
    private struct LiveJump {
        var times: [Int]
        var jump: (Int, Int)
        var window: CMTimeRange
    }

    /// Plays the live ladder (`window` seconds, `published` segments at first, one more each
    /// second) at `rate` until the item time jumps ahead.
    private func playUntilAJump(window: Int, published: Int, rate: Float, preserving: Bool = false) async throws -> LiveJump {
        let server = try LoopbackHTTPServer(root: try AdaptiveMedia.folder())
        defer { server.stop() }
        let live = LiveLadder(server: server, window: window, published: published)
        defer { live.stop() }
        let sink = RecordingVideoSink()
        let item = AVPlayerItem(url: server.url(for: "live/master.m3u8"))
        item.automaticallyPreservesTimeOffsetFromLive = preserving
        let player = AVPlayer(environment: timedEnvironment(sink, clock: SystemHostClock.shared), playerItem: item)
        defer { player.replaceCurrentItem(with: nil) }
        await waitUntil("ready") { item.status == .readyToPlay }
        live.grow(every: 1, ending: false)
        player.rate = rate
        await waitUntil(timeout: 20, "a jump ahead") {
            let times = sink.frames.map { millis($0.itemTime) }
            return zip(times, times.dropFirst()).contains { $1 - $0 > 1000 }
        }
        let times = sink.frames.map { millis($0.itemTime) }
        let jump = try #require(zip(times, times.dropFirst()).first { $1 - $0 > 1000 })
        let range = try #require(item.seekableTimeRanges.first?.timeRangeValue)
        return LiveJump(times: times, jump: jump, window: range)
    }

    @Test(.enabled(if: ProcessInfo.processInfo.environment["PLAYHEAD_REALTIME_TESTS"] != nil))
    func playbackThatFallsBehindTheWindowJumpsToTheLiveEdgeInRealTime() async throws {
        // At half speed the playhead (1 s into the 4 s window) loses half a second a second: it
        // falls out of the window after about two seconds.
        let played = try await playUntilAJump(window: 4, published: 5, rate: 0.5)
        let (jump, window) = (played.jump, played.window)
        // It lands at the live edge: three target durations before the window's end (give or
        // take the second the window moves meanwhile).
        #expect(jump.1 >= millis(window.end) - 4200 && jump.1 <= millis(window.end) - 2000, "\(jump), window \(window)")
        #expect(jump.0 < millis(window.start), "it had fallen behind")
    }

    @Test(.enabled(if: ProcessInfo.processInfo.environment["PLAYHEAD_REALTIME_TESTS"] != nil))
    func playbackThatDriftsFromItsOffsetIsBroughtBackWhenPreservedInRealTime() async throws {
        // An 8 s window that grows to 12 s: at a quarter speed the playhead, started 3 s from
        // the edge, drifts two target durations past that offset after about three seconds,
        // before the media runs out and long before it leaves the window.
        let played = try await playUntilAJump(window: 8, published: 8, rate: 0.25, preserving: true)
        let (jump, window) = (played.jump, played.window)
        #expect((played.times.first ?? 0) >= 4000, "it started near the live edge: \(played.times.prefix(3))")
        #expect(jump.0 >= millis(window.start) - 1000, "still inside the window: \(jump), \(window)")
        #expect(jump.1 >= millis(window.end) - 4200 && jump.1 <= millis(window.end) - 2000, "\(jump), window \(window)")
    }
}
