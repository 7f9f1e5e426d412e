// Where time stands when an item opens whose sound begins before its first picture (a transport
// stream's audio leads its video by an AAC frame: here 21 ms): at the sound's start, zero, as
// on Apple's players, and it runs on from there when play starts, never back. Time used to
// stand at the first picture (21 ms) and step back to the sound's position once it was heard.
// On a manual clock, with an output slow to start (``SlowStartingAudioOutput``).
import Foundation
import PlayheadTestSupport
import Testing

@testable import OpenAVFoundation

@MainActor
@Suite struct OpeningTimeTests {
    @Test(arguments: [SelectionMedia.hlsAudioRenditions, .hlsTwoCarriedAudioRenditions])
    func timeStandsWhereTheSoundBeginsAndRunsOnFromThere(_ media: SelectionMedia) async throws {
        let clock = ManualClock()
        let output = SlowStartingAudioOutput(ClockDrivenAudioOutput(clock: clock))
        let sink = RecordingVideoSink()
        let sinks = VideoSinks()
        sinks.add(sink)
        let environment = PlaybackEnvironment(hostClock: clock, makeAudioOutput: { output }, videoSinks: sinks)
        let player = AVPlayer(environment: environment, playerItem: AVPlayerItem(url: try media.url()))
        await waitUntil("ready") { player.currentItem?.status == .readyToPlay }
        // The sound decoded ahead and the first picture shown, paused.
        await waitUntil("sound waiting") { (engine(of: player)?.pipeline?.ring?.bufferedDuration.seconds ?? 0) > 0.2 }
        await waitUntil("first picture") { sink.count > 0 }
        let firstPicture = try #require(sink.frames.first).pts.seconds
        #expect(abs(firstPicture - 1024.0 / 48_000) < 1e-3, "the picture comes an AAC frame after the sound: \(firstPicture)")
        var readings = [player.currentTime().seconds]
        #expect(readings[0] == 0, "time stands where the sound begins: \(readings[0])")

        // Play: the output takes 30 ms to start; time waits for the sound, then runs with it.
        player.play()
        await waitUntil("playing") { player.timeControlStatus == .playing }
        for _ in 0..<3 {
            clock.advance(by: 0.01)
            await mainQueueSleep(nanoseconds: 10_000_000)
            readings.append(player.currentTime().seconds)
        }
        output.letStart()
        await waitUntil("the output runs") { output.inner.isRunning }
        for _ in 0..<10 {
            await advanceFed(clock, by: 0.01, playing: player, output: output.inner, step: 0.01)
            readings.append(player.currentTime().seconds)
        }
        #expect(readings.prefix(4).allSatisfy { $0 == 0 }, "\(readings)")
        #expect(zip(readings, readings.dropFirst()).allSatisfy { $1 >= $0 }, "never back: \(readings)")
        #expect(abs(readings.last! - 0.1) < 1e-6, "then with the sound: \(readings)")
        player.replaceCurrentItem(with: nil)
    }
}
