// Playhead: play() called while a seek is still in flight, as wrappers do to loop (seek to 0 at
// the end, then play) — with and without automatic waiting.
import Foundation
import PlayheadTestSupport
import Testing

@testable import OpenAVFoundation

@MainActor
@Suite struct AVPlayerSeekThenPlayTests {
    /// A local file never stalls: a buffer emptied by a seek is the seek's, not a stall.
    @Test(arguments: [0.0, 2.0])
    func playRightAfterASeekWithoutAutomaticWaitingPlaysOn(target: Double) async throws {
        let url = try NetworkMedia.folder().appendingPathComponent("progressive.mp4")
        for run in 0..<8 {
            // A manual clock: time moves only as the test moves it, so a busy machine cannot
            // starve the reader into a real underrun; only the seek's own emptying is tested.
            let clock = ManualClock()
            let sink = RecordingVideoSink()
            let item = AVPlayerItem(url: url)
            let player = AVPlayer(environment: timedEnvironment(sink, clock: clock, audio: true), playerItem: item)
            player.automaticallyWaitsToMinimizeStalling = false
            let log = NotificationLog([AVPlayerItem.playbackStalledNotification], object: item)
            await waitUntil("ready, run \(run)") { item.status == .readyToPlay && sink.count > 0 }
            player.play()
            await advanceFed(clock, by: 0.3, playing: player, thenUpTo: 5) { item.currentTime().seconds > 0.3 }
            #expect(player.timeControlStatus == .playing, "run \(run)")
            player.seek(to: CMTime(seconds: target, preferredTimescale: 600)) { _ in }
            player.play()
            await advanceFed(clock, by: 0.3, playing: player, thenUpTo: 5) {
                item.currentTime().seconds > target + 0.3 || player.rate == 0
            }
            #expect(log.count(AVPlayerItem.playbackStalledNotification) == 0, "run \(run)")
            #expect(player.rate == 1, "run \(run)")
            #expect(player.timeControlStatus == .playing, "run \(run)")
            player.pause()
            player.replaceCurrentItem(with: nil)
        }
    }
}
