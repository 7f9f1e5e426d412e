// Playhead: a live HLS stream of fragmented MP4 segments (`EXT-X-MAP` in every reload of a
// sliding window) through Playhead's own loader, from near the edge to the end list: every
// picture once, each the very picture its variant's own files decode to; and its demuxer states
// no length (the fragments read at open are not the stream's).
import FFmpegBridge
import Foundation
import PlayheadTestSupport
import Testing

@testable import OpenAVFoundation

@MainActor
@Suite struct LiveFragmentedStreamingTests {
    private func millis(_ time: CMTime) -> Int { Int((time.seconds * 1000).rounded()) }

    /// The demuxer Playhead's loader opens for the master playlist at `path` on `server`.
    private func streamedDemuxer(_ server: LoopbackHTTPServer, _ path: String) async throws -> Demuxer {
        let url = server.url(for: path)
        return try await Task.detached {
            try StreamedOpen.demuxer(for: MediaLocation(url: url), timeout: 10, interrupt: InterruptDeadline()).demuxer
        }.value
    }

    // libavformat gives the container the length of the fragments it read while opening (here
    // about a second past seg1's start): taken for the stream's, it capped the buffered range
    // (playback waited for the end list) and the seeks that follow the live window.
    @Test func aLiveFragmentedMP4StreamsDemuxerStatesNoLengthWhereTheSameLadderAsVODStatesItsOwn() async throws {
        let folder = try AdaptiveMedia.fragmentedFolder()
        let server = try LoopbackHTTPServer(root: folder)
        defer { server.stop() }
        let live = LiveLadder(server: server, window: 4, published: 4, fragmented: true)
        defer { live.stop() }
        let streamed = try await streamedDemuxer(server, "live/master.m3u8")
        #expect(streamed.streamingInput != nil, "Playhead's loader streams it")
        #expect(streamed.description.duration.isIndefinite, "\(streamed.description.duration.seconds)")
        #expect(streamed.description.streams.allSatisfy { !$0.duration.isValid }, "no stream states a length")
        streamed.streamingInput?.close()
        let vod = try await streamedDemuxer(server, "ladder/master.m3u8")
        #expect(vod.streamingInput != nil, "Playhead's loader streams it")
        #expect(millis(vod.description.duration) == Int(AdaptiveMedia.fragmentedDuration * 1000), "\(vod.description.duration.seconds)")
        vod.streamingInput?.close()
    }

    // A live playlist grows with the wall clock: this runs in the real-time pass.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["PLAYHEAD_REALTIME_TESTS"] != nil))
    func aLiveFragmentedMP4StreamPlaysEveryPictureFromNearTheEdgeToTheEndInRealTime() async throws {
        let folder = try AdaptiveMedia.fragmentedFolder()
        let segments = Int(AdaptiveMedia.fragmentedDuration)
        var references: [Int: [Int: UInt64]] = [:]
        for variant in AdaptiveMedia.variants.prefix(2) {
            let directory = folder.appendingPathComponent("ladder/\(variant.name)")
            references[variant.width] = try SectionedStreamingTests().referencePictures(
                [directory.appendingPathComponent("init.mp4")]
                    + (0..<segments).map { directory.appendingPathComponent("seg\($0).m4s") })
        }
        let server = try LoopbackHTTPServer(root: folder)
        defer { server.stop() }
        // Segments 0...3 listed: three target durations back from the edge is seg1.
        let live = LiveLadder(server: server, window: 4, published: 4, fragmented: true)
        defer { live.stop() }
        let sink = RecordingVideoSink()
        let item = AVPlayerItem(url: server.url(for: "live/master.m3u8"))
        let player = AVPlayer(environment: untimedEnvironment(sink), playerItem: item)
        let log = NotificationLog([AVPlayerItem.didPlayToEndTimeNotification], object: item)
        await waitUntil("ready") { item.status == .readyToPlay }
        #expect(item.duration.isIndefinite, "a live item has no length")
        #expect(item.accessLog() != nil, "Playhead's loader streamed it, not libavformat")
        player.play()
        live.grow(every: 1, ending: true)
        await waitUntil(timeout: 30, "the end") { log.count(AVPlayerItem.didPlayToEndTimeNotification) == 1 }

        let fetched = server.requests.map(\.path).filter { $0.hasSuffix(".m4s") }
        #expect(fetched.first?.hasSuffix("/seg1.m4s") == true, "\(fetched)")
        let frames = sink.frames
        let times = frames.map { millis($0.itemTime) }
        #expect(times.count == (segments - 1) * 25, "\(times.count) pictures")
        #expect(zip(times, times.dropFirst()).allSatisfy { $1 - $0 == 40 }, "no gap and no repeat")
        // A live item's time starts at the first playlist read, so the pictures are matched by
        // order: the first one shown is the first of seg1, one second (a segment) after the
        // files' first picture, then every next. (The files' pictures are timed from the audio's
        // earlier start, so seg0's last one lies at 984 ms: seg1's is not the first past 980 ms.)
        let first = times.first ?? 0
        #expect(first >= 1000 && first < 1100, "\(first)")
        let mismatched = frames.filter { entry in
            guard let reference = references[entry.frame.width],
                let seg1 = reference.keys.min().map({ $0 + 1000 })
            else { return true }
            return reference[seg1 + millis(entry.itemTime) - first] != entry.frame.checksum()
        }
        #expect(mismatched.isEmpty, "\(mismatched.count) of \(frames.count) pictures differ")
        for name in ["low", "mid"] {
            #expect(server.requests.filter { $0.path == "/ladder/\(name)/init.mp4" }.count <= 1, "\(name)/init.mp4 once")
        }
        #expect(item.errorLog()?.events.isEmpty == true)
        player.replaceCurrentItem(with: nil)
    }
}

