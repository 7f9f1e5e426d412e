// Playhead: a paused engine sleeps until told otherwise: no thread polls while nothing changes.
import Foundation
import PlayheadTestSupport
import Testing

@testable import OpenAVFoundation

@MainActor
@Suite struct QuietWhenPausedTests {
    /// Plays `fixture` for a moment on a manual clock, pauses, then lets 5 s of host time pass
    /// and returns how often the engine's threads woke meanwhile.
    private func wakeUpsWhilePaused(_ fixture: Fixture, subtitles: Bool = false) async throws -> Int {
        let clock = ManualClock()
        let sink = RecordingVideoSink()
        let item = AVPlayerItem(url: try Fixture.url(fixture))
        let player = AVPlayer(environment: timedEnvironment(sink, clock: clock, audio: true), playerItem: item)
        await waitUntil("ready") { item.status == .readyToPlay && sink.count > 0 }
        player.play()
        await advanceFed(clock, by: 0.5, playing: player, thenUpTo: 3) { item.currentTime().seconds > 0.4 }
        player.pause()
        // Let the threads finish what pausing and reading ahead leave them to do: until the
        // wake-ups stop counting (unchanged over five looks 50 ms apart).
        await advance(clock, by: 0.5)
        let playback = try #require(engine(of: player))
        var settled = PatientDeadline(seconds: 20)
        var last = playback.wakeUps
        var unchanged = 0
        while unchanged < 5, !settled.hasPassed() {
            await mainQueueSleep(nanoseconds: 50_000_000)
            let now = playback.wakeUps
            unchanged = now == last ? unchanged + 1 : 0
            last = now
        }
        let before = playback.wakeUps
        await advance(clock, by: 5, step: 0.05)
        await mainQueueSleep(nanoseconds: 100_000_000)
        let woke = playback.wakeUps - before
        #expect(item.currentTime().seconds < 0.6, "paused")
        player.replaceCurrentItem(with: nil)
        return woke
    }

    @Test func aPausedVideoWithSoundWakesNoThreadForFiveSeconds() async throws {
        // It used to wake about 20 times a second (the presentation, subtitle and demux threads
        // every 250 ms, the video thread every 500 ms, the audio thread every 20 ms).
        let woke = try await wakeUpsWhilePaused(.mp4)
        #expect(woke == 0, "\(woke) wake-ups in 5 s paused")
    }

    @Test func aPausedItemWithSubtitlesWakesNoThreadEither() async throws {
        let woke = try await wakeUpsWhilePaused(.matroska)
        #expect(woke == 0, "\(woke) wake-ups in 5 s paused")
    }
}
