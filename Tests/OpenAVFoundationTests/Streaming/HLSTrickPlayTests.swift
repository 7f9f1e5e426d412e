// Playhead: backward play of an HLS stream with I-frame playlists, as AVPlayer plays it: a step
// outside what was already read fetches its keyframe's byte range alone (behind the tables),
// from the I-frame playlist of the playing variant's size, so every keyframe shows (not only
// the segments' first) and no whole segment is fetched; the pictures are the decoder's own
// (checksums of a linear decode of the variant); forward play afterwards reads the segments
// again from where time stood.
import Foundation
import PlayheadTestSupport
import Testing

@testable import OpenAVFoundation

@MainActor
@Suite struct HLSTrickPlayTests {
    /// A player of `url` on a manual clock, its sink emptied after an exact seek to `seconds`.
    /// The small variant plays (and so its I-frame playlist, the playing variant's size), and
    /// little is read ahead at the open: nothing from 10 s to 23.5 s is read before the steps.
    func pausedAt(_ url: URL, seconds: Double = 23.5) async -> (AVPlayerItem, AVPlayer, RecordingVideoSink, ManualClock) {
        let clock = ManualClock()
        let sink = RecordingVideoSink()
        let item = AVPlayerItem(asset: AVURLAsset(url: url, options: patientNetworkOptions))
        item.preferredMaximumResolution = CGSize(width: 320, height: 180)
        item.preferredForwardBufferDuration = 3
        let player = AVPlayer(environment: timedEnvironment(sink, clock: clock), playerItem: item)
        await waitUntil("ready") { item.status == .readyToPlay }
        #expect(item.canPlayReverse)
        #expect(await player.seek(to: CMTime(seconds: seconds, preferredTimescale: 10), toleranceBefore: .zero, toleranceAfter: .zero))
        sink.reset()
        return (item, player, sink, clock)
    }

    /// Moves the clock `seconds` at a time, waiting after each move for the picture of the next
    /// of `keyframes` (seconds on the playlist, shown `offset` milliseconds past): no step can
    /// be skipped however long a fetch takes.
    func stepDown(
        through keyframes: some Sequence<Int>, every seconds: Double, offset: Int, _ clock: ManualClock, _ sink: RecordingVideoSink
    ) async {
        for keyframe in keyframes {
            await advance(clock, by: seconds)
            await waitUntil("the keyframe at \(keyframe) s shows") { sink.last.map { millis($0.pts) } == keyframe * 1000 + offset }
        }
    }

    /// Once play resumed at rate 1 (25 fps): waits for the picture where time stood, then
    /// moves the clock a frame at a time, waiting for each (none is late and dropped however
    /// slowly the decoder runs), `frames` frames on.
    private func playOnFrameByFrame(_ clock: ManualClock, _ sink: RecordingVideoSink, frames: Int = 4) async {
        await waitUntil("the picture where time stood") { sink.count >= 1 }
        for frame in 1...frames {
            await advance(clock, by: 0.04)
            // (Time may stand a moment while the sound starts again after the steps: the clock
            // moves on in small steps meanwhile, as a real one would, until the frame shows.)
            var deadline = PatientDeadline(seconds: 20)
            while sink.count < frame + 1, !deadline.hasPassed() {
                await advance(clock, by: 0.005)
                await mainQueueSleep(nanoseconds: 20_000_000)
            }
            #expect(sink.count >= frame + 1, "frame \(frame) after where time stood")
        }
    }

    /// Plays backward until `steps` pictures showed: the first a tenth of a second in, then
    /// one each `seconds` of the clock (which waits for each), then pauses.
    private func playBackward(_ player: AVPlayer, _ clock: ManualClock, _ sink: RecordingVideoSink, steps: Int, every seconds: Double) async {
        player.rate = -1
        await advance(clock, by: 0.1)
        await waitUntil("the first step shows") { sink.count == 1 }
        for count in 2...steps {
            await advance(clock, by: seconds)
            await waitUntil("step \(count) shows") { sink.count == count }
        }
        player.pause()
    }

