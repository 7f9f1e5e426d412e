// Playhead: the user's audio delay shifts the audio clock, which the picture follows: negative
// holds the picture back (a Bluetooth headset's delay), positive lets it run ahead.
import Foundation
import PlayheadTestSupport
import Testing

@testable import OpenAVFoundation

@MainActor
@Suite struct AVPlayerAudioDelayTests {
    @Test(arguments: [-0.2, 0.15])
    func theDelayShiftsTheClockThePictureFollows(delay: Double) async throws {
        let clock = ManualClock()
        let sink = RecordingVideoSink()
        let item = AVPlayerItem(url: try Fixture.url(.mp4))
        let player = AVPlayer(environment: timedEnvironment(sink, clock: clock, audio: true), playerItem: item)
        #expect(player.audioDelay == 0)
        await waitUntil("ready") { item.status == .readyToPlay }
        player.play()
        await advanceFed(clock, by: 0.5, playing: player, thenUpTo: 5) { item.currentTime().seconds > 0.5 }
        let before = item.currentTime().seconds
        player.audioDelay = delay
        #expect(player.audioDelay == delay)
        // The next rendered period carries the shift; time reads `delay` ahead of the sound.
        await advanceFed(clock, by: 0.3, playing: player)
        let after = item.currentTime().seconds
        #expect(abs(after - (before + 0.3 + delay)) < 0.03, "\(before) → \(after)")
        // The frame on screen is the one for the shifted time (the presentation thread may
        // need the clock to move a step to notice the shift).
        await advanceFed(clock, by: 0, playing: player, step: 0.01, thenUpTo: 0.1) {
            (sink.last?.pts.seconds ?? 0) > item.currentTime().seconds - 0.04
        }
        let shown = try #require(sink.last)
        let now = item.currentTime().seconds
        #expect(shown.pts.seconds <= now + 0.001 && shown.pts.seconds > now - 0.04, "\(shown.pts.seconds) at \(now)")
        player.pause()
    }
}
