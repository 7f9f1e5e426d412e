// Playhead: the audio hand-over between queue items and at an AVPlayerLooper loop point,
// measured on one host-time axis: no gap, no overlap, the first item's audio not cut short.
//
// Measured on a ManualClock stepped by 5 ms: gap 0-10 ms, never an overlap, the first item
// heard for its whole length. The rest is the test's granularity: the clock-driven output
// renders in 10 ms periods, and the next output starts at the step the switch is seen in.
// (Before the presenter woke at the ring's drain time, the gap was 0-20 ms: one 20 ms tick.)
// With a modelled 40 ms device latency the hand-over still costs that latency (gap 40 ms, the
// first item's last 30-35 ms dropped by its stop): pinned by the last test until it is bridged.
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

    /// The hand-over between two outputs' audible stretches, in seconds.
    private struct HandOver: CustomStringConvertible {
        let first: AudibleTimeline
        let second: AudibleTimeline
        /// Silence between the first's last sound and the second's first (negative: overlap).
        var gap: Double { (second.first ?? .nan) - (first.end ?? .nan) }
        var description: String {
            String(
                format:
                    "gap %.4f s, first item heard %.4f s (inner silence %.4f s, %.0f crossings/s), "
                    + "second heard %.4f s (%.0f crossings/s)",
                gap, first.audibleSeconds, first.longestInnerSilence, first.zeroCrossingsPerSecond,
                second.audibleSeconds, second.zeroCrossingsPerSecond)
        }
    }

    /// The first two outputs that sounded, in the order they sounded. Engines open (and make
    /// their outputs) concurrently, so creation order says nothing.
    private static func handOver(_ outputs: Outputs) throws -> HandOver {
        let heard = outputs.all.map { $0.timeline() }.filter { $0.first != nil }
            .sorted { $0.first! < $1.first! }
        try #require(heard.count >= 2, "\(outputs.all.count) outputs made, \(heard.count) sounded")
        return HandOver(first: heard[0], second: heard[1])
    }

    /// Advances `clock` in 5 ms steps (half an output period), letting the engine and the main
    /// queue keep up after each, while `more` holds.
    private func run(_ clock: ManualClock, limit: Int = 400, while more: () -> Bool) async {
        var steps = 0
        while more() && steps < limit {
            await advance(clock, by: 0.005, step: 0.005)
            // The outputs' writer threads run in real time: give them 5 ms of it per 5 ms of
            // clock, so a loaded machine does not show up as a gap at the hand-over.
            await mainQueueSleep(nanoseconds: 5_000_000)
            steps += 1
        }
    }

    private func expectSeamless(
        _ handOver: HandOver, firstDuration: Double, firstFrequency: Double,
        secondFrequency: Double,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        print("audio hand-over: \(handOver)")
        let period = 0.01
        // (a) contiguous: no silence and no overlap over 30 ms.
        #expect(abs(handOver.gap) <= 0.03, "\(handOver)", sourceLocation: sourceLocation)
        // (b) the first item's audio is whole: as long as its media, within a period, unbroken.
        #expect(
            abs(handOver.first.audibleSeconds - firstDuration) <= period, "\(handOver)",
            sourceLocation: sourceLocation)
        #expect(
            handOver.first.longestInnerSilence < 0.002, "\(handOver)",
            sourceLocation: sourceLocation)
        // (c) the two outputs never sound together for longer than a period.
        #expect(-handOver.gap <= period, "\(handOver)", sourceLocation: sourceLocation)
        // Each output played its own tone (a sine crosses zero twice per cycle).
        #expect(
            abs(handOver.first.zeroCrossingsPerSecond / (2 * firstFrequency) - 1) < 0.05,
            "\(handOver)",
            sourceLocation: sourceLocation)
        #expect(
            abs(handOver.second.zeroCrossingsPerSecond / (2 * secondFrequency) - 1) < 0.05,
            "\(handOver)",
            sourceLocation: sourceLocation)
    }

    @Test func theSecondQueueItemsAudioFollowsTheFirstWithoutAGapOrOverlap() async throws {
        let clock = ManualClock()
        let outputs = Outputs()
        let first = AVPlayerItem(url: try Self.tone(440, seconds: 1.0))
        let second = AVPlayerItem(url: try Self.tone(880, seconds: 0.6))
        let player = AVQueuePlayer(
            environment: Self.environment(clock, outputs), items: [first, second])
        player.play()
        await waitUntil("playing") { player.timeControlStatus == .playing }
        await waitUntil("the next item prerolled") { player.isNextItemPrerolled }
        await run(clock) { player.currentItem !== second }
        #expect(player.currentItem === second)
        await run(clock, limit: 40) { true }  // 0.2 s of the second item
        player.pause()
        await waitUntil("paused") { player.timeControlStatus == .paused }
        let handOver = try Self.handOver(outputs)
        expectSeamless(handOver, firstDuration: 1.0, firstFrequency: 440, secondFrequency: 880)
        #expect(handOver.second.audibleSeconds > 0.15, "\(handOver)")
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
        await run(clock) { looper.loopCount < 1 }
        #expect(looper.loopCount == 1)
        await run(clock, limit: 40) { true }
        player.pause()
        await waitUntil("paused") { player.timeControlStatus == .paused }
        let handOver = try Self.handOver(outputs)
        expectSeamless(handOver, firstDuration: 0.5, firstFrequency: 660, secondFrequency: 660)
    }

    /// A device buffer (SDL reports two periods, ~40 ms) is not bridged yet: the end is reported
    /// when the ring drains into the device, the old device stops (dropping what it buffered)
    /// and the new one is heard a latency later. This pins the measured cost so a fix shows.
    @Test func withADeviceLatencyTheFirstItemPlaysOutAndTheSecondFollows() async throws {
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
        await run(clock) { player.currentItem !== second }
        #expect(player.currentItem === second)
        await run(clock, limit: 40) { true }
        player.pause()
        await waitUntil("paused") { player.timeControlStatus == .paused }
        let handOver = try Self.handOver(outputs)
        print("audio hand-over with a \(latency) s device latency: \(handOver)")
        let cut = 1.0 - handOver.first.audibleSeconds
        // The old output lingers one latency after its natural end, so what its device held
        // is heard; the new one is heard one latency after it starts, right after.
        #expect(handOver.gap >= -0.01, "no overlap over a period: \(handOver)")
        #expect(handOver.gap <= 0.03, "\(handOver)")
        #expect(cut <= 0.01, "first item cut short by \(cut) s: \(handOver)")
    }
}
