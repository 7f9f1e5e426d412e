// Playhead: buffer flags and loaded time ranges of a local file.
import Foundation
import PlayheadTestSupport
import Testing

@testable import OpenAVFoundation

@MainActor
@Suite struct AVPlayerItemBufferingTests {
    @Test func readyLocalItemIsLikelyToKeepUpAndLoadsToItsDuration() async throws {
        let item = AVPlayerItem(url: try Fixture.url(.mp4))
        #expect(item.loadedTimeRanges.isEmpty)
        #expect(!item.isPlaybackLikelyToKeepUp)
        var ends: [Double] = []
        let observation = item.observe(\.loadedTimeRanges, options: [.new]) { item, _ in
            MainActor.assumeIsolated {
                if let range = item.loadedTimeRanges.first?.timeRangeValue {
                    #expect(range.start == .zero)
                    ends.append(range.end.seconds)
                }
            }
        }
        let player = AVPlayer(environment: untimedEnvironment(RecordingVideoSink()), playerItem: item)
        await waitUntil("ready") { item.status == .readyToPlay && item.isPlaybackLikelyToKeepUp }
        await waitUntil("loaded to the end") {
            item.loadedTimeRanges.first?.timeRangeValue.end == item.duration
        }
        observation.invalidate()
        #expect(item.loadedTimeRanges.count == 1)
        #expect(item.loadedTimeRanges.first?.timeRangeValue.start == .zero)
        #expect(ends == ends.sorted(), "the loaded range only grows: \(ends)")
        #expect(!item.isPlaybackBufferEmpty)
        #expect(item.seekableTimeRanges.first?.timeRangeValue == CMTimeRange(start: .zero, duration: item.duration))
        #expect(player.timeControlStatus == .paused)
    }

    @Test func afterASeekTheLoadedRangeRestartsNearTheTarget() async throws {
        let item = AVPlayerItem(url: try Fixture.url(.mp4))
        let player = AVPlayer(environment: untimedEnvironment(RecordingVideoSink()), playerItem: item)
        await waitUntil("loaded to the end") {
            item.loadedTimeRanges.first?.timeRangeValue.end == item.duration
        }
        let target = CMTime(value: 13, timescale: 10)
        let finished = await player.seek(to: target, toleranceBefore: .zero, toleranceAfter: .zero)
        #expect(finished)
        await waitUntil("range after the seek") {
            guard let range = item.loadedTimeRanges.first?.timeRangeValue else { return false }
            return range.start > .zero && range.end == item.duration
        }
        let range = try #require(item.loadedTimeRanges.first?.timeRangeValue)
        #expect(abs(range.start.seconds - 1.3) <= 0.31, "starts near the target: \(range.start.seconds)")
        // The flag is published on its own after the range (late under a sanitizer's slowdown).
        await waitUntil("likely to keep up after the seek") { item.isPlaybackLikelyToKeepUp }
    }

    @Test func playbackStartsWithoutStalling() async throws {
        let clock = ManualClock()
        let item = AVPlayerItem(url: try Fixture.url(.mp4))
        let player = AVPlayer(environment: timedEnvironment(RecordingVideoSink(), clock: clock, audio: true), playerItem: item)
        let log = NotificationLog([AVPlayerItem.playbackStalledNotification], object: item)
        player.play()
        await waitUntil("playing") { player.timeControlStatus == .playing }
        // Each step fed (the real-time audio thread keeps up however slow the machine: under a
        // sanitizer plain steps ran the clock past what was buffered).
        try #require(!ClockDrivenOutputs.shared.outputs(on: clock).isEmpty)
        await advanceFed(clock, by: 1.5, playing: player, outputs: { ClockDrivenOutputs.shared.outputs(on: clock) }, step: 0.05)
        #expect(log.count(AVPlayerItem.playbackStalledNotification) == 0)
        #expect(player.timeControlStatus == .playing)
        await waitUntil("likely to keep up") { item.isPlaybackLikelyToKeepUp }
    }
}
