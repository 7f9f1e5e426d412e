// Playhead: DASH presentations of WebM segments (VP9, Opus) streamed by Playhead's own loader
// like fragmented MP4 ones: every picture once, the sound beside, the access log, and a switch
// between Representations in mid-play with no gap and no picture twice.
import Foundation
import PlayheadTestSupport
import Testing

@testable import OpenAVFoundation

@MainActor
@Suite struct DASHWebMStreamingTests {
    @Test func aWebMLadderIsStreamedThroughPlayheadsLoaderWithEveryPictureOnce() async throws {
        let server = try LoopbackHTTPServer(root: try DASHWebMMedia.folder())
        defer { server.stop() }
        let played = await playUntimed(AVURLAsset(url: server.url(for: "webm/manifest.mpd")), audio: true)
        let item = played.item
        #expect(played.reachedEnd && item.error == nil, "\(String(describing: item.error))")
        let times = played.sink.distinctMillis()
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

    @Test func aWebMFileIndexedByItsCuesIsStreamedThroughPlayheadsLoaderWithEveryPictureOnce() async throws {
        let server = try LoopbackHTTPServer(root: try DASHWebMMedia.indexedFolder())
        defer { server.stop() }
        let played = await playUntimed(AVURLAsset(url: server.url(for: "cues/manifest.mpd")), audio: true)
        let item = played.item
        #expect(played.reachedEnd && item.error == nil, "\(String(describing: item.error))")
        let times = played.sink.distinctMillis()
        #expect(times.count == Int(DASHWebMMedia.duration) * 25, "\(times.count) pictures")
        #expect(zip(times, times.dropFirst()).allSatisfy { $1 - $0 == 40 }, "no gap, no repeat")
        // Byte ranges of the files (the initialisation sections, the Cues, the clusters), never
        // a whole file; the access log counts what the server served.
        let files = server.requests.filter { $0.path.hasSuffix(".webm") }
        #expect(!files.isEmpty && files.allSatisfy { $0.range != nil }, "\(files.map { "\($0.path) \($0.range ?? "-")" })")
        #expect(files.contains { $0.path == "/cues/audio.webm" }, "the sound beside")
        let events = try #require(item.accessLog()?.events)
        // (The index reads of the open, each Representation's Cues and initialisation section, are
        // not media requests.)
        #expect(events.reduce(0) { $0 + $1.numberOfMediaRequests } == files.count - 6, "\(files.count) requests, \(events.map(\.numberOfMediaRequests))")
    }

    @Test func aSwitchInMidPlayJoinsTheWebMRepresentationsWithEveryPictureOnce() async throws {
        let server = try LoopbackHTTPServer(root: try DASHWebMMedia.folder())
        defer { server.stop() }
        // The process measured this server fast before: playback starts on the large
        // Representation. Its third segment is held back until a peak bit rate has asked for
        // the small one: from the third segment on, the small one plays (given up for the
        // small one first if the hold outlasts the loader's patience, as on a loaded machine).
        let url = server.url(for: "webm/manifest.mpd")
        ProcessThroughput.remember(20_000_000, for: HLSStreamLoader.serverKey(url))
        server.setRule(.hold(atByte: 0), for: "/webm/chunk-stream1-00003.webm")
        let sink = RecordingVideoSink()
        let item = AVPlayerItem(url: url)
        let player = AVPlayer(environment: untimedEnvironment(sink, audio: true), playerItem: item)
        let log = NotificationLog([AVPlayerItem.didPlayToEndTimeNotification], object: item)
        player.play()
        // (A loaded machine may measure the open slow and take the small one for the third
        // segment on its own: then nothing waits for the peak bit rate.)
        await waitUntil(timeout: 30, "the third segment asked for") {
            server.requests.contains { request in
                request.path == "/webm/chunk-stream1-00003.webm"
                    || (request.path.hasPrefix("/webm/chunk-stream0-") && request.path >= "/webm/chunk-stream0-00003")
            } || item.status == .failed
        }
        item.preferredPeakBitRate = 300_000
        server.releaseHolds()
        await waitUntil(timeout: 60, "the end") {
            log.count(AVPlayerItem.didPlayToEndTimeNotification) == 1 || item.status == .failed
        }
        player.replaceCurrentItem(with: nil)
        #expect(item.status == .readyToPlay && item.error == nil, "\(String(describing: item.error))")
        let paths = server.requests.map(\.path)
        let video = paths.filter { $0.hasPrefix("/webm/chunk-stream0-") || $0.hasPrefix("/webm/chunk-stream1-") }
        #expect(video.first == "/webm/chunk-stream1-00001.webm", "started on the large one: \(paths)")
        #expect(video.contains { $0.hasPrefix("/webm/chunk-stream0-") && $0 >= "/webm/chunk-stream0-00003" }, "\(paths)")
        #expect(sink.frames.contains { $0.frame.width == 160 }, "the small one played")
        let times = sink.distinctMillis()
        #expect(times.count == Int(DASHWebMMedia.duration) * 25, "\(times.count) pictures")
        #expect(zip(times, times.dropFirst()).allSatisfy { $1 - $0 == 40 }, "no gap, no repeat across the switch")
    }

    /// Segments of a `SegmentTemplate` (`false`), and subsegments of one file indexed by its
    /// Cues (`true`).
    @Test(arguments: [false, true])
    func anExactSeekIntoAWebMSegmentLandsOnTheFrameAskedFor(indexed: Bool) async throws {
        let server = try LoopbackHTTPServer(root: try indexed ? DASHWebMMedia.indexedFolder() : DASHWebMMedia.folder())
        defer { server.stop() }
        let sink = RecordingVideoSink()
        let item = AVPlayerItem(url: server.url(for: indexed ? "cues/manifest.mpd" : "webm/manifest.mpd"))
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
