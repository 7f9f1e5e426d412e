// Playhead: AVQueuePlayer: order, transitions without a gap (preroll), per-item notifications,
// insert and remove while playing.
import Foundation
import PlayheadTestSupport
import Synchronization
import Testing

@testable import OpenAVFoundation

@MainActor
@Suite struct AVQueuePlayerTests {
    @Test func aQueuePlaysItsItemsInOrderWithOneEndNotificationEach() async throws {
        let sink = ChecksumVideoSink()
        let urls = [try Fixture.url(.mp4), try Fixture.url(.webM), try Fixture.url(.videoOnlyMP4)]
        let items = urls.map { AVPlayerItem(url: $0) }
        let references = [
            await linearChecksums(of: urls[0]), await linearChecksums(of: urls[1]),
            await linearChecksums(of: urls[2]),
        ]
        let logs = items.map { NotificationLog([AVPlayerItem.didPlayToEndTimeNotification], object: $0) }
        let player = AVQueuePlayer(environment: untimedEnvironment(sink), items: items)
        #expect(player.actionAtItemEnd == .advance)
        #expect(player.items().count == 3)
        let current = ValueLog(player, \.currentItem)
        player.play()
        await waitUntil("the queue ran out") { player.currentItem == nil }
        current.stop()
        // Notifications posted off the main thread may trail the last change a little.
        await waitUntil("every end notification") {
            logs.allSatisfy { $0.count(AVPlayerItem.didPlayToEndTimeNotification) >= 1 }
        }
        for (index, log) in logs.enumerated() {
            #expect(log.count(AVPlayerItem.didPlayToEndTimeNotification) == 1, "item \(index)")
        }
        let sequence = current.values.map { value in value.flatMap { item in items.firstIndex { $0 === item } } }
        #expect(sequence == [0, 1, 2, nil])
        #expect(player.items().isEmpty)
        #expect(player.timeControlStatus == .waitingToPlayAtSpecifiedRate)
        #expect(player.reasonForWaitingToPlay == .noItemToPlay)
        // Frames arrive item after item: once a frame of item k shows, none of item k-1 follows.
        var owner = 0
        for entry in sink.frames {
            let checksum = entry.checksum
            let matches = references.indices.filter { references[$0][millis(entry.pts)] == checksum }
            let index = try #require(matches.first { $0 >= owner }, "frame \(entry.pts.seconds) out of order")
            owner = index
        }
        #expect(owner == 2)
        #expect(sink.count >= references.map(\.count).reduce(0, +) - 3)
    }

