// Playhead: negative rates: time runs backward, the picture steps from keyframe to keyframe
// (exact pictures, by checksum), observers follow, the start ends it as the end ends forward
// play, and forward play afterwards resumes exactly where time stood.
import Foundation
import PlayheadTestSupport
import Testing

@testable import OpenAVFoundation

@MainActor
@Suite struct AVPlayerReverseTests {
    @Test func playingBackwardStepsThroughTheKeyframesAndStopsAtTheStart() async throws {
        // Two seconds at 25 fps with a keyframe every second: keyframes at 0 and 1 s.
        let url = try Fixture.url(.mp4)
        let reference = await linearChecksums(of: url)
        let clock = ManualClock()
        let sink = RecordingVideoSink()
        let item = AVPlayerItem(url: url)
        // With sound: backward play is silent (the output stops) and the sound does not hold time.
        let player = AVPlayer(environment: timedEnvironment(sink, clock: clock, audio: true), playerItem: item)
        await waitUntil("ready") { item.status == .readyToPlay }
        #expect(item.canPlayReverse && item.canPlayFastReverse && item.canPlaySlowReverse)
        #expect(await player.seek(to: CMTime(value: 18, timescale: 10), toleranceBefore: .zero, toleranceAfter: .zero))
        let ends = NotificationLog([AVPlayerItem.didPlayToEndTimeNotification], object: item)
        let observed = Locked<[Double]>([])
        let observer = player.addPeriodicTimeObserver(forInterval: CMTime(value: 1, timescale: 10), queue: .main) {
            time in observed.withLock { $0.append(time.seconds) }
        }
        sink.reset()
        let statuses = ValueLog(player, \.timeControlStatus)
        player.rate = -1
        #expect(player.rate == -1)
        #expect(player.timeControlStatus == .playing)
        await advance(clock, by: 0.3)
        #expect(abs(item.currentTime().seconds - 1.5) < 0.03, "\(item.currentTime().seconds) \(statuses.values)")
        await waitUntil("the keyframe at 1 s shows") { sink.last.map { millis($0.pts) } == 1000 }
        await advance(clock, by: 0.6)
        await waitUntil("the keyframe at 0 shows") { sink.last.map { millis($0.pts) } == 0 }
        #expect(abs(item.currentTime().seconds - 0.9) < 0.03, "\(item.currentTime().seconds)")
        #expect(statuses.values == [.paused, .playing], "no waiting while playing backward: \(statuses.values)")
        await advance(clock, by: 1.0, thenUpTo: 1) { player.rate == 0 }
        await waitUntil("the start ends it") { ends.count(AVPlayerItem.didPlayToEndTimeNotification) == 1 }
        #expect(player.rate == 0)
        #expect(player.timeControlStatus == .paused)
        #expect(item.currentTime() == .zero)
        // Only keyframes showed, each once, in descending order, with the decoder's pictures.
        let shown = sink.frames.map { millis($0.pts) }
        #expect(shown == [1000, 0], "\(shown)")
        for entry in sink.frames {
            #expect(reference[millis(entry.pts)] == entry.frame.checksum(), "picture at \(millis(entry.pts))")
        }
        // The periodic observer followed time down, every crossing of 0.1 s at most once.
        let times = observed.withLock { $0 }
        #expect(times.count >= 8, "\(times)")
        #expect(times == times.sorted(by: >), "\(times)")
        player.removeTimeObserver(observer)
    }

    @Test func forwardPlayAfterPlayingBackwardResumesExactlyWhereTimeStood() async throws {
        let url = try Fixture.url(.mp4)
        let reference = await linearChecksums(of: url)
        let clock = ManualClock()
        let sink = RecordingVideoSink()
        let item = AVPlayerItem(url: url)
        let player = AVPlayer(environment: timedEnvironment(sink, clock: clock), playerItem: item)
        await waitUntil("ready") { item.status == .readyToPlay }
        #expect(await player.seek(to: CMTime(value: 19, timescale: 10), toleranceBefore: .zero, toleranceAfter: .zero))
        player.rate = -1
        await advance(clock, by: 0.5)
        await waitUntil("the keyframe at 1 s shows") { sink.last.map { millis($0.pts) } == 1000 }
        player.pause()
        let stood = item.currentTime()
        #expect(abs(stood.seconds - 1.4) < 0.03, "\(stood.seconds)")
        sink.reset()
        player.rate = 1
        // The clock stands still until the resuming picture shows (time restarts there).
        await waitUntil("the picture where time stood") { sink.count >= 1 }
        // A frame's time at a time (25 fps): each is shown before the next falls due, so none
        // is late and dropped however slowly the decoder runs (a sanitizer, a loaded machine).
        for step in 1...5 {
            await advance(clock, by: 0.04)
            await waitUntil("frame \(step) after where time stood") { sink.count >= step + 1 }
        }
        let shown = sink.frames.map { millis($0.pts) }
        // The first picture is the frame showing at that time, then every frame on from it.
        let first = try #require(shown.first)
        #expect(first <= millis(stood) && millis(stood) - first < 40, "\(shown)")
        #expect(shown == shown.sorted() && Set(shown).count == shown.count, "\(shown)")
        for entry in sink.frames {
            #expect(reference[millis(entry.pts)] == entry.frame.checksum(), "picture at \(millis(entry.pts))")
        }
        #expect(abs(item.currentTime().seconds - (stood.seconds + 0.2)) < 0.03)
        player.pause()
    }

    @Test func anItemThatCannotPlayBackwardPausesAtANegativeRate() async throws {
        let item = AVPlayerItem(url: try Fixture.url(.audioOnlyM4A))
        let player = AVPlayer(environment: timedEnvironment(RecordingVideoSink(), clock: ManualClock()), playerItem: item)
        await waitUntil("ready") { item.status == .readyToPlay }
        #expect(!item.canPlayReverse)
        player.rate = -1
        #expect(player.rate == 0)
        #expect(player.timeControlStatus == .paused)
    }
}
