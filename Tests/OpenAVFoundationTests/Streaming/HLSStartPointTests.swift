// Playhead: `EXT-X-START` (RFC 8216 §4.3.5.2): an HLS item opens where its playlist asks, in a
// VOD item's length or a live item's window, precisely or at the segment's keyframe, unless
// the app asked for a time first.
import Foundation
import PlayheadTestSupport
import Testing

@testable import OpenAVFoundation

@MainActor
@Suite struct HLSStartPointTests {
    private let base = URL(string: "https://media.example/show/index.m3u8")!

    @Test func theStartPointIsReadFromEitherPlaylistAndPlacedInARange() throws {
        let media = try HLSPlaylist.parse(
            "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXT-X-START:TIME-OFFSET=-4.5,PRECISE=YES\n#EXTINF:2,\na.ts\n", base: base)
        guard case .media(let playlist) = media else { Issue.record("a media playlist"); return }
        #expect(playlist.startPoint?.offset == -4.5 && playlist.startPoint?.precise == true)
        let master = try HLSPlaylist.parse(
            "#EXTM3U\n#EXT-X-START:TIME-OFFSET=12\n#EXT-X-STREAM-INF:BANDWIDTH=1\nlow.m3u8\n", base: base)
        guard case .multivariant(let multivariant) = master else { Issue.record("a master playlist"); return }
        #expect(multivariant.startPoint?.offset == 12 && multivariant.startPoint?.precise == false)
        // Without a numeric TIME-OFFSET there is no start point.
        #expect(HLSStartPoint(attributes: ["PRECISE": "YES"]) == nil)
        #expect(HLSStartPoint(attributes: ["TIME-OFFSET": "soon"]) == nil)
        // From the start when positive, from the end when negative; past either end, that end.
        func time(_ offset: String, _ range: ClosedRange<Double>) -> Double? {
            HLSStartPoint(attributes: ["TIME-OFFSET": offset])?.time(in: range)
        }
        #expect(time("4.5", 0...12) == 4.5 && time("-3", 0...12) == 9)
        #expect(time("-1", 20...24) == 23 && time("1", 20...24) == 21)
        #expect(time("30", 0...12) == 12 && time("-30", 20...24) == 20)
    }

    /// The ladder (a keyframe every second, 12 s) under a master playlist that starts with
    /// `lines`, served as `ladder/start.m3u8`.
    private func serve(_ lines: [String], on server: LoopbackHTTPServer) -> URL {
        let master = ["#EXTM3U"] + lines + AdaptiveMedia.variants.flatMap { variant in
            ["#EXT-X-STREAM-INF:BANDWIDTH=\(variant.bandwidth),RESOLUTION=\(variant.width)x\(variant.height)",
             "\(variant.name)/index.m3u8"]
        }
        server.setRule(
            .content(Data((master.joined(separator: "\n") + "\n").utf8), contentType: "application/vnd.apple.mpegurl"),
            for: "/ladder/start.m3u8")
        return server.url(for: "ladder/start.m3u8")
    }

    @Test(arguments: [
        ("TIME-OFFSET=4.5,PRECISE=YES", 4.5), ("TIME-OFFSET=-3.2,PRECISE=YES", 8.8),
    ])
    func aVODItemOpensExactlyWhereItsPlaylistAsks(_ attributes: String, expected: Double) async throws {
        let server = try LoopbackHTTPServer(root: try AdaptiveMedia.folder())
        defer { server.stop() }
        let sink = RecordingVideoSink()
        let item = AVPlayerItem(url: serve(["#EXT-X-START:\(attributes)"], on: server))
        let player = AVPlayer(environment: untimedEnvironment(sink), playerItem: item)
        await waitUntil("ready") { item.status == .readyToPlay }
        await waitUntil("at the start point") { abs(player.currentTime().seconds - expected) < 0.001 }
        player.play()
        await waitUntil("a second played") { (sink.frames.last?.itemTime.seconds ?? 0) >= expected + 1 }
        #expect(milliseconds(sink).count > 20, "\(milliseconds(sink)) \(logs(of: item))")
        // The picture at the point (stamped with its time, as after any exact seek), then the
        // pictures after it, 25 a second (a first picture at zero may show before the item moves).
        let times = milliseconds(sink)
        #expect(times.first == Int((expected * 1000).rounded()), "\(times) \(logs(of: item))")
        #expect(times.count > 1 && times[1] - times[0] < 40, "\(times)")
        #expect(zip(times.dropFirst(), times.dropFirst(2)).allSatisfy { $1 - $0 == 40 }, "\(times)")
        player.replaceCurrentItem(with: nil)
    }