    @Test func theNextItemsFirstFrameIsReadyBeforeTheCurrentOneEndsAndShowsAtOnce() async throws {
        let sink = RecordingVideoSink()
        let clock = ManualClock()
        let first = AVPlayerItem(url: try Fixture.url(.mp4))
        let second = AVPlayerItem(url: try Fixture.url(.webM))
        let secondReference = await linearChecksums(of: try Fixture.url(.webM))
        let secondStart = try #require(secondReference.keys.min())
        let player = AVQueuePlayer(environment: timedEnvironment(sink, clock: clock), items: [first, second])
        player.play()
        await waitUntil("playing") { player.timeControlStatus == .playing }
        await advance(clock, by: 1.0)
        await waitUntil("the next item prerolled") { player.isNextItemPrerolled }
        #expect(player.currentItem === first)
        #expect(first.currentTime().seconds < 1.5)
        // Nothing of the prerolled item was shown, and the picture was never cleared.
        #expect(sink.frames.allSatisfy { secondReference[millis($0.pts)] != $0.frame.checksum() })
        let clears = sink.clearCount
        let duration = first.duration.seconds
        await advance(clock, by: duration - 1.0 + 0.02)
        // At the end the second item's first frame shows without the clock moving on.
        await waitUntil("the second item shows") {
            player.currentItem === second
                && sink.last.map { secondReference[millis($0.pts)] == $0.frame.checksum() } == true
        }
        let firstOfSecond = try #require(
            sink.frames.first { secondReference[millis($0.pts)] == $0.frame.checksum() })
        #expect(millis(firstOfSecond.pts) == secondStart)
        #expect(sink.clearCount == clears, "no black frame between the items")
        #expect(player.rate == 1)
        await advance(clock, by: 0.2)
        await waitUntil("the second item plays on") { second.currentTime().seconds >= 0.15 }
    }

    @Test func withAudioTheNextItemPlaysOnFromTheSwitchWithoutWaiting() async throws {
        let clock = ManualClock()
        let first = AVPlayerItem(url: try Fixture.url(.mp4))
        let second = AVPlayerItem(url: try Fixture.url(.webM))
        let outputs = Mutex<[ClockDrivenAudioOutput]>([])
        let sinks = VideoSinks()
        sinks.add(RecordingVideoSink())
        let environment = PlaybackEnvironment(
            hostClock: clock,
            makeAudioOutput: { @Sendable in
                let output = ClockDrivenAudioOutput(clock: clock)
                outputs.withLock { $0.append(output) }
                return output
            }, videoSinks: sinks)
        let player = AVQueuePlayer(environment: environment, items: [first, second])
        let stalls = NotificationLog([AVPlayerItem.playbackStalledNotification], object: second)
        player.play()
        await waitUntil("playing") { player.timeControlStatus == .playing }
        let statuses = ValueLog(player, \.timeControlStatus)
        await advance(clock, by: 1.0)
        await waitUntil("the next item prerolled") { player.isNextItemPrerolled }
        // The prerolled item's audio is decoded in real time: let it be ready before the
        // clock reaches the switch, so a loaded machine cannot turn the switch into a stall.
        await waitUntil("the next item's audio is ready") {
            (player.queue.withLock { $0.prerolled?.engine.pipeline?.ring?.bufferedDuration.seconds } ?? 0) >= 0.2
        }
        let next = try #require(player.queue.withLock { $0.prerolled?.engine })
        // Step to the switch as the engine makes it (the public item follows on the main queue,
        // which a loaded machine delays by more than a step).
        var steps = 0
        while engine(of: player) !== next && steps < 100 {
            await advance(clock, by: 0.02)
            steps += 1
        }
        await waitUntil("the second item is current") { player.currentItem === second }
        for output in outputs.withLock({ $0 }) { await output.caughtUp(timeout: 2) }
        let atSwitch = second.currentTime().seconds
        var readings: [Double] = []
        #expect(atSwitch < 0.1, "the second item starts at its beginning")
        for _ in 0..<15 {
            await advanceFed(clock, by: 0.02, playing: player, outputs: { outputs.withLock { $0 } })
            readings.append(second.currentTime().seconds)
        }
        await waitUntil("the second item's audio plays") { second.playbackStatistics.audioSeconds > 0.2 }
        statuses.stop()
        // Time ran on through the switch: no waiting state, no stall, the clock's pace kept.
        #expect(statuses.values == [.playing], "\(statuses.values)")
        #expect(stalls.count(AVPlayerItem.playbackStalledNotification) == 0)
        // On a loaded machine the sound may start a step or two before the engine's switch is
        // through, and time joins it at the first reading; from there it keeps the clock's pace.
        #expect(readings.first! - atSwitch < 0.1, "\(atSwitch) then \(readings)")
        #expect(zip(readings, readings.dropFirst()).allSatisfy { $1 >= $0 }, "\(readings)")
        let moved = readings.last! - readings.first!
        #expect(abs(moved - 0.28) < 0.015, "\(atSwitch) then \(readings), \(steps) steps")
        player.pause()
    }

    @Test func insertingAndRemovingWhilePlayingKeepsTheOrderAndThePreroll() async throws {
        let clock = ManualClock()
        let a = AVPlayerItem(url: try Fixture.url(.mp4))
        let b = AVPlayerItem(url: try Fixture.url(.webM))
        let c = AVPlayerItem(url: try Fixture.url(.videoOnlyMP4))
        let d = AVPlayerItem(url: try Fixture.url(.mov))
        let player = AVQueuePlayer(environment: timedEnvironment(ChecksumVideoSink(), clock: clock), items: [a])
        player.play()
        await waitUntil("playing") { player.timeControlStatus == .playing }
        #expect(player.canInsert(b, after: nil))
        player.insert(b, after: nil)
        player.insert(c, after: a)
        #expect(player.items().map(ObjectIdentifier.init) == [a, c, b].map(ObjectIdentifier.init))
        #expect(!player.canInsert(b, after: nil), "already queued")
        #expect(!player.canInsert(d, after: AVPlayerItem(url: try Fixture.url(.mp4))), "after an item not queued")
        await waitUntil("c prerolled") { player.isNextItemPrerolled && prerolledItem(player) === c }
        player.remove(c)
        #expect(player.items().map(ObjectIdentifier.init) == [a, b].map(ObjectIdentifier.init))
        await waitUntil("b prerolled") { player.isNextItemPrerolled && prerolledItem(player) === b }
        player.insert(d, after: b)
        player.remove(a)  // the current item: advances
        #expect(player.currentItem === b)
        #expect(player.items().map(ObjectIdentifier.init) == [b, d].map(ObjectIdentifier.init))
        #expect(engine(of: player) != nil)
        await waitUntil("b plays") { b.status == .readyToPlay && player.timeControlStatus == .playing }
        player.advanceToNextItem()
        #expect(player.currentItem === d)
        await waitUntil("d plays") { d.status == .readyToPlay && player.timeControlStatus == .playing }
        player.removeAllItems()
        #expect(player.currentItem == nil)
        #expect(player.items().isEmpty)
        #expect(prerolledItem(player) == nil)
        // Inserting into the emptied queue starts playing again at the kept rate.
        player.insert(a, after: nil)
        #expect(player.currentItem === a)
        await waitUntil("a plays again") { player.timeControlStatus == .playing }
    }

    @Test func aQueuedItemsSeekRunsWhilePrerollingAndCompletesOnceWhenItBecomesCurrent() async throws {
        let clock = ManualClock()
        let first = AVPlayerItem(url: try Fixture.url(.mp4))
        let second = AVPlayerItem(url: try Fixture.url(.webM))
        let third = AVPlayerItem(url: try Fixture.url(.mp4))
        let results = Locked<[String: [Bool]]>([:])
        // The pending seek lives on the item: set before any player, run by the preroll.
        second.seek(to: CMTime(value: 1, timescale: 1), toleranceBefore: .zero, toleranceAfter: .zero) { done in
            results.withLock { $0["second", default: []].append(done) }
        }
        third.seek(to: CMTime(value: 2, timescale: 1)) { done in
            results.withLock { $0["third", default: []].append(done) }
        }
        let player = AVQueuePlayer(environment: timedEnvironment(RecordingVideoSink(), clock: clock), items: [first, second, third])
        player.play()
        await waitUntil("playing") { player.timeControlStatus == .playing }
        await waitUntil("the second item prerolled") { player.isNextItemPrerolled }
        #expect(results.withLock { $0 }.isEmpty, "a prerolled seek completes only once its item is current")
        // The third item's seek is cancelled while it waits: false once, and never true later.
        third.cancelPendingSeeks()
        await waitUntil("the cancelled seek completes") { results.withLock { $0["third"] } != nil }
        await advance(clock, by: first.duration.seconds + 0.02)
        await waitUntil("the second item is current and its seek completed") {
            player.currentItem === second && results.withLock { $0["second"] } != nil
        }
        #expect(results.withLock { $0["second"] } == [true])
        // It played on from the seek target since the switch (at most the 20 ms past the end).
        let time = second.currentTime().seconds
        #expect(time >= 1.0 && time < 1.1, "\(time)")
        player.advanceToNextItem()
        #expect(player.currentItem === third)
        await waitUntil("the third item plays") { third.status == .readyToPlay }
        #expect(third.currentTime().seconds < 0.5, "the cancelled seek did not run")
        #expect(results.withLock { $0 } == ["second": [true], "third": [false]])
        player.pause()
    }

    @Test func aPlainPlayerPausesAtTheEndWhileAQueueAdvances() {
        #expect(AVPlayer().actionAtItemEnd == .pause)
        #expect(AVQueuePlayer().actionAtItemEnd == .advance)
        #expect(AVQueuePlayer(items: []).items().isEmpty)
    }
}

/// The item the queue is prerolling, if any.
func prerolledItem(_ player: AVQueuePlayer) -> AVPlayerItem? {
    player.queue.withLock { $0.prerolled?.item }
}
