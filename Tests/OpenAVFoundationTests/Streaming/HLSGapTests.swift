// Playhead: segments an HLS playlist marks with `EXT-X-GAP` (RFC 8216bis: the URI holds no
// media and is not to be loaded). Playhead's loader never requests one: it takes the segment
// from the nearest variant that has media there, and where none has, it leaves a hole that the
// engine plays through as silence, the last picture held, with time running at the rate of
// play (as Apple's players do), instead of jumping to the media after it.
import Foundation
import PlayheadTestSupport
import Testing

@testable import OpenAVFoundation

@MainActor
@Suite struct HLSGapTests {
    /// Serves the ladder's variant playlists with `EXT-X-GAP` before `seg3.ts` (3–4 s) in the
    /// variants named in `gaps`.
    private func serveGaps(in gaps: [String], from folder: URL, on server: LoopbackHTTPServer) throws {
        for name in gaps {
            let text = try String(
                contentsOfFile: folder.appendingPathComponent("ladder/\(name)/index.m3u8").path, encoding: .utf8)
            let marked = text.replacingOccurrences(of: "\nseg3.ts\n", with: "\n#EXT-X-GAP\nseg3.ts\n")
            #expect(marked != text, "the playlist lists seg3.ts")
            server.setRule(
                .content(Data(marked.utf8), contentType: "application/vnd.apple.mpegurl"),
                for: "/ladder/\(name)/index.m3u8")
        }
    }

    private func segmentThreeRequests(_ server: LoopbackHTTPServer) -> [String] {
        server.requests.map(\.path).filter { $0.hasSuffix("/seg3.ts") }
    }

    @Test func aGapIsTakenFromAVariantThatHasMediaThere() async throws {
        let folder = try AdaptiveMedia.folder()
        let server = try LoopbackHTTPServer(root: folder)
        defer { server.stop() }
        try serveGaps(in: ["low", "high"], from: folder, on: server)
        let sink = RecordingVideoSink()
        let item = AVPlayerItem(url: server.url(for: "ladder/master.m3u8"))
        let player = AVPlayer(environment: untimedEnvironment(sink), playerItem: item)
        let log = NotificationLog([AVPlayerItem.didPlayToEndTimeNotification], object: item)
        player.play()
        await waitUntil(timeout: 30, "the end") { log.count(AVPlayerItem.didPlayToEndTimeNotification) == 1 }

        // Only from mid (a loaded machine may abandon the request and ask again, from mid).
        #expect(Set(segmentThreeRequests(server)) == ["/ladder/mid/seg3.ts"], "\(server.requests.map(\.path))")
        // Every picture once, 40 ms apart: the segment from the other variant fills the gap.
        let times = sink.distinctMillis()
        #expect(times.count == Int(AdaptiveMedia.duration) * 25, "\(times.count) pictures")
        #expect(zip(times, times.dropFirst()).allSatisfy { $1 - $0 == 40 })
        #expect(item.errorLog()?.events.isEmpty == true, "a gap is not an error")
        #expect(item.status == .readyToPlay)
        player.replaceCurrentItem(with: nil)
    }

    @Test func aGapInEveryVariantIsNotRequestedAndTimeRunsThroughItAsSilence() async throws {
        let folder = try AdaptiveMedia.folder()
        let server = try LoopbackHTTPServer(root: folder)
        defer { server.stop() }
        try serveGaps(in: AdaptiveMedia.variants.map(\.name), from: folder, on: server)
        let sink = RecordingVideoSink()
        let clock = ManualClock()
        let item = AVPlayerItem(url: server.url(for: "ladder/master.m3u8"))
        let sinks = VideoSinks()
        sinks.add(sink)
        let output = ClockDrivenAudioOutput(clock: clock)
        let player = AVPlayer(
            environment: PlaybackEnvironment(hostClock: clock, makeAudioOutput: { output }, videoSinks: sinks),
            playerItem: item)
        await waitUntil(timeout: 30, "ready") { item.status == .readyToPlay }
        await waitUntil(timeout: 30, "the first second to the gap loaded") {
            (item.loadedTimeRanges.last?.timeRangeValue.end.seconds ?? 0) > 5
        }
        player.play()
        await waitUntil(timeout: 30, "playing") { player.timeControlStatus == .playing }
        // The item time, read after each 20 ms step of the clock, until it is past the hole.
        // Each step waits for the real-time audio thread to queue its sound (the silence over
        // the hole too), so a starved audio thread does not hold the audio clock while the
        // steps run out on a loaded machine.
        var readings: [Double] = []
        var moved = 0.0
        while player.currentTime().seconds < 4.6, moved < 30 {
            await advanceFed(clock, by: 0.02, playing: player, output: output)
            moved += 0.02
            readings.append(player.currentTime().seconds)
        }

        #expect(segmentThreeRequests(server).isEmpty, "\(server.requests.map(\.path))")
        #expect((readings.last ?? 0) >= 4.6, "played past the hole: \(readings.suffix(3))")
        // Time never jumps: the hole (3–4 s) takes as long to play as any other second.
        let steps = zip(readings, readings.dropFirst()).map { $1 - $0 }
        #expect(steps.allSatisfy { $0 < 0.2 }, "largest step \(steps.max() ?? 0)")
        #expect(readings.contains { $0 > 3.3 && $0 < 3.7 }, "the clock ran inside the hole")
        // No picture inside the hole; the ones before and after it show.
        let times = sink.frames.map(\.itemTime.seconds)
        #expect(!times.contains { $0 > 3.0 && $0 < 4.0 })
        #expect(times.contains { $0 > 2.9 && $0 < 3.0 } && times.contains { $0 > 4.0 && $0 < 4.1 })
        #expect(item.errorLog()?.events.isEmpty == true)
        #expect(item.status == .readyToPlay)
        player.replaceCurrentItem(with: nil)
    }
}
