// Playhead: DASH presentations of WebM segments (VP9, Opus) streamed by Playhead's own loader
// like fragmented MP4 ones: every picture once, the sound beside, the access log, and a switch
// up a bitrate ladder in mid-play with no gap and no picture twice.
import Foundation
import PlayheadTestSupport
import Testing

@testable import OpenAVFoundation

@MainActor
@Suite struct DASHWebMStreamingTests {
    @Test func aWebMLadderIsStreamedThroughPlayheadsLoaderWithEveryPictureOnce() async throws {
        let server = try LoopbackHTTPServer(root: try DASHWebMMedia.folder())
        defer { server.stop() }
        let sink = RecordingVideoSink()
        let item = AVPlayerItem(url: server.url(for: "webm/manifest.mpd"))
        let player = AVPlayer(environment: untimedEnvironment(sink, audio: true), playerItem: item)
        let log = NotificationLog([AVPlayerItem.didPlayToEndTimeNotification], object: item)
        player.play()
        await waitUntil(timeout: 30, "the end") {
            log.count(AVPlayerItem.didPlayToEndTimeNotification) == 1 || item.status == .failed
        }
        player.replaceCurrentItem(with: nil)
        #expect(item.status == .readyToPlay && item.error == nil, "\(String(describing: item.error))")
        let times = sink.distinctMillis()
        #expect(times.count == Int(DASHWebMMedia.duration) * 25, "\(times.count) pictures")
        #expect(zip(times, times.dropFirst()).allSatisfy { $1 - $0 == 40 }, "no gap, no repeat across switches")
        // Playhead's loader streamed it (libavformat's DASH demuxer keeps no access log): the
        // log counts what the server served, the sound's segments each once.
        let paths = server.requests.map(\.path)
        let audio = paths.filter { $0.hasPrefix("/webm/chunk-stream2-") }
        #expect(!audio.isEmpty && Set(audio).count == audio.count, "\(audio)")
        let events = try #require(item.accessLog()?.events)
        let served = paths.filter { $0.hasPrefix("/webm/chunk-") || $0.hasPrefix("/webm/init-") }
        #expect(events.reduce(0) { $0 + $1.numberOfMediaRequests } == served.count)
    }

    @Test func aSwitchUpInMidPlayJoinsTheWebMRepresentationsWithEveryPictureOnce() async throws {
        let server = try LoopbackHTTPServer(root: try DASHWebMMedia.folder())
        defer { server.stop() }
        // A slow link, and the small Representation only until two seconds have shown.
        server.bytesPerSecond = 400_000
        let sink = RecordingVideoSink()
        let item = AVPlayerItem(url: server.url(for: "webm/manifest.mpd"))
        item.preferredPeakBitRate = 300_000
        let player = AVPlayer(environment: untimedEnvironment(sink, audio: true), playerItem: item)
        let log = NotificationLog([AVPlayerItem.didPlayToEndTimeNotification], object: item)
        player.play()
        await waitUntil(timeout: 30, "two seconds shown") { sink.frames.count >= 50 || item.status == .failed }
        item.preferredPeakBitRate = 0
        await waitUntil(timeout: 60, "the end") {
            log.count(AVPlayerItem.didPlayToEndTimeNotification) == 1 || item.status == .failed
        }
        player.replaceCurrentItem(with: nil)
        #expect(item.status == .readyToPlay && item.error == nil, "\(String(describing: item.error))")
        let widths = sink.frames.map(\.frame.width)
        #expect(widths.first == 160 && widths.last == 320, "the ladder was climbed: \(Set(widths)) \(server.requests.map(\.path))")
        let times = sink.distinctMillis()
        #expect(times.count == Int(DASHWebMMedia.duration) * 25, "\(times.count) pictures")
        #expect(zip(times, times.dropFirst()).allSatisfy { $1 - $0 == 40 }, "no gap, no repeat across the switch")
    }

    @Test func anExactSeekIntoAWebMSegmentLandsOnTheFrameAskedFor() async throws {
        let server = try LoopbackHTTPServer(root: try DASHWebMMedia.folder())
        defer { server.stop() }
        let sink = RecordingVideoSink()
        let item = AVPlayerItem(url: server.url(for: "webm/manifest.mpd"))
        let player = AVPlayer(environment: untimedEnvironment(sink, audio: true), playerItem: item)
        let log = NotificationLog([AVPlayerItem.didPlayToEndTimeNotification], object: item)
        await waitUntil("ready") { item.status == .readyToPlay || item.status == .failed }
        #expect(item.accessLog() != nil, "Playhead's loader streams it")
        let target = CMTime(seconds: 7.52, preferredTimescale: 1000)
        #expect(await player.seek(to: target, toleranceBefore: .zero, toleranceAfter: .zero))
        #expect(abs((sink.last?.itemTime.seconds ?? -1) - 7.52) < 0.001, "\(String(describing: sink.last?.itemTime.seconds))")
        sink.reset()
        player.play()
        await waitUntil(timeout: 30, "the end") { log.count(AVPlayerItem.didPlayToEndTimeNotification) == 1 }
        player.replaceCurrentItem(with: nil)
        let times = sink.distinctMillis()
        #expect(times.first.map { $0 >= 7520 } == true && times.count >= 110 && times.count <= 113, "\(times.count) after the seek")
        #expect(zip(times, times.dropFirst()).allSatisfy { $1 - $0 == 40 })
    }
}
