// Playhead: the observable state sequences of AVPlayer and AVPlayerItem during playback.
import Foundation
import PlayheadTestSupport
import Testing

@testable import OpenAVFoundation

@MainActor
@Suite struct AVPlayerStatusTests {
    @Test func itemGoesFromUnknownToReadyToPlay() async throws {
        let item = AVPlayerItem(url: try Fixture.url(.mp4))
        let statuses = ValueLog(item, \.status)
        #expect(item.duration.isIndefinite)
        let player = AVPlayer(environment: untimedEnvironment(RecordingVideoSink()), playerItem: item)
        await waitUntil("ready") { item.status == .readyToPlay }
        statuses.stop()
        #expect(statuses.values == [.unknown, .readyToPlay])
        #expect(abs(item.duration.seconds - 2) < 0.05)
        #expect(item.presentationSize == CGSize(width: 320, height: 240))
        #expect(item.tracks.count == 2)
        #expect(player.status == .readyToPlay)
        #expect(item.error == nil)
    }

    @Test func playingToTheEndPausesAndPostsDidPlayToEndOnce() async throws {
        let item = AVPlayerItem(url: try Fixture.url(.mp4))
        let player = AVPlayer(environment: untimedEnvironment(RecordingVideoSink()), playerItem: item)
        let controls = ValueLog(player, \.timeControlStatus)
        let rates = ValueLog(player, \.rate)
        let log = NotificationLog([AVPlayerItem.didPlayToEndTimeNotification], object: item)
        player.play()
        await waitUntil("end") { log.count(AVPlayerItem.didPlayToEndTimeNotification) == 1 }
        await mainQueueSleep(nanoseconds: 100_000_000)
        controls.stop()
        rates.stop()
        #expect(log.count(AVPlayerItem.didPlayToEndTimeNotification) == 1)
        // Paused, playing (after waiting for data, and again when an untimed run outpaces the
        // reading, as under a sanitizer), then paused once at the end.
        let values = controls.values
        #expect(values.first == .paused && values.suffix(2) == [.playing, .paused], "\(values)")
        #expect(!values.dropFirst().dropLast().contains(.paused), "\(values)")
        #expect(rates.values == [0, 1, 0])
        #expect(player.reasonForWaitingToPlay == nil)
    }

    @Test func waitingReasonIsSetOnlyWhileWaiting() async throws {
        let item = AVPlayerItem(url: try Fixture.url(.mp4))
        let player = AVPlayer(environment: untimedEnvironment(RecordingVideoSink()), playerItem: item)
        var pairs: [(AVPlayer.TimeControlStatus, AVPlayer.WaitingReason?)] = []
        let observation = player.observe(\.timeControlStatus, options: [.new]) { player, _ in
            MainActor.assumeIsolated {
                pairs.append((player.timeControlStatus, player.reasonForWaitingToPlay))
            }
        }
        player.play()
        await waitUntil("paused at the end") { !pairs.isEmpty && player.timeControlStatus == .paused }
        observation.invalidate()
        for (status, reason) in pairs {
            #expect((status == .waitingToPlayAtSpecifiedRate) == (reason != nil))
        }
    }

    @Test func actionNoneKeepsTheRateAtTheEnd() async throws {
        let item = AVPlayerItem(url: try Fixture.url(.mp4))
        let player = AVPlayer(environment: untimedEnvironment(RecordingVideoSink()), playerItem: item)
        player.actionAtItemEnd = .none
        let log = NotificationLog([AVPlayerItem.didPlayToEndTimeNotification], object: item)
        player.play()
        await waitUntil("end") { log.count(AVPlayerItem.didPlayToEndTimeNotification) == 1 }
        await mainQueueSleep(nanoseconds: 150_000_000)
        #expect(log.count(AVPlayerItem.didPlayToEndTimeNotification) == 1)
        #expect(player.rate == 1)
        #expect(player.timeControlStatus == .playing)
        #expect(player.currentTime().seconds >= item.duration.seconds - 0.05)
    }

    @Test func changingActionToPauseAtTheEndPausesAtOnce() async throws {
        let item = AVPlayerItem(url: try Fixture.url(.mp4))
        let player = AVPlayer(environment: untimedEnvironment(RecordingVideoSink()), playerItem: item)
        player.actionAtItemEnd = .none
        let log = NotificationLog([AVPlayerItem.didPlayToEndTimeNotification], object: item)
        player.play()
        await waitUntil("end") { log.count(AVPlayerItem.didPlayToEndTimeNotification) == 1 }
        player.actionAtItemEnd = .pause
        #expect(player.rate == 0)
        #expect(player.timeControlStatus == .paused)
    }

