// Playhead: AVPlayer playing real media end to end (untimed, silent).
import Foundation
import PlayheadTestSupport
import Testing

@testable import OpenAVFoundation

@MainActor
@Suite struct AVPlayerPlaybackTests {
    @Test func untimedPlaybackPresentsEveryFrameAndEnds() async throws {
        let url = try Fixture.url(.mp4)
        let sink = RecordingVideoSink()
        let item = AVPlayerItem(url: url)
        let player = AVPlayer(environment: untimedEnvironment(sink), playerItem: item)
        let log = NotificationLog([AVPlayerItem.didPlayToEndTimeNotification], object: item)
        var statuses: [AVPlayerItem.Status] = []
        let observation = item.observe(\.status, options: [.initial, .new]) { item, change in
            MainActor.assumeIsolated { statuses.append(change.newValue!) }
        }
        player.play()
        await waitUntil("end of item") { log.count(AVPlayerItem.didPlayToEndTimeNotification) == 1 }
        observation.invalidate()
        #expect(statuses == [.unknown, .readyToPlay])
        #expect(item.duration.seconds > 1.9)
        #expect(sink.count == 50)
        let times = sink.frames.map(\.pts.seconds)
        #expect(times == times.sorted())
        #expect(player.rate == 0)
        #expect(player.timeControlStatus == .paused)
        #expect(abs(player.currentTime().seconds - item.duration.seconds) < 0.05)
    }

    @Test func missingFileFailsTheItemWithAClearError() async throws {
        let item = AVPlayerItem(url: URL(fileURLWithPath: "/nonexistent/clip.mp4"))
        let player = AVPlayer(environment: untimedEnvironment(RecordingVideoSink()), playerItem: item)
        player.play()
        await waitUntil("failure") { item.status == .failed }
        #expect((item.error as NSError?)?.localizedDescription == "no such file")
        #expect(player.status == .readyToPlay)
        #expect(player.timeControlStatus == .paused)
    }
}
