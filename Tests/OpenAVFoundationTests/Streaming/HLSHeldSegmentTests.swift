// Playhead: Playhead's HLS loader when a server stops sending a segment mid-response. The
// loader's request gives up at its deadline and the segment is fetched again, while the demux
// thread waits on (its read is bounded by the loader's retries, not by one request's deadline,
// which used to fail the item while the retry was under way). And a seek back into what was
// already delivered, made while the demux thread waits, is served from the packets kept in
// memory and playback goes on past them: the seek cuts the waiting read short, so the
// demuxer's input is no longer where the kept packets end and reading resumes by restarting
// the loader a little before them (before, the cut went unnoticed: the container saw the end
// of its input and playback stopped where the kept packets ended, the EXT-X-START stall of
// closing note 36). The same for a live stream, whose read also waits at the edge for as long
// as the loader keeps the stream alive; and a live server that goes away still ends playback.
// The serial pass of `make test` only (`PLAYHEAD_REALTIME_TESTS`, `OverLoopback`): they time
// requests against deadlines of seconds, and beside the whole parallel pass (in the CI runs of
// stops 40 and 42) a held request timed out and failed the item.
import Foundation
import PlayheadTestSupport
import Testing

@testable import OpenAVFoundation

@MainActor
@Suite(.enabled(if: ProcessInfo.processInfo.environment["PLAYHEAD_REALTIME_TESTS"] != nil))
struct HLSHeldSegmentOverLoopbackTests {
    @Test func aSeekBackWhileTheLoaderWaitsForASegmentPlaysOnToTheEnd() async throws {
        let server = try LoopbackHTTPServer(root: try AdaptiveMedia.folder())
        defer { server.stop() }
        // The lowest variant's fourth segment (3–4 s) stops after its first kilobyte, every time
        // it is asked for (the loader may abandon the stalled transfer and ask again), for as
        // long as the test holds it (no request deadline passes): the demux thread waits at
        // 3 s with everything before it read.
        server.setRule(.hold(atByte: 1024), for: "/ladder/low/seg3.ts")
        let sink = RecordingVideoSink()
        let asset = AVURLAsset(url: server.url(for: "ladder/master.m3u8"), options: [AVURLAssetPlayheadTimeoutKey: 600])
        let item = AVPlayerItem(asset: asset)
        item.preferredPeakBitRate = 300_000
        let player = AVPlayer(environment: untimedEnvironment(sink), playerItem: item)
        let log = NotificationLog([AVPlayerItem.didPlayToEndTimeNotification], object: item)
        await waitUntil("ready") { item.status == .readyToPlay }
        await waitUntil(timeout: 30, "read up to the held segment") {
            (item.loadedTimeRanges.last?.timeRangeValue.end.seconds ?? 0) > 2.9
        }
        await mainQueueSleep(nanoseconds: 300_000_000)
        #expect((item.loadedTimeRanges.last?.timeRangeValue.end.seconds ?? 0) < 3.1, "held at 3 s")

        let finished = SeekResult()
        player.seek(to: CMTime(seconds: 1, preferredTimescale: 1000), toleranceBefore: .zero, toleranceAfter: .zero) {
            done in finished.set(done)
        }
        await waitUntil(timeout: 30, "the seek") { finished.value != nil }
        #expect(finished.value == true)
        // Should the seek have come while the demux thread was not waiting in a read (a loaded
        // machine), nothing was cut and the held response is what it waits for.
        server.releaseHolds()
        let landed = sink.frames.count - 1
        player.play()
        await waitUntil(timeout: 60, "the end") { log.count(AVPlayerItem.didPlayToEndTimeNotification) == 1 }

        // The seek's picture (stamped 1 s, as after any exact seek), then every picture after it
        // to the clip's end once, 40 ms apart (the clip's pictures sit 23 ms into each step).
        let times = sink.distinctMillis(from: max(landed, 0))
        #expect(times.first == 1000 && times.count > 1 && times[1] - times[0] < 40, "\(times.prefix(5))")
        #expect((times.last ?? 0) > Int(AdaptiveMedia.duration * 1000) - 40, "\(times.suffix(5)) \(diagnosis(item, server))")
        let steps = zip(times.dropFirst(), times.dropFirst(2))
        #expect(steps.allSatisfy { $1 - $0 == 40 }, "\(steps.filter { $1 - $0 != 40 })")
        #expect(item.status == .readyToPlay && item.error == nil)
        player.replaceCurrentItem(with: nil)
    }