    @Test func replayAfterTheEndNeedsASeekToZero() async throws {
        let sink = RecordingVideoSink()
        let item = AVPlayerItem(url: try Fixture.url(.mp4))
        let player = AVPlayer(environment: untimedEnvironment(sink), playerItem: item)
        let log = NotificationLog([AVPlayerItem.didPlayToEndTimeNotification], object: item)
        player.play()
        await waitUntil("first end") { log.count(AVPlayerItem.didPlayToEndTimeNotification) == 1 }
        player.play()
        await waitUntil("end again at once") { log.count(AVPlayerItem.didPlayToEndTimeNotification) == 2 }
        #expect(player.rate == 0)
        let finished = await player.seek(to: .zero)
        #expect(finished)
        sink.reset()
        player.play()
        await waitUntil("third end") { log.count(AVPlayerItem.didPlayToEndTimeNotification) == 3 }
        #expect(sink.count >= 49)
    }

    @Test func pausedPlayerNeverReachesTheEnd() async throws {
        let item = AVPlayerItem(url: try Fixture.url(.mp4))
        let sink = RecordingVideoSink()
        let player = AVPlayer(environment: untimedEnvironment(sink), playerItem: item)
        let log = NotificationLog([AVPlayerItem.didPlayToEndTimeNotification], object: item)
        await waitUntil("ready") { item.status == .readyToPlay && sink.count == 1 }
        await mainQueueSleep(nanoseconds: 150_000_000)
        #expect(sink.count == 1)
        #expect(log.count(AVPlayerItem.didPlayToEndTimeNotification) == 0)
        #expect(player.currentTime() == .zero)
    }

    @Test(arguments: [BadInput.missingFile, .directory, .emptyFile, .randomBytes, .textFileNamedMP4, .truncatedMP4])
    func unplayableInputFailsTheItemButNotThePlayer(_ input: BadInput) async throws {
        let item = AVPlayerItem(url: try BadInput.url(input))
        let statuses = ValueLog(item, \.status)
        let player = AVPlayer(environment: untimedEnvironment(RecordingVideoSink()), playerItem: item)
        player.play()
        await waitUntil("failure of \(input)") { item.status == .failed }
        statuses.stop()
        #expect(statuses.values == [.unknown, .failed])
        let error = try #require(item.error as NSError?)
        // Apple reports file-system problems in NSURLErrorDomain, the rest as AVErrors.
        #expect([AVFoundationErrorDomain, NSURLErrorDomain].contains(error.domain))
        #expect(!error.localizedDescription.isEmpty)
        #expect(player.status == .readyToPlay)
        #expect(player.error == nil)
        #expect(player.rate == 0)
        #expect(player.timeControlStatus == .paused)
    }

    @Test func videoWithoutADecoderStillPlaysItsAudio() async throws {
        let item = AVPlayerItem(url: try Fixture.url(.undecodableVideoMP4))
        let sink = RecordingVideoSink()
        let clock = ManualClock()
        let player = AVPlayer(environment: timedEnvironment(sink, clock: clock, audio: true), playerItem: item)
        let log = NotificationLog([AVPlayerItem.didPlayToEndTimeNotification], object: item)
        await waitUntil("ready") { item.status == .readyToPlay }
        #expect(item.presentationSize == .zero)
        player.play()
        await waitUntil("playing") { player.timeControlStatus == .playing }
        // Each step fed: the sound's clock follows the manual clock however slow the machine.
        await advanceFed(clock, by: 1, playing: player, outputs: { ClockDrivenOutputs.shared.outputs(on: clock) })
        #expect(player.currentTime().seconds > 0.5)
        await advanceFed(clock, by: 1.5, playing: player, step: 0.05, thenUpTo: 10) {
            log.count(AVPlayerItem.didPlayToEndTimeNotification) == 1
        }
        await waitUntil("end") { log.count(AVPlayerItem.didPlayToEndTimeNotification) == 1 }
        #expect(sink.count == 0)
        #expect(item.status == .readyToPlay)
        #expect((engine(of: player)?.statistics.audioSeconds ?? 0) > 1.9)
    }
}
