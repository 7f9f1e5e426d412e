// A hole in an audio track's timestamps plays as silence while time runs through it, and the
// silence goes into the ring as the ring drains, a part at a time: written whole (0.3 s at
// once) it waited for the ring to empty, so an output that takes the audio only as it is
// topped up (a manual clock stepped while the ring holds a tenth of a second) never got it.
// On a manual clock into a recording output.
import Foundation
import PlayheadTestSupport
import Testing

@testable import OpenAVFoundation

@MainActor
@Suite struct AudioHoleTests {
    @Test func aHoleInTheAudioPlaysAsSilenceAndTimeRunsThroughIt() async throws {
        let clock = ManualClock()
        let output = RecordingAudioOutput(clock: clock)
        let environment = PlaybackEnvironment(hostClock: clock, makeAudioOutput: { output }, videoSinks: VideoSinks())
        let player = AVPlayer(environment: environment, playerItem: AVPlayerItem(url: try AudioHoleMedia.url()))
        player.play()
        await waitUntil("playing") { player.timeControlStatus == .playing }
        await waitUntil("the output runs") { output.isRunning }
        let pipeline = try #require(engine(of: player)?.pipeline)
        let ring = try #require(pipeline.ring)
        // 10 ms steps, each once the ring holds a tenth of a second (or the audio ended).
        var refilled = true
        for _ in 0..<200 where refilled {
            var refill = PatientDeadline(seconds: 20)
            while ring.bufferedDuration.seconds < 0.1, !pipeline.audioPackets.statistics.endOfStreamReached,
                !refill.hasPassed()
            {
                await mainQueueSleep(nanoseconds: 5_000_000)
            }
            refilled = ring.bufferedDuration.seconds >= 0.1 || pipeline.audioPackets.statistics.endOfStreamReached
            clock.advance(by: 0.01)
            await output.caughtUp()
        }
        #expect(refilled, "the ring was refilled at every step: \(ring.bufferedDuration.seconds) s at \(player.currentTime().seconds) s")
        #expect(abs(player.currentTime().seconds - 2) < 0.02, "time ran through the hole: \(player.currentTime().seconds)")
        // The hole is heard as silence, where the timestamps put it.
        let silences = output.silentRanges(minimumFrames: 4_800)
        #expect(silences.count == 1, "\(silences)")
        if let silence = silences.first {
            let start = Double(silence.lowerBound) / 48_000, length = Double(silence.count) / 48_000
            #expect(abs(start - AudioHoleMedia.holeStart) < 0.03 && abs(length - AudioHoleMedia.hole) < 0.03, "\(start) s for \(length) s")
        }
        player.replaceCurrentItem(with: nil)
    }
}
