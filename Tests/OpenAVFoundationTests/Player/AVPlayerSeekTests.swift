// Playhead: seeking an AVPlayer: landing frames, completion handlers, interruptions.
import Foundation
import PlayheadTestSupport
import Testing

@testable import OpenAVFoundation

/// Collects seek completion results and whether each ran on the main thread.
final class CompletionLog: Sendable {
    private let calls = Locked<[(finished: Bool, onMain: Bool)]>([])

    func handler() -> @Sendable (Bool) -> Void {
        { finished in
            // The main queue (under `swift test` on Linux it is not drained by the main thread).
            let onMain = MainQueue.isCurrent
            self.calls.withLock { $0.append((finished, onMain)) }
        }
    }

    var results: [Bool] { calls.withLock { $0.map(\.finished) } }
    var allOnMain: Bool { calls.withLock { $0.allSatisfy(\.onMain) } }
}

@MainActor
@Suite struct AVPlayerSeekTests {
    static let exact = (before: CMTime.zero, after: CMTime.zero)

    private func pausedPlayer(_ fixture: Fixture = .mp4) async throws -> (AVPlayer, AVPlayerItem, RecordingVideoSink) {
        let sink = RecordingVideoSink()
        let item = AVPlayerItem(url: try Fixture.url(fixture))
        let player = AVPlayer(environment: untimedEnvironment(sink), playerItem: item)
        await waitUntil("first frame") { item.status == .readyToPlay && sink.count == 1 }
        return (player, item, sink)
    }

    @Test func exactSeekWhilePausedShowsTheSameFrameAsLinearDecoding() async throws {
        let reference = await linearChecksums(of: try Fixture.url(.mp4))
        #expect(reference.count == 50)
        let (player, item, sink) = try await pausedPlayer()
        // (target, pts of the frame shown at that time): keyframe, mid-GOP, between two frames,
        // back to the start, the last frame, and the very end.
        let cases: [(Double, Int)] = [
            (1.0, 1000), (0.52, 520), (0.5, 480), (1.36, 1360), (0, 0), (1.96, 1960), (0.84, 840),
            (2.0, 1960),
        ]
        for (seconds, expectedPTS) in cases {
            sink.reset()
            let target = CMTime(value: Int64(seconds * 600), timescale: 600)
            let completions = CompletionLog()
            player.seek(
                to: target, toleranceBefore: .zero, toleranceAfter: .zero,
                completionHandler: completions.handler())
            await waitUntil("seek to \(seconds)") { !completions.results.isEmpty }
            await mainQueueSleep(nanoseconds: 20_000_000)
            #expect(completions.results == [true], "seek to \(seconds)")
            #expect(completions.allOnMain)
            let shown = try #require(sink.last, "no frame after seeking to \(seconds)")
            #expect(sink.count == 1, "seek to \(seconds) showed \(sink.count) frames")
            #expect(millis(shown.pts) == expectedPTS, "seek to \(seconds)")
            #expect(shown.frame.checksum() == reference[expectedPTS], "seek to \(seconds)")
            #expect(player.currentTime() == target, "seek to \(seconds)")
            #expect(item.currentTime() == target)
        }
    }

    @Test func pausedAfterASeekTheDecoderStopsAtTheLandingFrameAndPlayGoesOnFromIt() async throws {
        let reference = await linearChecksums(of: try Fixture.url(.mp4))
        let (player, item, sink) = try await pausedPlayer()
        sink.reset()
        let finished = await player.seek(
            to: CMTime(value: 26, timescale: 50), toleranceBefore: .zero, toleranceAfter: .zero)
        #expect(finished)
        await mainQueueSleep(nanoseconds: 150_000_000)
        // Only the landing frame was decoded for showing: nothing waits in the frame queue, so
        // the decoder's threads are idle when the next seek comes.
        let queued = engine(of: player)?.pipeline?.videoFrames.statistics.count
        #expect(queued == 0, "frames decoded ahead while paused: \(String(describing: queued))")
        #expect(sink.frames.map { millis($0.pts) } == [520])
        player.play()
        await waitUntil("played to the end") { item.currentTime().seconds >= 1.95 && player.rate == 0 }
        let shown = sink.frames.map { millis($0.pts) }
        let expected = reference.keys.filter { $0 >= 520 }.sorted()
        #expect(shown == expected, "every frame from the landing on, once, in order")
        #expect(sink.frames.allSatisfy { $0.frame.checksum() == reference[millis($0.pts)] })
    }

