// Playhead: seeking network media: inside what is buffered the packets already read are
// replayed (no new request), outside it the demuxer asks the server again; and the forward
// buffer follows `preferredForwardBufferDuration`.
import Foundation
import PlayheadTestSupport
import Testing

@testable import OpenAVFoundation

@MainActor
@Suite struct NetworkSeekTests {
    /// A paused player on `name` that buffers `forward` seconds ahead.
    static func pausedPlayer(
        _ server: LoopbackHTTPServer, _ name: String = "progressive.mp4", forward: Double, sink: RecordingVideoSink
    ) -> (AVPlayer, AVPlayerItem) {
        let item = AVPlayerItem(url: server.url(for: name))
        item.preferredForwardBufferDuration = forward
        let player = AVPlayer(environment: untimedEnvironment(sink), playerItem: item)
        return (player, item)
    }

    @Test func theForwardBufferStopsAtThePreferredDuration() async throws {
        let server = try networkMediaServer()
        defer { server.stop() }
        let (player, item) = Self.pausedPlayer(server, forward: 2, sink: RecordingVideoSink())
        await waitUntil("buffer full") { item.isPlaybackBufferFull }
        await mainQueueSleep(nanoseconds: 200_000_000)
        let end = try #require(item.loadedTimeRanges.first?.timeRangeValue.end.seconds)
        #expect(end >= 2 && end < 3.2, "a 2 s forward buffer reads about 2 s ahead: \(end)")
        #expect(item.isPlaybackLikelyToKeepUp)
        #expect(!item.isPlaybackBufferEmpty)
        player.replaceCurrentItem(with: nil)

        let (automatic, whole) = Self.pausedPlayer(server, forward: 0, sink: RecordingVideoSink())
        await waitUntil("the automatic network buffer reads the whole clip") {
            whole.loadedTimeRanges.first?.timeRangeValue.end == whole.duration
        }
        automatic.replaceCurrentItem(with: nil)
    }

    @Test func aSeekInsideTheBufferMakesNoRequestAndOneOutsideDoes() async throws {
        let server = try networkMediaServer()
        defer { server.stop() }
        let sink = RecordingVideoSink()
        // heavy.mp4 is dense enough that a jump past the buffer is a new request, not a read-on.
        let (player, item) = Self.pausedPlayer(server, "heavy.mp4", forward: 2, sink: sink)
        await waitUntil("buffer full") { item.isPlaybackBufferFull }
        server.clearRequests()

        // Back and forth inside [0, ~2.4]: served from memory.
        for target in [0.8, 0.2, 0.5] {
            let time = CMTime(seconds: target, preferredTimescale: 1000)
            let finished = await player.seek(to: time, toleranceBefore: .zero, toleranceAfter: .zero)
            #expect(finished)
            #expect(abs(player.currentTime().seconds - target) < 0.01)
            #expect(abs((sink.last?.itemTime.seconds ?? -1) - target) < 0.05, "frame at \(target)")
        }
        #expect(server.requests.isEmpty, "no request for buffered seeks: \(server.requests)")
        #expect(item.loadedTimeRanges.first?.timeRangeValue.start == .zero, "the range is kept")

        let buffered = try #require(item.loadedTimeRanges.first?.timeRangeValue.end.seconds)
        #expect(buffered < 3.5, "reading stopped about 2 s ahead: \(buffered)")

        // Far outside: the demuxer itself seeks. (libavformat reads on over the open connection
        // when the jump fits its TCP window, so a new request is not guaranteed; any request
        // made asks for a range past the start.)
        let far = CMTime(seconds: 3.6, preferredTimescale: 1000)
        #expect(await player.seek(to: far, toleranceBefore: .zero, toleranceAfter: .zero))
        #expect(server.requests.allSatisfy { $0.rangeStart > 0 }, "a ranged request: \(server.requests)")
        await waitUntil("range restarts at the target") {
            guard let range = item.loadedTimeRanges.first?.timeRangeValue else { return false }
            return range.start.seconds > 3 && range.end == item.duration
        }
        #expect(item.loadedTimeRanges.count == 1)
        player.replaceCurrentItem(with: nil)
    }

    @Test func playingOnAfterABufferedSeekReachesTheEndWithoutANewRequest() async throws {
        let server = try networkMediaServer()
        defer { server.stop() }
        let sink = RecordingVideoSink()
        let item = AVPlayerItem(url: server.url(for: "hls/index.m3u8"))
        let player = AVPlayer(environment: untimedEnvironment(sink), playerItem: item)
        let log = NotificationLog([AVPlayerItem.didPlayToEndTimeNotification], object: item)
        await waitUntil("all loaded") { item.loadedTimeRanges.first?.timeRangeValue.end == item.duration }
        server.clearRequests()
        let target = CMTime(seconds: 1.5, preferredTimescale: 1000)
        #expect(await player.seek(to: target, toleranceBefore: .zero, toleranceAfter: .zero))
        sink.reset()
        player.play()
        await waitUntil("the end") { log.count(AVPlayerItem.didPlayToEndTimeNotification) == 1 }
        #expect(server.requests.isEmpty, "\(server.requests.map(\.path))")
        let times = sink.frames.map(\.pts.seconds)
        #expect(times.count >= 60, "frames from 1.5 s to 4 s: \(times.count)")
        #expect((times.min() ?? 0) >= 1.49)
        #expect(times == times.sorted())
        player.replaceCurrentItem(with: nil)
    }
}
