// Playhead: AVPlayerLooper: seamless loops over a range (frame by frame on a manual clock),
// whole-item loops, disableLooping, failures.
import Foundation
import PlayheadTestSupport
import Testing

@testable import OpenAVFoundation

@MainActor
@Suite struct AVPlayerLooperTests {
    @Test func loopingARangeShowsEveryFrameOfItEachTimeWithNoBlackFrame() async throws {
        let url = try Fixture.url(.mp4)
        let reference = await linearChecksums(of: url)
        let sink = RecordingVideoSink()
        let clock = ManualClock()
        let player = AVQueuePlayer(environment: timedEnvironment(sink, clock: clock), items: [])
        let range = CMTimeRange(
            start: CMTime(value: 400, timescale: 1000), end: CMTime(value: 1000, timescale: 1000))
        let looper = AVPlayerLooper(player: player, templateItem: AVPlayerItem(url: url), timeRange: range)
        let loops = ValueLog(looper, \.loopCount)
        player.play()
        await waitUntil("looping") { looper.status == .ready && player.timeControlStatus == .playing }
        #expect(looper.loopingPlayerItems.count == 3)
        // Three passes through the 0.6 s range, in small clock steps.
        for pass in 1...3 {
            var steps = 0
            while looper.loopCount < pass && steps < 60 {
                await advance(clock, by: 0.02)
                steps += 1
                // A slow machine (or a sanitizer) decodes slower than the clock moves: let the
                // presenter show the frame due before moving on, so none falls late enough to
                // be dropped. After a loop point the last frame shown is ahead of the time.
                await waitUntil(timeout: 10, "the frame due at \(player.currentTime().seconds)") {
                    guard let last = sink.last?.pts.seconds else { return false }
                    let now = player.currentTime().seconds
                    return now >= last - 1e-6 && now - last < 0.045
                }
            }
            #expect(looper.loopCount == pass, "pass \(pass)")
        }
        await advance(clock, by: 0.1)
        loops.stop()
        #expect(loops.values.prefix(4) == [0, 1, 2, 3])
        #expect(sink.clearCount == 0, "no black frame at the loop points")
        let shown = sink.frames.map { millis($0.pts) }
        #expect(shown.allSatisfy { (400..<1000).contains($0) }, "\(shown)")
        // Each pass starts at the range's first frame and moves forward through the range;
        // the timed presenter may drop a late frame when the machine is loaded, never more.
        var passes: [[Int]] = []
        for time in shown {
            if time == 400 || passes.isEmpty { passes.append([time]) } else { passes[passes.count - 1].append(time) }
        }
        #expect(passes.count >= 4, "\(shown)")
        for pass in passes.prefix(3) {
            #expect(pass.first == 400 && pass == pass.sorted() && Set(pass).count == pass.count, "\(pass)")
            #expect(pass.count >= 10 && (pass.last ?? 0) >= 880, "pass \(pass)")
        }
        for entry in sink.frames {
            #expect(reference[millis(entry.pts)] == entry.frame.checksum(), "frame \(entry.pts.seconds)")
        }
        // The item time runs from the range's start again after each loop point.
        #expect((0.4..<0.6).contains(player.currentTime().seconds))
    }

    @Test func loopingAWholeItemKeepsThreeReplicasQueued() async throws {
        let sink = ChecksumVideoSink()
        let player = AVQueuePlayer(environment: untimedEnvironment(sink), items: [])
        let looper = AVPlayerLooper(player: player, templateItem: AVPlayerItem(url: try Fixture.url(.videoOnlyMP4)))
        #expect(looper.status == .unknown)
        player.play()
        await waitUntil(timeout: 60, "three loops") { looper.loopCount >= 3 }
        #expect(looper.status == .ready)
        #expect(looper.error == nil)
        #expect(looper.loopingPlayerItems.count == 3)
        // Untimed passes are short: a replica that just ended is re-queued a moment later.
        await waitUntil("three replicas queued") { player.items().count == 3 }
        #expect(player.items().count == 3)
        #expect(sink.clearCount == 0)
        // Every pass starts at the first frame.
        let starts = sink.frames.indices.filter { sink.frames[$0].pts == .zero }
        #expect(starts.count >= 3)
        player.pause()
    }

    @Test func disablingLoopingLetsTheCurrentPassFinishAndEmptiesTheQueue() async throws {
        let player = AVQueuePlayer(environment: untimedEnvironment(ChecksumVideoSink()), items: [])
        let looper = AVPlayerLooper(player: player, templateItem: AVPlayerItem(url: try Fixture.url(.videoOnlyMP4)))
        player.play()
        await waitUntil("a loop") { looper.loopCount >= 1 }
        looper.disableLooping()
        #expect(looper.status == .cancelled)
        #expect(player.items().count <= 1)
        await waitUntil("the queue ran out") { player.currentItem == nil }
        let count = looper.loopCount
        await mainQueueSleep(nanoseconds: 100_000_000)
        #expect(looper.loopCount == count)
    }

    @Test func replicasGoBeforeOrAfterTheItemsAlreadyQueued() async throws {
        let url = try Fixture.url(.videoOnlyMP4)
        for ordering in [AVPlayerLooper.ItemOrdering.loopingItemsPrecedeExistingItems, .loopingItemsFollowExistingItems] {
            let current = AVPlayerItem(url: url), waiting = AVPlayerItem(url: url)
            let player = AVQueuePlayer(environment: untimedEnvironment(ChecksumVideoSink()), items: [current, waiting])
            let looper = AVPlayerLooper(
                player: player, templateItem: AVPlayerItem(url: url), timeRange: .invalid,
                existingItemsOrdering: ordering)
            await waitUntil("replicas queued") { player.items().count == 5 }
            let replicas = looper.loopingPlayerItems.map(ObjectIdentifier.init)
            let order = player.items().map(ObjectIdentifier.init)
            let expected =
                ordering == .loopingItemsPrecedeExistingItems
                ? [ObjectIdentifier(current)] + replicas + [ObjectIdentifier(waiting)]
                : [ObjectIdentifier(current), ObjectIdentifier(waiting)] + replicas
            #expect(order == expected, "\(ordering)")
            player.removeAllItems()
        }
    }

    @Test func aTemplateThatCannotPlayFailsTheLooper() async throws {
        let player = AVQueuePlayer(environment: untimedEnvironment(ChecksumVideoSink()), items: [])
        let looper = AVPlayerLooper(player: player, templateItem: AVPlayerItem(url: try BadInput.url(.randomBytes)))
        player.play()
        await waitUntil("failed") { looper.status == .failed }
        #expect(looper.error != nil)
        #expect(looper.loopCount == 0)
    }
}
