// Playhead: Playhead's own HLS loader against a loopback server whose bandwidth the test
// changes: it climbs from the lowest variant on a fast link, abandons a segment and switches down
// when the link falls away, joins the variants without a gap or a repeated picture, and its
// access log matches what the server served. The loader measures throughput on the wall
// clock, which a machine busy with other tests slows, so those run in the serial pass of
// `make test` (`PLAYHEAD_REALTIME_TESTS`, names ending in `OverAShapedLink`).
import Foundation
import PlayheadTestSupport
import Testing

@testable import OpenAVFoundation

@MainActor
@Suite struct AdaptiveStreamingTests {
    /// The variant names of the segments the server served, in order ("low", "mid", "high").
    private func segmentVariants(_ server: LoopbackHTTPServer) -> [String] {
        server.requests.map(\.path).filter { $0.hasSuffix(".ts") }.map { $0.split(separator: "/").dropLast().last.map(String.init) ?? "" }
    }

    @Test(.enabled(if: ProcessInfo.processInfo.environment["PLAYHEAD_REALTIME_TESTS"] != nil))
    func aDropInBandwidthSwitchesDownAtASegmentBoundaryWithoutAGapOverAShapedLink() async throws {
        let folder = try AdaptiveMedia.folder()
        let server = try LoopbackHTTPServer(root: folder)
        defer { server.stop() }
        // 16 Mbit/s: fast enough for the top variant, slow enough that the drop comes while
        // most of the clip is still to be fetched.
        server.bytesPerSecond = 2_000_000
        let sink = RecordingVideoSink()
        let item = AVPlayerItem(url: server.url(for: "ladder/master.m3u8"))
        let player = AVPlayer(environment: untimedEnvironment(sink), playerItem: item)
        let log = NotificationLog(
            [AVPlayerItem.didPlayToEndTimeNotification, AVPlayerItem.newAccessLogEntryNotification], object: item)
        player.play()
        // Two requests of the top variant: the first of them has arrived whole.
        await waitUntil(timeout: 30, "the top variant") { segmentVariants(server).filter { $0 == "high" }.count >= 2 }
        server.bytesPerSecond = 40_000  // 320 kbit/s: only the lowest variant fits
        await waitUntil(timeout: 60, "the end") { log.count(AVPlayerItem.didPlayToEndTimeNotification) == 1 }

        // Up from the lowest variant at the start, down to it after the drop.
        let variants = segmentVariants(server)
        #expect(variants.first == "low")
        let firstHigh = try #require(variants.firstIndex(of: "high"))
        let lastHigh = try #require(variants.lastIndex(of: "high"))
        #expect(variants[(lastHigh + 1)...].allSatisfy { $0 == "low" } && variants.last == "low")
        // Up to three segments come at the start variant while the asset opens (before the
        // player takes the stream); then one fast transfer is enough to go up.
        #expect(firstHigh <= 4, "the loader climbs as soon as the player takes the stream")

        // Every picture once, in order, 40 ms apart, across both switches; the size changes on
        // a whole second (a segment boundary).
        let frames = sink.frames
        #expect(frames.count == Int(AdaptiveMedia.duration * 25))
        let steps = zip(frames, frames.dropFirst()).map { ($1.pts - $0.pts).seconds }
        #expect(steps.allSatisfy { abs($0 - 0.04) < 0.001 }, "no gap and no repeat")
        // Segments start every second from the first picture (MPEG-TS timestamps start after zero).
        let first = frames.first?.pts.seconds ?? 0
        let changes = zip(frames, frames.dropFirst()).filter { $0.frame.width != $1.frame.width }
            .map { $1.pts.seconds - first }
        #expect(changes.count >= 2)
        #expect(changes.allSatisfy { abs($0 - $0.rounded()) < 0.001 }, "switches land on segment boundaries: \(changes)")
        #expect(frames.last?.frame.width == 160)

        // The access log: one event per variant stretch, and the server's own counts.
        let events = try #require(item.accessLog()?.events)
        #expect(events.count >= 3)
        #expect(events.map(\.indicatedBitrate).first == 250_000 && events.last?.indicatedBitrate == 250_000)
        #expect(events.dropFirst().allSatisfy { $0.switchBitrate > 0 })
        #expect(events.contains { $0.downloadOverdue > 0 } || variants.count == 12, "the slow segment was abandoned")
        let served = server.requests.map(\.path).filter { $0.hasSuffix(".ts") }
        #expect(events.reduce(0) { $0 + $1.numberOfMediaRequests } == served.count)
        let completedBytes = try served.dropLast(0).reduce(Int64(0)) { total, path in
            let size = try FileManager.default.attributesOfItem(atPath: folder.path + path)[.size] as? Int ?? 0
            return total + Int64(size)
        }
        let logged = events.reduce(Int64(0)) { $0 + $1.numberOfBytesTransferred }
        #expect(logged <= completedBytes && logged > completedBytes - 400_000, "within one abandoned segment")
        #expect(log.count(AVPlayerItem.newAccessLogEntryNotification) >= 2)
        #expect(item.accessLog()?.extendedLogData().flatMap { String(data: $0, encoding: .utf8) }?.contains("#Fields: date time uri") == true)
        player.replaceCurrentItem(with: nil)
    }