    @Test func withoutPreciseTheItemOpensAtTheKeyframeStartingTheSegmentHoldingThePoint() async throws {
        let server = try LoopbackHTTPServer(root: try AdaptiveMedia.folder())
        defer { server.stop() }
        let sink = RecordingVideoSink()
        let item = AVPlayerItem(url: serve(["#EXT-X-START:TIME-OFFSET=4.5"], on: server))
        let player = AVPlayer(environment: untimedEnvironment(sink), playerItem: item)
        await waitUntil("ready") { item.status == .readyToPlay }
        // Segment 4 (4–5 s): its first picture follows its start by less than a frame.
        await waitUntil("at the segment") { (4.0..<4.04).contains(player.currentTime().seconds) }
        player.play()
        await waitUntil("a second played") { (sink.frames.last?.itemTime.seconds ?? 0) >= 5 }
        #expect((milliseconds(sink).last ?? 0) >= 5000, "\(milliseconds(sink)) \(logs(of: item))")
        let times = milliseconds(sink)
        #expect((4000..<4040).contains(times.first ?? 0), "\(times) \(logs(of: item))")
        #expect(zip(times, times.dropFirst()).allSatisfy { $1 - $0 == 40 }, "\(times)")
        player.replaceCurrentItem(with: nil)
    }

    /// The item's access and error logs, for a failure's message.
    private func logs(of item: AVPlayerItem) -> String {
        let text = { (data: Data?) in data.map { String(decoding: $0, as: UTF8.self) } ?? "-" }
        return "access log:\n\(text(item.accessLog()?.extendedLogData()))\nerror log:\n\(text(item.errorLog()?.extendedLogData()))"
    }

    /// The item times of the pictures `sink` was given after zero, in milliseconds, each once
    /// (a picture shown while paused shows again when playback starts).
    private func milliseconds(_ sink: RecordingVideoSink) -> [Int] {
        sink.frames.map { Int(($0.itemTime.seconds * 1000).rounded()) }.filter { $0 > 100 }
            .reduce(into: [Int]()) { if $0.last != $1 { $0.append($1) } }
    }

    @Test func aSeekTheAppAskedForBeforeTheItemWasReadyWins() async throws {
        let server = try LoopbackHTTPServer(root: try AdaptiveMedia.folder())
        defer { server.stop() }
        let item = AVPlayerItem(url: serve(["#EXT-X-START:TIME-OFFSET=6,PRECISE=YES"], on: server))
        let player = AVPlayer(environment: untimedEnvironment(RecordingVideoSink()), playerItem: item)
        let landed = Locked<Bool?>(nil)
        player.seek(to: CMTime(seconds: 2, preferredTimescale: 1), toleranceBefore: .zero, toleranceAfter: .zero) {
            finished in landed.withLock { $0 = finished }
        }
        await waitUntil("the app's seek") { landed.withLock { $0 } != nil }
        #expect(landed.withLock { $0 } == true)
        #expect(player.currentTime() == CMTime(seconds: 2, preferredTimescale: 1))
        player.replaceCurrentItem(with: nil)
    }

    // A live playlist grows with the wall clock: this runs in the real-time pass.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["PLAYHEAD_REALTIME_TESTS"] != nil))
    func aLiveItemOpensAtItsPlaylistsStartPointInTheWindowInRealTime() async throws {
        let server = try LoopbackHTTPServer(root: try AdaptiveMedia.folder())
        defer { server.stop() }
        // Segments 2...5 listed (a 4 s window); half a second before its end is in segment 5,
        // which starts at 3 s.
        let live = LiveLadder(
            server: server, window: 4, published: 6, masterLines: ["#EXT-X-START:TIME-OFFSET=-0.5"])
        defer { live.stop() }
        let sink = RecordingVideoSink()
        let item = AVPlayerItem(url: server.url(for: "live/master.m3u8"))
        let player = AVPlayer(environment: untimedEnvironment(sink), playerItem: item)
        await waitUntil("ready") { item.status == .readyToPlay }
        #expect(item.recommendedTimeOffsetFromLive == CMTime(seconds: 3, preferredTimescale: 1000), "unchanged")
        player.play()
        live.grow(every: 1, ending: false)
        await waitUntil(timeout: 10, "the edge") { sink.frames.contains { $0.itemTime.seconds >= 3.9 } }
        // (A first picture at the default start, 1 s, may show before the item moves.)
        let times = sink.frames.map { Int(($0.itemTime.seconds * 1000).rounded()) }.filter { $0 >= 1100 }
        #expect((times.first ?? 0) >= 3000 && (times.first ?? 0) < 3100, "\(times.prefix(5))")
        #expect(zip(times, times.dropFirst()).allSatisfy { $1 - $0 == 40 }, "\(times)")
        player.replaceCurrentItem(with: nil)
    }
}