    @Test func fastSeekLandsOnAKeyframeWithinTolerance() async throws {
        let (player, _, sink) = try await pausedPlayer()
        sink.reset()
        let tolerance = CMTime(value: 1, timescale: 2)
        let finished = await player.seek(
            to: CMTime(value: 13, timescale: 10), toleranceBefore: tolerance, toleranceAfter: tolerance)
        #expect(finished)
        let shown = try #require(sink.last)
        #expect(shown.frame.isKeyframe)
        #expect(millis(shown.pts) == 1000)
        #expect(millis(player.currentTime()) == 1000)
    }

    @Test func plainSeekLandsOnAKeyframe() async throws {
        let (player, _, sink) = try await pausedPlayer()
        sink.reset()
        let finished = await player.seek(to: CMTime(value: 16, timescale: 10))
        #expect(finished)
        let shown = try #require(sink.last)
        #expect(shown.frame.isKeyframe)
        #expect(millis(player.currentTime()) == millis(shown.pts))
    }

    @Test func seekBeforeTheItemIsReadyWaitsAndCompletes() async throws {
        let sink = RecordingVideoSink()
        let item = AVPlayerItem(url: try Fixture.url(.mp4))
        let completions = CompletionLog()
        let target = CMTime(value: 12, timescale: 10)
        item.seek(to: target, toleranceBefore: .zero, toleranceAfter: .zero, completionHandler: completions.handler())
        let player = AVPlayer(environment: untimedEnvironment(sink), playerItem: item)
        await waitUntil("seek") { !completions.results.isEmpty }
        #expect(completions.results == [true])
        #expect(millis(try #require(sink.last).pts) == 1200)
        #expect(player.currentTime() == target)
    }

    @Test func playerSeekIssuedRightAfterCreationCompletes() async throws {
        let sink = RecordingVideoSink()
        let item = AVPlayerItem(url: try Fixture.url(.mp4))
        let player = AVPlayer(environment: untimedEnvironment(sink), playerItem: item)
        let completions = CompletionLog()
        player.seek(
            to: CMTime(value: 8, timescale: 10), toleranceBefore: .zero, toleranceAfter: .zero,
            completionHandler: completions.handler())
        #expect(item.status == .unknown)
        await waitUntil("seek") { !completions.results.isEmpty }
        #expect(completions.results == [true])
        #expect(millis(try #require(sink.last).pts) == 800)
    }

    @Test func newerSeekInterruptsThePendingOne() async throws {
        let (player, _, sink) = try await pausedPlayer()
        let first = CompletionLog(), second = CompletionLog()
        player.seek(
            to: CMTime(value: 4, timescale: 10), toleranceBefore: .zero, toleranceAfter: .zero,
            completionHandler: first.handler())
        player.seek(
            to: CMTime(value: 16, timescale: 10), toleranceBefore: .zero, toleranceAfter: .zero,
            completionHandler: second.handler())
        #expect(first.results == [false])
        await waitUntil("second seek") { !second.results.isEmpty }
        await mainQueueSleep(nanoseconds: 50_000_000)
        #expect(first.results == [false])
        #expect(second.results == [true])
        #expect(millis(try #require(sink.last).pts) == 1600)
        #expect(millis(player.currentTime()) == 1600)
    }

