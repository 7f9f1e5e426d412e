// Playhead: a rate change is heard at once. The quarter second of audio already converted at
// the old tempo is re-made at the new one from just ahead of what plays: the audio clock runs
// at the new rate within a few tens of milliseconds, with no silence and no jump in media time.
import FFmpegBridge
import Foundation
import PlayheadTestSupport
import Testing

@testable import OpenAVFoundation

@MainActor
@Suite struct RateChangeAudioTests {
    /// Four seconds of a 1 kHz sine at half scale, 48 kHz PCM.
    private static func tone() throws -> URL {
        try GeneratedMedia.url(
            named: "tone-1khz-4s", fileExtension: "wav",
            ffmpeg: ["-f", "lavfi", "-i", "sine=frequency=1000:sample_rate=48000:duration=4", "-af", "volume=4",
                "-c:a", "pcm_s16le"])
    }

    @Test func aNewRateIsHeardWithinSeventyMillisecondsWithoutAGap() async throws {
        let tone = try Self.tone()
        let clock = ManualClock()
        let output = TimelineAudioOutput(clock: clock)
        let environment = PlaybackEnvironment(hostClock: clock, makeAudioOutput: { output })
        let item = AVPlayerItem(url: tone)
        let player = AVPlayer(environment: environment, playerItem: item)
        await waitUntil("ready") { item.status == .readyToPlay }
        player.play()
        await advance(clock, by: 0.5, step: 0.005, thenUpTo: 5) { item.currentTime().seconds > 0.5 }
        let ring = try #require(engine(of: player)?.pipeline?.ring)
        #expect(ring.bufferedDuration.seconds > 0.15, "a quarter second is queued at tempo 1")
        let changed = clock.now
        player.rate = 2
        // The audio thread re-makes the queue in real time while the clock stands still.
        await waitUntil("the queued audio re-made at tempo 2") {
            ring.currentEpoch.load(ordering: .relaxed) > 0 && ring.framesWrittenSinceSplice >= 2_400
        }
        var heardAtNewRate: Double?
        var readings: [(host: Double, media: Double)] = []
        for _ in 0..<100 {
            await advance(clock, by: 0.005, step: 0.005)
            if let snapshot = ring.clockSnapshot {
                readings.append((snapshot.host, snapshot.media.seconds))
                if heardAtNewRate == nil, abs(snapshot.rate - 2) < 0.01 { heardAtNewRate = snapshot.host }
            }
        }
        player.pause()
        let delay = try #require(heardAtNewRate, "tempo 2 was never heard") - changed
        // The splice takes over 50 ms of play ahead of what was rendered, which is up to one
        // 10 ms period ahead of the clock.
        #expect(delay <= 0.07, "tempo 2 heard \(delay) s after the change")
        // Media time never jumps: each reading follows the last at rate 1 or 2.
        for (earlier, later) in zip(readings, readings.dropFirst()) where later.host > earlier.host {
            let speed = (later.media - earlier.media) / (later.host - earlier.host)
            #expect(speed > 0.9 && speed < 2.1, "media ran at \(speed)× between \(earlier) and \(later)")
        }
        // No silence inside what was heard (a sine at this level is near zero for a sample or two).
        let samples = output.periods.flatMap(\.samples)
        let start = try #require(samples.firstIndex { abs($0) > 0.1 })
        var run = 0, longest = 0
        for sample in samples[start...] {
            run = abs(sample) < 0.01 ? run + 1 : 0
            longest = max(longest, run)
        }
        #expect(longest < 10, "\(longest) silent samples in a row")
    }

    @Test func theAudioTempoStaysWithinWhatTheConverterDoes() {
        var state = EngineState()
        state.rate = 8
        #expect(state.audioTempo == 8, "Apple's time-pitch range reaches 32x")
        state.rate = 64
        #expect(state.audioTempo == AudioConverter.tempoRange.upperBound)
        state.rate = 0.1
        #expect(state.audioTempo == AudioConverter.tempoRange.lowerBound)
        state.rate = 0
        state.upcomingRate = 2
        #expect(state.audioTempo == 2, "paused, audio is made at the rate play will run at")
    }

    @Test func aRateBeyondTheTempoRangeStillPlaysAudioAndSplicesOnce() async throws {
        // Long enough that at 32x the ring fills before the tone is all written.
        let tone = try GeneratedMedia.url(
            named: "tone-1khz-60s", fileExtension: "wav",
            ffmpeg: ["-f", "lavfi", "-i", "sine=frequency=1000:sample_rate=48000:duration=60", "-af", "volume=4",
                "-c:a", "pcm_s16le"])
        let clock = ManualClock()
        let output = TimelineAudioOutput(clock: clock)
        let item = AVPlayerItem(url: tone)
        let player = AVPlayer(
            environment: PlaybackEnvironment(hostClock: clock, makeAudioOutput: { output }), playerItem: item)
        await waitUntil("ready") { item.status == .readyToPlay }
        player.play()
        await advance(clock, by: 0.3, step: 0.005, thenUpTo: 5) { item.currentTime().seconds > 0.3 }
        let ring = try #require(engine(of: player)?.pipeline?.ring)
        player.rate = 64
        await waitUntil("re-made at the fastest tempo") { ring.currentEpoch.load(ordering: .relaxed) > 0 }
        let written = ring.framesWrittenSinceSplice
        await advance(clock, by: 0.1, step: 0.005)
        // As the output plays, the audio thread writes on at tempo 32 instead of giving up on
        // every chunk for a tempo it can never reach.
        await waitUntil("the audio thread writes on") { ring.framesWrittenSinceSplice > written }
        // Read before pausing: paused, the audio is re-made at the rate play resumes at (a
        // second splice, once the audio thread sees the pause; it once did before the read).
        #expect(ring.currentEpoch.load(ordering: .relaxed) == 1, "one splice, not one per packet")
        player.pause()
    }
}
