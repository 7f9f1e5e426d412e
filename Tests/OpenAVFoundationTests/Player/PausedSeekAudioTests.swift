// Playhead: a seek made while paused has the new position's audio ready before play, so the
// first period heard after play is the new position's sound, not silence.
import Foundation
import PlayheadTestSupport
import Testing

@testable import OpenAVFoundation

@MainActor
@Suite struct PausedSeekAudioTests {
    @Test func afterAPausedSeekTheFirstPeriodHeardAfterPlayIsTheNewPositionsSound() async throws {
        let clock = ManualClock()
        let output = TimelineAudioOutput(clock: clock)
        let sinks = VideoSinks()
        sinks.add(RecordingVideoSink())
        let environment = PlaybackEnvironment(hostClock: clock, makeAudioOutput: { output }, videoSinks: sinks)
        let item = AVPlayerItem(url: try Fixture.url(.mp4))
        let player = AVPlayer(environment: environment, playerItem: item)
        await waitUntil("ready") { item.status == .readyToPlay }
        player.play()
        await advance(clock, by: 0.3, thenUpTo: 5) { item.currentTime().seconds > 0.3 }
        player.pause()
        let ring = try #require(engine(of: player)?.pipeline?.ring)
        #expect(ring.headGeneration != nil, "the ring holds the old position's audio")
        let target = CMTime(value: 1, timescale: 1)
        let finished = await player.seek(to: target, toleranceBefore: .zero, toleranceAfter: .zero)
        #expect(finished)
        // The clock stands still: only the stale audio's removal lets the audio thread refill.
        await waitUntil("the new position's audio is in the ring") {
            ring.headGeneration == ring.generation
        }
        let playHost = clock.now
        player.play()
        // The output starts on its own queue: the clock moves until it has rendered a period.
        await advance(clock, by: 0.02, step: 0.01, thenUpTo: 2) {
            output.periods.contains { $0.hostTime >= playHost }
        }
        let first = try #require(output.periods.first { $0.hostTime >= playHost })
        #expect(first.samples.contains { abs($0) > 0.01 }, "the first period after play is silent")
        let clockReading = try #require(ring.audioClock(atHost: first.hostTime))
        #expect(abs(clockReading.seconds - 1.0) < 0.03, "\(clockReading.seconds)")
        player.pause()
    }
}