    @Test func playingBackwardTakesEachKeyframeFromTheIFramePlaylistAlone() async throws {
        // 24 s, 4 s segments, a keyframe every second; two variants with an I-frame playlist each.
        let folder = try IFramePlaylistMedia.folder(duration: 24)
        let server = try LoopbackHTTPServer(root: folder)
        defer { server.stop() }
        let reference = await linearChecksums(of: server.url(for: "small/index.m3u8"))
        let iFrameText = try String(contentsOf: folder.appendingPathComponent("small/iframes.m3u8"), encoding: .utf8)
        guard case .media(let iFrames) = try HLSPlaylist.parse(iFrameText, base: server.url(for: "small/iframes.m3u8"))
        else {
            Issue.record("no I-frame playlist")
            return
        }
        let keyframeRanges = Set(iFrames.segments.compactMap(\.byteRange).map { "bytes=\($0.lowerBound)-\($0.upperBound - 1)" })
        let tables = iFrames.segments.first?.map?.byteRange.map { "bytes=\($0.lowerBound)-\($0.upperBound - 1)" }

        let (item, player, sink, clock) = await pausedAt(server.url(for: "master.m3u8"))
        let before = server.requests.count
        // The I-frame playlist comes slowly: the first step waits for it (and fetches nothing else).
        server.setRule(LoopbackHTTPServer.Rule(headerDelay: 0.3), for: "/small/iframes.m3u8")
        player.rate = -1
        // Down to 10.4 s: every keyframe from 23 s down, one I-frame range each (the run the
        // exact seek read starts at 23.5 s: nothing below it is kept).
        await advance(clock, by: 0.1)
        await waitUntil("the keyframe at 23 s shows") { sink.count == 1 }
        // The item's timeline starts at its earliest packet (the sound's): the pictures show a
        // few milliseconds past their places on the playlist.
        let offset = try #require(sink.last.map { millis($0.pts) - 23_000 })
        #expect((0..<100).contains(offset), "\(offset)")
        // A second at a time, each crossing one keyframe (the clock waits for its picture, so
        // no step is skipped however long a fetch takes).
        await stepDown(through: stride(from: 22, through: 10, by: -1), every: 1, offset: offset, clock, sink)
        player.pause()
        let shown = sink.frames.map { millis($0.pts) }
        #expect(shown == stride(from: 23_000, through: 10_000, by: -1000).map { $0 + offset }, "every keyframe, each once: \(shown)")
        for entry in sink.frames {
            #expect(reference[millis(entry.pts)] == entry.frame.checksum(), "picture at \(millis(entry.pts))")
        }
        let during = server.requests.dropFirst(before)
        let segments = during.filter { $0.path.hasSuffix(".ts") }
        #expect(
            segments.allSatisfy { $0.path.hasPrefix("/small/") && ($0.range.map(keyframeRanges.contains) == true || $0.range == tables) },
            "keyframe ranges and the tables only, no whole segment: \(segments.map { "\($0.path) \($0.range ?? "-")" })")
        #expect(segments.filter { $0.range != tables }.count == 14, "\(segments.map { "\($0.path) \($0.range ?? "-")" })")
        #expect(during.filter { $0.path == "/small/iframes.m3u8" }.count == 1)