    @Test(.enabled(if: ProcessInfo.processInfo.environment["PLAYHEAD_REALTIME_TESTS"] != nil))
    func thePeakBitRateCapsTheLadderDuringPlaybackOverAShapedLink() async throws {
        let folder = try AdaptiveMedia.folder()
        let server = try LoopbackHTTPServer(root: folder)
        defer { server.stop() }
        let sink = RecordingVideoSink()
        let item = AVPlayerItem(url: server.url(for: "ladder/master.m3u8"))
        server.bytesPerSecond = 400_000  // 3.2 Mbit/s: a segment of the middle variant takes 0.25 s
        item.preferredMaximumResolution = CGSize(width: 320, height: 180)
        let player = AVPlayer(environment: untimedEnvironment(sink), playerItem: item)
        let log = NotificationLog([AVPlayerItem.didPlayToEndTimeNotification], object: item)
        player.play()
        await waitUntil(timeout: 30, "the capped top") { segmentVariants(server).contains("mid") }
        item.preferredPeakBitRate = 300_000
        await waitUntil(timeout: 60, "the end") { log.count(AVPlayerItem.didPlayToEndTimeNotification) == 1 }
        let variants = segmentVariants(server)
        #expect(!variants.contains("high"), "the resolution cap holds")
        #expect(variants.last == "low", "the peak bit rate set during playback applies")
        #expect(sink.frames.allSatisfy { $0.frame.width <= 320 })
        player.replaceCurrentItem(with: nil)
    }

    @Test func aSeekPastTheBufferStartsTheLoaderAtTheSegmentHoldingTheTarget() async throws {
        let folder = try AdaptiveMedia.folder()
        let server = try LoopbackHTTPServer(root: folder)
        defer { server.stop() }
        let sink = RecordingVideoSink()
        let item = AVPlayerItem(url: server.url(for: "ladder/master.m3u8"))
        item.preferredForwardBufferDuration = 2
        let player = AVPlayer(environment: untimedEnvironment(sink), playerItem: item)
        let log = NotificationLog([AVPlayerItem.didPlayToEndTimeNotification], object: item)
        await waitUntil("ready, buffer full") { item.status == .readyToPlay && item.isPlaybackBufferFull }
        #expect(item.duration.seconds == AdaptiveMedia.duration, "the playlist gives the length")
        #expect(item.seekableTimeRanges.first?.timeRangeValue.duration.seconds == AdaptiveMedia.duration)

        let target = CMTime(seconds: 9.5, preferredTimescale: 1000)
        #expect(await player.seek(to: target, toleranceBefore: .zero, toleranceAfter: .zero))
        #expect(abs(player.currentTime().seconds - 9.5) < 0.01)
        #expect(abs((sink.last?.itemTime.seconds ?? -1) - 9.5) < 0.05)
        let afterSeek = server.requests.map(\.path).filter { $0.hasSuffix(".ts") }
        #expect(afterSeek.contains { $0.hasSuffix("/seg9.ts") }, "the segment holding 9.5 s")
        #expect(!afterSeek.contains { $0.hasSuffix("/seg6.ts") || $0.hasSuffix("/seg7.ts") }, "nothing in between")

        sink.reset()
        player.play()
        await waitUntil(timeout: 30, "the end") { log.count(AVPlayerItem.didPlayToEndTimeNotification) == 1 }
        let times = sink.frames.map(\.itemTime.seconds)
        #expect(times.count >= 55 && times.count <= 64, "2.5 s of pictures after the seek: \(times.count)")
        #expect(zip(times, times.dropFirst()).allSatisfy { abs($1 - $0 - 0.04) < 0.001 })
        player.replaceCurrentItem(with: nil)
    }

    @Test func aSegmentThatAPlaylistPointsAtALocalFileIsSkippedAndLogged() async throws {
        let folder = try AdaptiveMedia.folder()
        let server = try LoopbackHTTPServer(root: folder)
        defer { server.stop() }
        try AdaptiveMedia.serveFourthSegmentAsALocalFile(from: folder, on: server)
        let sink = RecordingVideoSink()
        let item = AVPlayerItem(url: server.url(for: "ladder/master.m3u8"))
        let player = AVPlayer(environment: untimedEnvironment(sink), playerItem: item)
        let log = NotificationLog(
            [AVPlayerItem.didPlayToEndTimeNotification, AVPlayerItem.newErrorLogEntryNotification], object: item)
        player.play()
        await waitUntil(timeout: 30, "the end") { log.count(AVPlayerItem.didPlayToEndTimeNotification) == 1 }
        let events = try #require(item.errorLog()?.events)
        #expect(events.count == 1)
        #expect(events.first?.uri == "file:///etc/passwd")
        #expect(events.first?.errorComment?.contains("refused") == true)
        #expect(log.count(AVPlayerItem.newErrorLogEntryNotification) == 1)
        // The fourth second is missing; the eleven others play.
        let times = sink.frames.map(\.itemTime.seconds)
        #expect(!times.contains { $0 > 3.2 && $0 < 4.0 })
        #expect(times.count == 11 * 25, "\(times.count) pictures")
        #expect((times.last ?? 0) > 11.5)
        #expect(item.status == .readyToPlay)
        player.replaceCurrentItem(with: nil)
    }