    @Test func aSegmentThatStopsComingIsFetchedAgainAndPlaybackGoesOn() async throws {
        let server = try LoopbackHTTPServer(root: try AdaptiveMedia.folder())
        defer { server.stop() }
        // The fourth segment stops after its first kilobyte, once and for good; each request
        // may take 3 s (a loaded machine's loopback fetches take far less).
        server.setRule(.hold(atByte: 1024, times: 1), for: "/ladder/low/seg3.ts")
        let sink = RecordingVideoSink()
        let asset = AVURLAsset(url: server.url(for: "ladder/master.m3u8"), options: [AVURLAssetPlayheadTimeoutKey: 3.0])
        let item = AVPlayerItem(asset: asset)
        item.preferredPeakBitRate = 300_000
        let player = AVPlayer(environment: untimedEnvironment(sink), playerItem: item)
        let log = NotificationLog([AVPlayerItem.didPlayToEndTimeNotification], object: item)
        player.play()
        await waitUntil(timeout: 60, "the end") { log.count(AVPlayerItem.didPlayToEndTimeNotification) == 1 }

        #expect(item.status == .readyToPlay && item.error == nil, "\(diagnosis(item, server))")
        #expect(server.requests.filter { $0.path == "/ladder/low/seg3.ts" }.count == 2)
        let events = item.errorLog()?.events ?? []
        #expect(events.count == 1 && events.first?.uri?.hasSuffix("seg3.ts") == true, "\(diagnosis(item, server))")
        // Every picture once, 40 ms apart, to the clip's end.
        let times = sink.distinctMillis()
        #expect(times.count == Int(AdaptiveMedia.duration) * 25, "\(times.count) pictures")
        #expect(zip(times, times.dropFirst()).allSatisfy { $1 - $0 == 40 })
        player.replaceCurrentItem(with: nil)
    }

    @Test func aLiveSegmentThatStopsComingIsFetchedAgainAndPlaybackGoesOn() async throws {
        let server = try LoopbackHTTPServer(root: try AdaptiveMedia.folder())
        defer { server.stop() }
        // A live window of segments 2...5 that never grows (the stream ends once its playlist
        // has not changed for six target durations); playback starts at segment 3, three
        // target durations from the end. Segment 4 stops after its first kilobyte, once; each
        // request may take 3 s, so the loader's second request comes after the demux thread
        // waited 3 s, one request's deadline.
        let live = LiveLadder(server: server, window: 4, published: 6)
        defer { live.stop() }
        server.setRule(.hold(atByte: 1024, times: 1), for: "/ladder/low/seg4.ts")
        let sink = RecordingVideoSink()
        let asset = AVURLAsset(url: server.url(for: "live/master.m3u8"), options: [AVURLAssetPlayheadTimeoutKey: 3.0])
        let item = AVPlayerItem(asset: asset)
        item.preferredPeakBitRate = 300_000
        let player = AVPlayer(environment: untimedEnvironment(sink), playerItem: item)
        let log = NotificationLog([AVPlayerItem.didPlayToEndTimeNotification], object: item)
        player.play()
        await waitUntil(timeout: 60, "the end") {
            log.count(AVPlayerItem.didPlayToEndTimeNotification) == 1 || item.status == .failed
        }

        #expect(item.status == .readyToPlay && item.error == nil, "\(diagnosis(item, server))")
        #expect(server.requests.filter { $0.path == "/ladder/low/seg4.ts" }.count == 2)
        // Segments 3...5 played, every picture once, 40 ms apart.
        let times = sink.distinctMillis()
        #expect(times.count == 3 * 25, "\(times.count) pictures \(diagnosis(item, server))")
        #expect(zip(times, times.dropFirst()).allSatisfy { $1 - $0 == 40 })
        player.replaceCurrentItem(with: nil)
    }

    // A live playlist grows with the wall clock and the end is timed: the real-time pass.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["PLAYHEAD_REALTIME_TESTS"] != nil))
    func aLiveServerThatGoesAwayEndsPlaybackWithinSixTargetDurationsInRealTime() async throws {
        let server = try LoopbackHTTPServer(root: try AdaptiveMedia.folder())
        defer { server.stop() }
        let live = LiveLadder(server: server, window: 4, published: 6)
        defer { live.stop() }
        live.grow(every: 1, ending: false)
        let sink = RecordingVideoSink()
        let asset = AVURLAsset(url: server.url(for: "live/master.m3u8"), options: [AVURLAssetPlayheadTimeoutKey: 3.0])
        let item = AVPlayerItem(asset: asset)
        item.preferredPeakBitRate = 300_000
        let player = AVPlayer(environment: untimedEnvironment(sink), playerItem: item)
        let log = NotificationLog([AVPlayerItem.didPlayToEndTimeNotification], object: item)
        player.play()
        // Three segments played: the demux thread follows the edge, a segment a second.
        await waitUntil(timeout: 30, "three segments") { sink.count >= 3 * 25 }
        server.stop()
        let stopped = Date()
        // The loader's reloads fail, the playlist no longer changes, and after six target
        // durations (1 s each) the loader ends the stream; the demux read, which may wait
        // longer than one request's deadline, does not hold the end up.
        await waitUntil(timeout: 40, "the end") {
            log.count(AVPlayerItem.didPlayToEndTimeNotification) == 1 || item.status == .failed
        }
        let waited = Date().timeIntervalSince(stopped)
        #expect(waited < 6 + 1 + 3 + 2, "ended \(waited) s after the server went away")
        #expect(sink.count % 25 == 0, "whole segments play: \(sink.count) pictures")
        #expect((item.errorLog()?.events.count ?? 0) > 0, "the failed reloads are logged")
        player.replaceCurrentItem(with: nil)
    }

    /// The item's error and logs and the server's requests, for a failure's message.
    private func diagnosis(_ item: AVPlayerItem, _ server: LoopbackHTTPServer) -> String {
        let text = { (data: Data?) in data.map { String(decoding: $0, as: UTF8.self) } ?? "-" }
        return "error: \(String(describing: item.error))\nrequests: \(server.requests.map(\.path))\n"
            + "access log:\n\(text(item.accessLog()?.extendedLogData()))\nerror log:\n\(text(item.errorLog()?.extendedLogData()))"
    }
}