    @Test func scrubbingManySeeksOnlyTheLastFinishes() async throws {
        let (player, _, sink) = try await pausedPlayer()
        let logs = (0..<10).map { _ in CompletionLog() }
        for (index, log) in logs.enumerated() {
            player.seek(
                to: CMTime(value: Int64(index) * 4, timescale: 25), toleranceBefore: .zero,
                toleranceAfter: .zero, completionHandler: log.handler())
            await mainQueueSleep(nanoseconds: UInt64(index % 3) * 1_000_000)
        }
        await waitUntil("last seek") { !logs[9].results.isEmpty }
        await mainQueueSleep(nanoseconds: 50_000_000)
        #expect(logs.map(\.results).allSatisfy { $0.count == 1 })
        #expect(logs[9].results == [true])
        #expect(millis(try #require(sink.last).pts) == 1440)
        #expect(millis(player.currentTime()) == 1440)
    }

    @Test func replacingTheItemInterruptsAPendingSeek() async throws {
        let (player, _, _) = try await pausedPlayer()
        let completions = CompletionLog()
        player.seek(
            to: CMTime(value: 1, timescale: 1), toleranceBefore: .zero, toleranceAfter: .zero,
            completionHandler: completions.handler())
        player.replaceCurrentItem(with: AVPlayerItem(url: try Fixture.url(.mov)))
        #expect(completions.results == [false])
        await mainQueueSleep(nanoseconds: 100_000_000)
        #expect(completions.results == [false])
    }

    @Test func cancelPendingSeeksCompletesWithFalse() async throws {
        let (player, item, _) = try await pausedPlayer()
        let completions = CompletionLog()
        player.seek(
            to: CMTime(value: 1, timescale: 1), toleranceBefore: .zero, toleranceAfter: .zero,
            completionHandler: completions.handler())
        item.cancelPendingSeeks()
        #expect(completions.results == [false])
        await mainQueueSleep(nanoseconds: 100_000_000)
        #expect(completions.results == [false])
    }

    @Test func seekWithoutAnItemCompletesWithFalse() async {
        let player = AVPlayer(environment: untimedEnvironment(RecordingVideoSink()))
        let finished = await player.seek(to: .zero)
        #expect(!finished)
    }

    @Test func seekPostsTimeJumpedOnce() async throws {
        let (player, item, _) = try await pausedPlayer()
        let log = NotificationLog([AVPlayerItem.timeJumpedNotification], object: item)
        let finished = await player.seek(to: CMTime(value: 1, timescale: 1))
        #expect(finished)
        await mainQueueSleep(nanoseconds: 50_000_000)
        #expect(log.count(AVPlayerItem.timeJumpedNotification) == 1)
    }

    @Test func seekWhilePlayingKeepsPlayingFromTheTarget() async throws {
        let sink = RecordingVideoSink()
        let clock = ManualClock()
        let item = AVPlayerItem(url: try Fixture.url(.mp4))
        let player = AVPlayer(environment: timedEnvironment(sink, clock: clock), playerItem: item)
        player.play()
        await waitUntil("playing") { player.timeControlStatus == .playing }
        await advance(clock, by: 0.3)
        let finished = await player.seek(
            to: CMTime(value: 1, timescale: 1), toleranceBefore: .zero, toleranceAfter: .zero)
        #expect(finished)
        #expect(player.rate == 1)
        sink.reset()
        await advance(clock, by: 0.4)
        await waitUntil("frames after the seek") { sink.count >= 5 }
        #expect(sink.frames.allSatisfy { $0.pts.seconds >= 1 })
        #expect(abs(player.currentTime().seconds - 1.4) < 0.001)
    }
}

@MainActor
@Suite struct AVPlayerFailedSeekTests {
    @Test func seekingAnItemThatFailsCompletesWithFalse() async throws {
        let item = AVPlayerItem(url: try BadInput.url(.textFileNamedMP4))
        let player = AVPlayer(environment: untimedEnvironment(RecordingVideoSink()), playerItem: item)
        let pending = CompletionLog()
        player.seek(to: CMTime(value: 1, timescale: 1), completionHandler: pending.handler())
        await waitUntil("failed") { item.status == .failed }
        await waitUntil("pending seek over") { !pending.results.isEmpty }
        #expect(pending.results == [false])
        let finished = await player.seek(to: .zero)
        #expect(!finished)
    }
}