    @Test func anAES128LadderIsDecryptedWithOneKeyRequest() async throws {
        let folder = try AdaptiveMedia.encryptedFolder()
        let playlist = try String(contentsOf: folder.appendingPathComponent("ladder/low/index.m3u8"), encoding: .utf8)
        #expect(playlist.contains("METHOD=AES-128"), "the fixture is encrypted")
        let server = try LoopbackHTTPServer(root: folder)
        defer { server.stop() }
        let sink = RecordingVideoSink()
        let item = AVPlayerItem(url: server.url(for: "ladder/master.m3u8"))
        let player = AVPlayer(environment: untimedEnvironment(sink), playerItem: item)
        let log = NotificationLog([AVPlayerItem.didPlayToEndTimeNotification], object: item)
        player.play()
        await waitUntil(timeout: 30, "the end") { log.count(AVPlayerItem.didPlayToEndTimeNotification) == 1 }
        #expect(sink.frames.count == 100, "every picture of the 4 s decrypts and decodes")
        #expect(item.errorLog()?.events.isEmpty == true)
        #expect(item.accessLog() != nil, "Playhead's loader streamed it, not libavformat")
        #expect(server.requests.filter { $0.path == "/ladder/key.bin" }.count == 1, "one key request for all segments")
        player.replaceCurrentItem(with: nil)
    }

    @Test func theAccessLogAccountsForWhatWasWatched() async throws {
        let folder = try AdaptiveMedia.folder()
        let server = try LoopbackHTTPServer(root: folder)
        defer { server.stop() }
        let item = AVPlayerItem(url: server.url(for: "ladder/master.m3u8"))
        let player = AVPlayer(environment: untimedEnvironment(RecordingVideoSink()), playerItem: item)
        let log = NotificationLog([AVPlayerItem.didPlayToEndTimeNotification], object: item)
        player.play()
        await waitUntil(timeout: 30, "the end") { log.count(AVPlayerItem.didPlayToEndTimeNotification) == 1 }
        let events = try #require(item.accessLog()?.events)
        #expect(!events.isEmpty)
        // Every second of the clip is watched once, across however many variants played.
        let watched = events.map(\.durationWatched).reduce(0, +)
        #expect(abs(watched - AdaptiveMedia.duration) < 0.1, "\(events.map(\.durationWatched))")
        #expect(events.allSatisfy { $0.durationWatched >= 0 })
        let first = try #require(events.first)
        #expect(first.startupTime >= 0 && first.startupTime < 30)
        #expect(events.dropFirst().allSatisfy { $0.startupTime == 0 })
        #expect(events.last?.numberOfDroppedVideoFrames == 0, "an untimed run drops nothing")
        #expect(events.allSatisfy { $0.serverAddress == "127.0.0.1" && $0.numberOfServerAddressChanges == 0 })
        player.replaceCurrentItem(with: nil)
    }

    @Test func aVariantWhosePlaylistIsMissingIsLeftOut() async throws {
        let folder = try AdaptiveMedia.folder()
        let server = try LoopbackHTTPServer(root: folder)
        defer { server.stop() }
        server.setRule(.notFound, for: "/ladder/high/index.m3u8")
        let sink = RecordingVideoSink()
        let item = AVPlayerItem(url: server.url(for: "ladder/master.m3u8"))
        let player = AVPlayer(environment: untimedEnvironment(sink), playerItem: item)
        let log = NotificationLog([AVPlayerItem.didPlayToEndTimeNotification], object: item)
        player.play()
        await waitUntil(timeout: 30, "the end") { log.count(AVPlayerItem.didPlayToEndTimeNotification) == 1 }
        #expect(sink.frames.count == Int(AdaptiveMedia.duration * 25))
        #expect(!segmentVariants(server).contains("high"))
        let missing = item.errorLog()?.events.filter { $0.uri?.hasSuffix("/ladder/high/index.m3u8") == true } ?? []
        #expect(missing.count <= 1 && missing.allSatisfy { $0.errorStatusCode == 404 }, "asked for once at most")
        #expect(server.requests.filter { $0.path == "/ladder/high/index.m3u8" }.count <= 1)
        player.replaceCurrentItem(with: nil)
    }
}