        // Forward play resumes from where time stood, with the segments read again.
        let stood = item.currentTime()
        #expect(abs(stood.seconds - 10.4) < 0.05, "\(stood.seconds)")
        sink.reset()
        let forward = server.requests.count
        player.rate = 1
        await playOnFrameByFrame(clock, sink)
        let resumed = sink.frames.map { millis($0.pts) }
        let first = try #require(resumed.first)
        #expect(first <= millis(stood) && millis(stood) - first < 40, "\(resumed)")
        #expect(resumed == resumed.sorted() && Set(resumed).count == resumed.count, "\(resumed)")
        for entry in sink.frames {
            #expect(reference[millis(entry.pts)] == entry.frame.checksum(), "picture at \(millis(entry.pts))")
        }
        #expect(server.requests.dropFirst(forward).contains { $0.path == "/small/seg2.ts" && $0.range == nil }, "the segment read whole")
        player.pause()
    }

    @Test func withoutAnIFramePlaylistEachStepShowsTheFirstKeyframeOfTheSegmentBefore() async throws {
        // The same stream's media playlist on its own: no I-frame playlist to take keyframes from.
        let folder = try IFramePlaylistMedia.folder(duration: 24)
        let server = try LoopbackHTTPServer(root: folder)
        defer { server.stop() }
        let url = server.url(for: "small/index.m3u8")
        let reference = await linearChecksums(of: url)
        let (item, player, sink, clock) = await pausedAt(url)
        player.rate = -1
        await advance(clock, by: 0.1)
        await waitUntil("the first keyframe of the segment shows") { sink.count == 1 }
        let offset = try #require(sink.last.map { millis($0.pts) - 20_000 })
        #expect((0..<100).contains(offset), "\(offset)")
        // Each step below a picture reads the segment before (the picture shows a little past
        // its segment's start: the step asks for a time inside the same segment). Four seconds
        // at a time, each crossing one segment's first keyframe.
        await stepDown(through: [16, 12, 8], every: 4, offset: offset, clock, sink)
        player.pause()
        let shown = sink.frames.map { millis($0.pts) }
        #expect(shown == [20_000, 16_000, 12_000, 8_000].map { $0 + offset }, "\(shown)")
        for entry in sink.frames {
            #expect(reference[millis(entry.pts)] == entry.frame.checksum(), "picture at \(millis(entry.pts))")
        }
        #expect(abs(item.currentTime().seconds - 11.4) < 0.05, "time ran on: \(item.currentTime().seconds)")
    }

    @Test func playingBackwardFetchesNoAudioRenditionAndForwardPlayLoadsItAgain() async throws {
        // 20 s, 2 s segments (a keyframe each), the sound in audio renditions of their own.
        let playlist = try SelectionMedia.hlsLongAudioRenditions.url()
        let folder = playlist.deletingLastPathComponent()
        let sound = try ["out_1.m3u8", "out_2.m3u8"].flatMap { name in
            try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
                .split(whereSeparator: \.isNewline).map(String.init).filter { !$0.hasPrefix("#") && !$0.isEmpty }
        }
        try #require(sound.count >= 20)
        let server = try LoopbackHTTPServer(root: folder)
        defer { server.stop() }
        func soundRequests(from start: Int) -> [String] {
            server.requests.dropFirst(start).map(\.path).filter { path in sound.contains { path == "/" + $0 } }
        }
        let clock = ManualClock()
        let sink = RecordingVideoSink()
        let item = AVPlayerItem(url: server.url(for: playlist.lastPathComponent))
        item.preferredForwardBufferDuration = 3
        let player = AVPlayer(environment: timedEnvironment(sink, clock: clock, audio: true), playerItem: item)
        await waitUntil("ready") { item.status == .readyToPlay }
        #expect(await player.seek(to: CMTime(value: 195, timescale: 10), toleranceBefore: .zero, toleranceAfter: .zero))
        await waitUntil("the sound at the target read") { !soundRequests(from: 0).isEmpty }
        sink.reset()
        let before = server.requests.count
        // Two seconds at a time, each crossing one segment's keyframe.
        await playBackward(player, clock, sink, steps: 5, every: 2)
        let shown = sink.frames.map { millis($0.pts) / 1000 }
        #expect(shown.count >= 5 && shown == shown.sorted(by: >) && Set(shown).count == shown.count, "\(shown)")
        #expect(soundRequests(from: before).isEmpty, "no sound fetched backward: \(soundRequests(from: before))")
        #expect(server.requests.dropFirst(before).contains { $0.path.hasPrefix("/out_0") && $0.path.hasSuffix(".ts") })

        // Forward play reads the rendition again from where time stood.
        let forward = server.requests.count
        player.rate = 1
        await waitUntil("the picture where time stood") { sink.count >= shown.count + 1 }
        await waitUntil("the sound read again") { !soundRequests(from: forward).isEmpty }
        player.pause()
    }

    @Test func anIFramePlaylistThatCannotBeReadLeavesTheStepsToTheSegmentsWithAnErrorLogEvent() async throws {
        let folder = try IFramePlaylistMedia.folder(duration: 24)
        let server = try LoopbackHTTPServer(root: folder)
        defer { server.stop() }
        server.setRule(LoopbackHTTPServer.Rule(status: 404), for: "/small/iframes.m3u8")
        let (item, player, sink, clock) = await pausedAt(server.url(for: "master.m3u8"))
        player.rate = -1
        await advance(clock, by: 0.1)
        await waitUntil("the first step shows") { sink.count == 1 }
        let offset = try #require(sink.last.map { millis($0.pts) - 20_000 })
        await stepDown(through: [16, 12], every: 4, offset: offset, clock, sink)
        player.pause()
        #expect(sink.frames.map { millis($0.pts) } == [20_000, 16_000, 12_000].map { $0 + offset })
        #expect(server.requests.filter { $0.path == "/small/iframes.m3u8" }.count == 1, "asked once")
        let events = item.errorLog()?.events ?? []
        #expect(events.contains { $0.uri?.hasSuffix("/small/iframes.m3u8") == true && $0.errorStatusCode == 404 }, "\(events.map { ($0.uri, $0.errorStatusCode) })")
    }

    @Test func aDASHStreamPlaysBackwardASegmentAtATime() async throws {
        // 6 s in 1 s segments, a keyframe each, streamed by the same loader.
        let server = try LoopbackHTTPServer(root: try DASHMedia.folder())
        defer { server.stop() }
        let (item, player, sink, clock) = await pausedAt(server.url(for: "template/manifest.mpd"), seconds: 5.5)
        let before = server.requests.count
        await playBackward(player, clock, sink, steps: 5, every: 1)
        let shown = sink.frames.map { Double(millis($0.pts)) / 1000 }
        #expect(shown.map { $0.rounded(.down) } == [5, 4, 3, 2, 1], "each segment's keyframe, once: \(shown)")
        #expect(abs(item.currentTime().seconds - 1.4) < 0.05, "\(item.currentTime().seconds)")
        #expect(server.requests.dropFirst(before).contains { $0.path.hasSuffix(".m4s") })
    }

    @Test func stepsFromTheKeptPacketsThenFromTheIFramePlaylistGoOnDown() async throws {
        let folder = try IFramePlaylistMedia.folder(duration: 24)
        let server = try LoopbackHTTPServer(root: folder)
        defer { server.stop() }
        let (_, player, sink, clock) = await pausedAt(server.url(for: "master.m3u8"), seconds: 21.5)
        // Forward play from 21.5 s to 22.5 s: the steps to 22 s and 21 s come from the packets
        // that play read (the segment from 20 s), those below 21.5 s from the I-frame playlist.
        player.rate = 1
        await advance(clock, by: 1)
        // The picture due at 22.5 s (the frame from 22.46 s) shows however late the decoder
        // runs: time goes below it at the first turn backward.
        await waitUntil("a second played") { sink.last.map { millis($0.pts) } ?? 0 >= 22_460 }
        sink.reset()
        player.rate = -1
        await advance(clock, by: 0.1)
        await waitUntil("the keyframe at 22 s shows") { sink.count == 1 }
        let offset = try #require(sink.last.map { millis($0.pts) - 22_000 })
        await stepDown(through: stride(from: 21, through: 16, by: -1), every: 1, offset: offset, clock, sink)
        player.pause()
        let shown = sink.frames.map { millis($0.pts) }
        #expect(shown == stride(from: 22_000, through: 16_000, by: -1000).map { $0 + offset }, "every keyframe, each once: \(shown)")
    }
    @Test func fastForwardStepsThroughTheIFramePlaylistAndPlayResumesWhereTimeStood() async throws {
        let folder = try IFramePlaylistMedia.folder(duration: 24)
        let server = try LoopbackHTTPServer(root: folder)
        defer { server.stop() }
        let reference = await linearChecksums(of: server.url(for: "small/index.m3u8"))
        let (item, player, sink, clock) = await pausedAt(server.url(for: "master.m3u8"), seconds: 2.5)
        let before = server.requests.count
        server.setRule(LoopbackHTTPServer.Rule(headerDelay: 0.3), for: "/small/iframes.m3u8")
        let observed = Locked<[Double]>([])
        let observer = player.addPeriodicTimeObserver(forInterval: CMTime(value: 1, timescale: 4), queue: .main) {
            time in observed.withLock { $0.append(time.seconds) }
        }
        defer { player.removeTimeObserver(observer) }
        // Eight times as fast: each keyframe from the I-frame playlist, shown when time reaches
        // it (an eighth of a second of the clock apart), with no sound.
        let offset = try await fastForwardToTheKeyframeAt3(item, player, clock, sink, offsetBelow: 100)
        await stepThroughKeyframes(4...20, offset: offset, player, clock, sink, reference: reference)
        #expect(abs(item.currentTime().seconds - 20.3) < 0.05, "time runs at the rate: \(item.currentTime().seconds)")
        #expect(player.rate == 8 && player.timeControlStatus == .playing)
        // The periodic observer heard time run through the steps, between the keyframes too.
        let times = observed.withLock { $0 }.filter { $0 > 3 && $0 < 20.3 }
        #expect(times == times.sorted() && times.count >= 30, "\(times)")
        #expect(Set(times.map { Int($0 * 2) }).count >= 30, "every half second of media: \(times)")
        let shown = sink.frames.map { millis($0.pts) }
        #expect(shown == stride(from: 3_000, through: 20_000, by: 1000).map { $0 + offset }, "every keyframe, each once: \(shown)")
        let segments = server.requests.dropFirst(before).filter { $0.path.hasSuffix(".ts") }
        let ranged = segments.drop { $0.range == nil }
        #expect(ranged.count >= 18 && ranged.allSatisfy { $0.path.hasPrefix("/small/") && $0.range != nil },
            "keyframe ranges only once the steps began: \(segments.map { "\($0.path) \($0.range ?? "-")" })")

        // Paused, the picture is the frame where time stands (the keyframe ahead, asked for
        // already, is not shown), read from its segment whole.
        let still = try await pauseShowsThePictureWhereTimeStands(item, player, sink, reference: reference)
        #expect(server.requests.dropFirst(before).contains { $0.path == "/small/seg5.ts" && $0.range == nil }, "the segment read whole")

        // Play at rate 1 goes on from there, a frame at a time.
        sink.reset()
        player.rate = 1
        for frame in 1...4 {
            await advance(clock, by: 0.04)
            await waitUntil("frame \(frame) after where time stood") { sink.count >= frame }
        }
        let resumed = sink.frames.map { millis($0.pts) }
        #expect(resumed == (1...4).map { millis(still.pts) + 40 * $0 }, "\(resumed)")
        for entry in sink.frames {
            #expect(reference[millis(entry.pts)] == entry.frame.checksum(), "picture at \(millis(entry.pts))")
        }
        player.pause()
    }

    @Test func fastForwardReachesTheEndAfterTheLastKeyframe() async throws {
        let folder = try IFramePlaylistMedia.folder(duration: 24)
        let server = try LoopbackHTTPServer(root: folder)
        defer { server.stop() }
        let (item, player, sink, clock) = await pausedAt(server.url(for: "master.m3u8"), seconds: 21.5)
        let log = NotificationLog([AVPlayerItem.didPlayToEndTimeNotification], object: item)
        player.rate = 4
        await advance(clock, by: 0.2)
        await waitUntil("the keyframe at 22 s shows") { sink.count == 1 }
        await advance(clock, by: 0.25)
        await waitUntil("the keyframe at 23 s shows") { sink.count == 2 }
        // The last keyframe is up: time runs on to the end with no further picture.
        await expectTheEnd(at: 24, after: 0.3, showing: 2, item, player, clock, sink, log)
    }
    @Test func fastForwardWithAnUnusableIFramePlaylistPlaysEveryFrame() async throws {
        let folder = try IFramePlaylistMedia.folder(duration: 24)
        let server = try LoopbackHTTPServer(root: folder)
        defer { server.stop() }
        server.setRule(LoopbackHTTPServer.Rule(status: 404), for: "/small/iframes.m3u8")
        let (item, player, sink, clock) = await pausedAt(server.url(for: "master.m3u8"), seconds: 2.5)
        player.rate = 8
        // The first step finds no keyframes to fetch alone: play goes on with every frame.
        for _ in 0..<20 {
            await advance(clock, by: 0.01)
            if sink.frames.contains(where: { millis($0.pts) % 1000 > 100 }) { break }
            await mainQueueSleep(nanoseconds: 50_000_000)
        }
        let shown = sink.frames.map { millis($0.pts) }
        #expect(shown.contains { $0 % 1000 > 100 }, "pictures between keyframes: \(shown)")
        #expect(shown == shown.sorted(), "\(shown)")
        #expect(player.rate == 8)
        #expect(item.errorLog()?.events.contains { $0.errorStatusCode == 404 } == true)
        #expect(server.requests.contains { $0.path.hasPrefix("/small/seg") && $0.range == nil })
        player.pause()
    }
}
