// Playhead: buffering over the network: a server that stops sending makes the buffer run dry,
// the player stalls and waits, and plays on by itself once data flows again.
import Foundation
import PlayheadTestSupport
import Testing

@testable import OpenAVFoundation

@MainActor
@Suite struct NetworkBufferingTests {
    @Test func aStalledServerStallsPlaybackWhichRecoversByItself() async throws {
        let server = try networkMediaServer()
        defer { server.stop() }
        let clock = ManualClock()
        let item = AVPlayerItem(asset: try heldProgressiveAsset(on: server))
        let output = ClockDrivenAudioOutput(clock: clock)
        let sinks = VideoSinks()
        sinks.add(RecordingVideoSink())
        let player = AVPlayer(
            environment: PlaybackEnvironment(hostClock: clock, makeAudioOutput: { output }, videoSinks: sinks),
            playerItem: item)
        let notes = NotificationLog(
            [AVPlayerItem.playbackStalledNotification, AVPlayerItem.didPlayToEndTimeNotification], object: item)
        let statuses = ValueLog(player, \.timeControlStatus)
        let reasons = ValueLog(player, \.reasonForWaitingToPlay)
        let empties = ValueLog(item, \.isPlaybackBufferEmpty)
        let keepUps = ValueLog(item, \.isPlaybackLikelyToKeepUp)
        player.play()
        await waitUntil(timeout: 60, "playing") { player.timeControlStatus == .playing }
        let held = try #require(item.loadedTimeRanges.last?.timeRangeValue.end.seconds)
        #expect(held > 1 && held < 3.5, "buffered up to the hold: \(held) s")

        // Time runs into the end of what arrived: the buffer empties and the player waits.
        // Each step waits for the real-time audio thread to queue its sound, so the item time
        // follows the clock however loaded the machine is (a starved audio thread stops the
        // audio clock, and the steps could run out before time got to the hold).
        for _ in 0..<400 where player.timeControlStatus == .playing {
            await advanceFed(clock, by: 0.05, playing: player, output: output, step: 0.05)
        }
        #expect(player.timeControlStatus == .waitingToPlayAtSpecifiedRate)
        #expect(player.reasonForWaitingToPlay == .toMinimizeStalls)
        #expect(item.isPlaybackBufferEmpty)
        #expect(!item.isPlaybackLikelyToKeepUp)
        // Notifications may be delivered a moment after the status changes.
        await waitUntil("the stall notification") { notes.count(AVPlayerItem.playbackStalledNotification) >= 1 }
        #expect(notes.count(AVPlayerItem.playbackStalledNotification) == 1)
        #expect(player.rate == 1, "waiting keeps the requested rate")
        let stalledAt = player.currentTime().seconds
        await advance(clock, by: 1, step: 0.05)
        #expect(abs(player.currentTime().seconds - stalledAt) < 0.05, "time stands still while waiting")

        // The server sends again: the player resumes by itself.
        server.releaseHolds()
        await waitUntil(timeout: 60, "playing again") { player.timeControlStatus == .playing }
        #expect(item.isPlaybackLikelyToKeepUp)
        #expect(!item.isPlaybackBufferEmpty)
        // To the end, each step fed as above.
        for _ in 0..<400 where player.timeControlStatus == .playing {
            await advanceFed(clock, by: 0.05, playing: player, output: output, step: 0.05)
        }
        await waitUntil("the end notification") { notes.count(AVPlayerItem.didPlayToEndTimeNotification) == 1 }
        #expect(notes.count(AVPlayerItem.didPlayToEndTimeNotification) == 1)
        #expect(notes.count(AVPlayerItem.playbackStalledNotification) == 1)

        // The whole story, in order: wait for the start, play, stall, wait, play, pause at the end.
        #expect(statuses.values == [.paused, .waitingToPlayAtSpecifiedRate, .playing,
                                    .waitingToPlayAtSpecifiedRate, .playing, .paused])
        // At the start the reason may move on from evaluating to minimizing stalls while the
        // first second arrives; the stall itself is always "to minimize stalls".
        #expect(Array(reasons.values.prefix(2)) == [nil, .evaluatingBufferingRate], "\(reasons.values)")
        #expect(Array(reasons.values.suffix(2)) == [.toMinimizeStalls, nil], "\(reasons.values)")
        #expect(empties.values == [true, false, true, false])
        // Likely to keep up at the start, not at the stall, again after it. (Where the fed
        // clock outruns a loaded machine's server after the stall, what is read ahead can dip
        // below the threshold once more without a stall: a CI run saw one more false, true.)
        #expect(Array(keepUps.values.prefix(4)) == [false, true, false, true], "\(keepUps.values)")
        #expect(keepUps.values.last == true, "\(keepUps.values)")
        player.replaceCurrentItem(with: nil)
    }

    @Test func loadedTimeRangesGrowFromTheStartToTheEnd() async throws {
        let server = try networkMediaServer()
        defer { server.stop() }
        server.bytesPerSecond = 400_000
        let item = AVPlayerItem(url: server.url(for: "hls/index.m3u8"))
        var ends: [Double] = []
        let observation = item.observe(\.loadedTimeRanges, options: [.new]) { item, _ in
            MainActor.assumeIsolated {
                let ranges = item.loadedTimeRanges.map(\.timeRangeValue)
                #expect(ranges.count <= 1)
                if let range = ranges.first { ends.append(range.end.seconds) }
            }
        }
        let player = AVPlayer(environment: untimedEnvironment(RecordingVideoSink()), playerItem: item)
        await waitUntil("loaded to the end") {
            item.loadedTimeRanges.first.map { $0.timeRangeValue.end == item.duration } ?? false
        }
        observation.invalidate()
        #expect(ends.count >= 3, "the range grew in steps: \(ends)")
        #expect(ends == ends.sorted())
        #expect(item.loadedTimeRanges.first?.timeRangeValue.start == .zero)
        #expect(item.isPlaybackBufferFull || item.isPlaybackLikelyToKeepUp)
        player.replaceCurrentItem(with: nil)
    }

    @Test(.enabled(if: realTimeTestsEnabled))
    func aStreamCappedBelowItsBitrateStallsAndStillCompletesInRealTime() async throws {
        let server = try networkMediaServer()
        defer { server.stop() }
        server.bytesPerSecond = 60_000
        let item = AVPlayerItem(url: server.url(for: "heavy.mp4"))
        let player = AVPlayer(
            environment: timedEnvironment(RecordingVideoSink(), clock: SystemHostClock.shared, audio: true),
            playerItem: item)
        let notes = NotificationLog(
            [AVPlayerItem.playbackStalledNotification, AVPlayerItem.didPlayToEndTimeNotification], object: item)
        let statuses = ValueLog(player, \.timeControlStatus)
        let start = Date()
        player.play()
        await waitUntil(timeout: 40, "the end") { notes.count(AVPlayerItem.didPlayToEndTimeNotification) == 1 }
        let seconds = Date().timeIntervalSince(start)
        #expect(notes.count(AVPlayerItem.playbackStalledNotification) >= 1, "statuses: \(statuses.values)")
        #expect(statuses.values.split { $0 != .playing }.count >= 2)
        #expect(seconds > NetworkMedia.heavyDuration + 1, "waiting took time: \(seconds) s")
        #expect(abs(player.currentTime().seconds - NetworkMedia.heavyDuration) < 0.2)
        player.replaceCurrentItem(with: nil)
    }
}
