// Playhead: the audio hand-over between queue items and at an AVPlayerLooper loop point, on
// the one output a player's items share (SharedAudioDevice): the output's callback goes from
// one item's ring to the next in the call where the first plays its last frame, so the join
// is sample-exact (no silence, no overlap) and the last item's tail is heard whole.
//
// Before the shared device (one output per item, each started when its item became current)
// the join measured here was 0-10 ms of silence, and 40 ms with a modelled device latency.
import Foundation
import PlayheadTestSupport
import Testing

@testable import OpenAVFoundation

@MainActor
@Suite struct AudioHandOverTests {
    /// A mono 48 kHz PCM WAV sine of `frequency` Hz lasting `seconds`.
    private static func tone(_ frequency: Int, seconds: Double) throws -> URL {
        try GeneratedMedia.url(
            named: "tone-\(frequency)", fileExtension: "wav",
            ffmpeg: [
                "-f", "lavfi", "-i",
                "sine=frequency=\(frequency):sample_rate=48000:duration=\(seconds)",
                "-c:a", "pcm_s16le",
            ])
    }

    /// Outputs made by the engine, in creation order (one per item opened).
    private final class Outputs: Sendable {
        let made = Locked<[TimelineAudioOutput]>([])
        var all: [TimelineAudioOutput] { made.withLock { $0 } }
    }

    private static func environment(
        _ clock: ManualClock, _ outputs: Outputs, outputLatency: Double = 0
    ) -> PlaybackEnvironment {
        PlaybackEnvironment(
            hostClock: clock,
            makeAudioOutput: { @Sendable in
                let output = TimelineAudioOutput(clock: clock, outputLatency: outputLatency)
                outputs.made.withLock { $0.append(output) }
                return output
            })
    }

    /// Advances `clock` in 5 ms steps (half an output period), letting the engine and the main
    /// queue keep up after each, while `more` holds.
    private func run(_ clock: ManualClock, limit: Int = 400, while more: () -> Bool) async {
        var steps = 0
        while more() && steps < limit {
            await advance(clock, by: 0.005, step: 0.005)
            // The output's writer thread runs in real time: give it 5 ms of it per 5 ms of
            // clock, so a loaded machine does not show up as a gap at the hand-over.
            await mainQueueSleep(nanoseconds: 5_000_000)
            steps += 1
        }
    }

    /// The one output a player's items share: there is exactly one, whatever the queue did.
    private static func sharedOutput(_ outputs: Outputs) throws -> TimelineAudioOutput {
        let all = outputs.all
        try #require(all.count == 1, "\(all.count) outputs made for one player")
        return all[0]
    }

    /// Checks that `output` sounded `pieces` back to back: one stretch lasting their total
    /// length within a frame or two, no silence inside longer than half a millisecond, each
    /// piece at its own frequency.
    private func expectSeamless(
        _ output: TimelineAudioOutput, pieces: [(seconds: Double, frequency: Double)],
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let whole = output.timeline(minimumGap: 0.0005)
        let total = pieces.reduce(0) { $0 + $1.seconds }
        print("shared output: heard \(whole.audibleSeconds) s of \(total) s, longest inner silence \(whole.longestInnerSilence) s")
        #expect(abs(whole.audibleSeconds - total) < 0.0005, "heard \(whole.audibleSeconds) s of \(total) s", sourceLocation: sourceLocation)
        #expect(whole.longestInnerSilence < 0.0005, "silence of \(whole.longestInnerSilence) s inside", sourceLocation: sourceLocation)
        guard let first = whole.first else { return }
        var start = first
        for piece in pieces {
            // Away from the joins, each piece is its own tone.
            let inner = output.timeline(window: (start + 0.02)..<(start + piece.seconds - 0.02))
            #expect(
                abs(inner.zeroCrossingsPerSecond / (2 * piece.frequency) - 1) < 0.05,
                "piece at \(start - first) s: \(inner.zeroCrossingsPerSecond) crossings/s", sourceLocation: sourceLocation)
            start += piece.seconds
        }
    }

    @Test func theSecondQueueItemsAudioFollowsTheFirstSampleExactlyOnOneOutput() async throws {
        let clock = ManualClock()
        let outputs = Outputs()
        let first = AVPlayerItem(url: try Self.tone(440, seconds: 1.0))
        let second = AVPlayerItem(url: try Self.tone(880, seconds: 0.6))
        let player = AVQueuePlayer(
            environment: Self.environment(clock, outputs), items: [first, second])
        player.play()
        await waitUntil("playing") { player.timeControlStatus == .playing }
        await waitUntil("the next item prerolled") { player.isNextItemPrerolled }
        await run(clock) { player.currentItem != nil }
        #expect(player.currentItem == nil, "the queue played to its end")
        await run(clock, limit: 20) { true }
        expectSeamless(try Self.sharedOutput(outputs), pieces: [(1.0, 440), (0.6, 880)])
    }

    @Test func aLooperLoopPointHasNoAudioGapOrOverlap() async throws {
        let clock = ManualClock()
        let outputs = Outputs()
        let player = AVQueuePlayer(environment: Self.environment(clock, outputs), items: [])
        let looper = AVPlayerLooper(
            player: player, templateItem: AVPlayerItem(url: try Self.tone(660, seconds: 0.5)))
        player.play()
        await waitUntil("looping") {
            looper.status == .ready && player.timeControlStatus == .playing
        }
        await waitUntil("the next replica prerolled") { player.isNextItemPrerolled }
        await run(clock) { looper.loopCount < 2 }
        #expect(looper.loopCount == 2)
        player.pause()
        await waitUntil("paused") { player.timeControlStatus == .paused }
        await run(clock, limit: 4) { true }
        let output = try Self.sharedOutput(outputs)
        let whole = output.timeline(minimumGap: 0.0005)
        print("looper on one output: \(whole.audibleSeconds) s heard, longest inner silence \(whole.longestInnerSilence) s")
        #expect(whole.longestInnerSilence < 0.0005, "a loop point left \(whole.longestInnerSilence) s of silence")
        #expect(whole.audibleSeconds > 0.995, "two whole loops heard: \(whole.audibleSeconds) s")
        #expect(abs(whole.zeroCrossingsPerSecond / (2 * 660) - 1) < 0.05)
    }

    /// An item without sound between two with: the last item's sound waits for its turn, even
    /// when the first item's engine lets go of the device late (its output queue held up, as
    /// on a loaded machine): prerolled behind the silent item, it does not follow the first
    /// item's ring, whose lane still looks like the one playing.
    @Test func anItemAfterASilentOneIsNotHeardWhileTheSilentOnePlays() async throws {
        let clock = ManualClock()
        let outputs = Outputs()
        let picture = try GeneratedMedia.url(
            named: "picture-only-0.6s", fileExtension: "mp4",
            ffmpeg: ["-f", "lavfi", "-i", "testsrc=size=64x48:rate=25:duration=0.6", "-c:v", "libx264", "-pix_fmt", "yuv420p"])
        let first = AVPlayerItem(url: try Self.tone(440, seconds: 0.5))
        let silent = AVPlayerItem(url: picture)
        let last = AVPlayerItem(url: try Self.tone(880, seconds: 0.5))
        let player = AVQueuePlayer(environment: Self.environment(clock, outputs), items: [first, silent, last])
        player.play()
        await waitUntil("playing") { player.timeControlStatus == .playing }
        await waitUntil("the silent item prerolled") { player.isNextItemPrerolled }
        // The first item's engine lets go of the device only once the silent item has played.
        let gate = DispatchSemaphore(value: 0)
        let held = try #require(engine(of: player))
        held.outputQueue.async { gate.wait() }
        defer { gate.signal() }
        await run(clock) { player.currentItem === first }
        await waitUntil("the last item prerolled") { player.isNextItemPrerolled }
        await run(clock) { player.currentItem === silent }
        gate.signal()
        await run(clock) { player.currentItem != nil }
        #expect(player.currentItem == nil, "the queue played to its end")
        await run(clock, limit: 20) { true }
        let output = try Self.sharedOutput(outputs)
        let whole = output.timeline(minimumGap: 0.0005)
        // 440 Hz for 0.5 s, the silent item's 0.6 s, 880 Hz for 0.5 s (the silence within an
        // output period or two each way: the queue moves on as an item's time reaches its end,
        // and the last item's sound, following none, starts once it is current).
        #expect(abs(whole.audibleSeconds - 1.0) < 0.002, "heard \(whole.audibleSeconds) s")
        #expect((0.5...0.7).contains(whole.longestInnerSilence), "silence of \(whole.longestInnerSilence) s between")
        guard let start = whole.first, let end = whole.end else { return }
        let opening = output.timeline(window: start..<(start + 0.45)), closing = output.timeline(window: (end - 0.45)..<end)
        #expect(abs(opening.zeroCrossingsPerSecond / 880 - 1) < 0.05, "\(opening.zeroCrossingsPerSecond)")
        #expect(abs(closing.zeroCrossingsPerSecond / 1760 - 1) < 0.05, "\(closing.zeroCrossingsPerSecond)")
    }

    /// The same with an item that fails to open between the two, left current for half a
    /// second before the app moves on: the last item's sound waits for that too.
    @Test func anItemAfterAFailedOneIsNotHeardWhileTheFailedOneIsCurrent() async throws {
        let clock = ManualClock()
        let outputs = Outputs()
        let first = AVPlayerItem(url: try Self.tone(440, seconds: 0.5))
        let failed = AVPlayerItem(url: URL(fileURLWithPath: "/nonexistent/tone.wav"))
        let last = AVPlayerItem(url: try Self.tone(880, seconds: 0.5))
        let player = AVQueuePlayer(environment: Self.environment(clock, outputs), items: [first, failed, last])
        player.play()
        await waitUntil("playing") { player.timeControlStatus == .playing }
        let gate = DispatchSemaphore(value: 0)
        let held = try #require(engine(of: player))
        held.outputQueue.async { gate.wait() }
        defer { gate.signal() }
        await run(clock) { player.currentItem === first }
        await waitUntil("the failed item current") { player.currentItem === failed && failed.status == .failed }
        await waitUntil("the last item prerolled") { player.isNextItemPrerolled }
        await run(clock, limit: 100) { true }
        // (A failed item stops the player, as on Apple platforms: the app plays on.)
        player.advanceToNextItem()
        player.play()
        await run(clock) { player.currentItem != nil }
        gate.signal()
        await run(clock, limit: 20) { true }
        let output = try Self.sharedOutput(outputs)
        let whole = output.timeline(minimumGap: 0.0005)
        #expect(abs(whole.audibleSeconds - 1.0) < 0.002, "heard \(whole.audibleSeconds) s")
        #expect(whole.longestInnerSilence > 0.45, "silence of \(whole.longestInnerSilence) s while the failed item was current")
        guard let end = whole.end else { return }
        let closing = output.timeline(window: (end - 0.45)..<end)
        #expect(abs(closing.zeroCrossingsPerSecond / 1760 - 1) < 0.05, "\(closing.zeroCrossingsPerSecond)")
    }

    /// With a device buffer the output keeps running after the queue's last item ended until
    /// that item's last frame has been heard: the tail is whole, and the join still exact.
    @Test func withADeviceLatencyTheJoinIsExactAndTheTailIsHeardWhole() async throws {
        let latency = 0.04
        let clock = ManualClock()
        let outputs = Outputs()
        let first = AVPlayerItem(url: try Self.tone(440, seconds: 1.0))
        let second = AVPlayerItem(url: try Self.tone(880, seconds: 0.6))
        let player = AVQueuePlayer(
            environment: Self.environment(clock, outputs, outputLatency: latency),
            items: [first, second])
        player.play()
        await waitUntil("playing") { player.timeControlStatus == .playing }
        await waitUntil("the next item prerolled") { player.isNextItemPrerolled }
        await run(clock) { player.currentItem != nil }
        #expect(player.currentItem == nil, "the queue played to its end")
        await run(clock, limit: 30) { true }
        expectSeamless(try Self.sharedOutput(outputs), pieces: [(1.0, 440), (0.6, 880)])
    }
}
