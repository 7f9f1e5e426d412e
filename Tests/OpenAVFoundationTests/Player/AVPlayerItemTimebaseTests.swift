// Playhead: tests for AVPlayerItem.timebase (the engine's clock as a CMTimebase) and for
// timebases apps make on the host clock.
import Foundation
import PlayheadTestSupport
import Testing

@testable import OpenAVFoundation

/// Records a timebase's notifications, in order.
final class TimebaseLog: @unchecked Sendable {
    private let names = Locked<[String]>([])
    private var tokens: [any NSObjectProtocol] = []

    init(_ timebase: CMTimebase) {
        for name in [CMTimebase.effectiveRateChanged, CMTimebase.timeJumped] {
            let names = self.names
            tokens.append(NotificationCenter.default.addObserver(forName: name, object: timebase, queue: nil) { note in
                let rate = (note.object as? CMTimebase).map(CMTimebaseGetRate) ?? -1
                names.withLock { $0.append(name == CMTimebase.timeJumped ? "jump" : "rate \(rate)") }
            })
        }
    }

    var entries: [String] { names.withLock { $0 } }

    deinit { tokens.forEach(NotificationCenter.default.removeObserver) }
}

@MainActor
@Suite struct AVPlayerItemTimebaseTests {
    @Test func anItemsTimebaseFollowsPlayPauseRateAndSeeks() async throws {
        let clock = ManualClock()
        let item = AVPlayerItem(url: try Fixture.url(.mp4))
        #expect(item.timebase == nil)  // no player yet
        let player = AVPlayer(environment: timedEnvironment(RecordingVideoSink(), clock: clock), playerItem: item)
        await waitUntil("ready") { item.status == .readyToPlay }
        let timebase = try #require(item.timebase)
        #expect(item.timebase === timebase)
        let log = TimebaseLog(timebase)
        #expect(CMTimebaseGetRate(timebase) == 0 && CMTimebaseGetTime(timebase) == .zero)

        player.play()
        await waitUntil("playing") { player.timeControlStatus == .playing }
        await waitUntil("rate 1") { log.entries == ["rate 1.0"] }
        await advance(clock, by: 0.5)
        #expect(abs(CMTimebaseGetTime(timebase).seconds - player.currentTime().seconds) < 0.001)
        #expect(abs(timebase.time.seconds - 0.5) < 0.03)

        player.rate = 2
        await advance(clock, by: 0.2)
        #expect(CMTimebaseGetEffectiveRate(timebase) == 2)
        player.pause()
        await waitUntil("paused") { log.entries.count >= 3 }
        let stopped = timebase.time
        await advance(clock, by: 0.3)
        #expect(timebase.time == stopped)
        #expect(await player.seek(to: CMTime(value: 1, timescale: 1), toleranceBefore: .zero, toleranceAfter: .zero))
        await waitUntil("jump") { log.entries.count >= 4 }
        #expect(log.entries == ["rate 1.0", "rate 2.0", "rate 0.0", "jump"])
        #expect(timebase.time == CMTime(value: 1, timescale: 1))

        // Read-only: the player owns it.
        #expect(CMTimebaseSetRate(timebase, rate: 3) == kCMTimebaseError_ReadOnly)
        #expect(throws: CMTimebaseError(status: kCMTimebaseError_ReadOnly)) { try timebase.setTime(.zero) }
        player.replaceCurrentItem(with: nil)
        #expect(item.timebase == nil)
    }

    @Test func anItemsTimebaseStopsWhileThePlayerWaitsForData() async throws {
        let server = try networkMediaServer()
        defer { server.stop() }
        let clock = ManualClock()
        let item = AVPlayerItem(asset: try heldProgressiveAsset(on: server))
        let player = AVPlayer(environment: timedEnvironment(RecordingVideoSink(), clock: clock), playerItem: item)
        player.play()
        await waitUntil(timeout: 60, "playing") { player.timeControlStatus == .playing }
        let timebase = try #require(item.timebase)
        #expect(timebase.rate == 1)
        for _ in 0..<400 where player.timeControlStatus == .playing { await advance(clock, by: 0.05, step: 0.05) }
        #expect(player.timeControlStatus == .waitingToPlayAtSpecifiedRate)
        #expect(timebase.rate == 0 && player.rate == 1)
        server.releaseHolds()
        await waitUntil(timeout: 60, "playing again") { player.timeControlStatus == .playing }
        #expect(timebase.rate == 1)
        player.replaceCurrentItem(with: nil)
    }

    @Test func aTimebaseOnTheHostClockRunsAtItsRate() throws {
        let timebase = try CMTimebase(sourceClock: CMClockGetHostTimeClock())
        #expect(timebase.rate == 0 && timebase.time == .zero)
        try timebase.setTime(CMTime(value: 10, timescale: 1))
        let anchorHost = CMClockGetTime(.hostTimeClock) - CMTime(value: 1, timescale: 1)
        try timebase.setRateAndAnchorTime(rate: 2, anchorTime: CMTime(value: 10, timescale: 1), immediateSourceTime: anchorHost)
        // At rate 2 from 10 s at the anchor: bounded by the host time read before and after.
        let before = CMClockGetTime(.hostTimeClock)
        let now = CMTimebaseGetTime(timebase).seconds
        let after = CMClockGetTime(.hostTimeClock)
        #expect(now >= 10 + 2 * (before - anchorHost).seconds - 0.001)
        #expect(now <= 10 + 2 * (after - anchorHost).seconds + 0.001)
        #expect(CMTimebaseSetRate(timebase, rate: 0) == 0)
        let frozen = CMTimebaseGetTime(timebase)
        #expect(CMTimebaseGetTime(timebase) == frozen)
        #expect(CMTimebaseSetTime(timebase, time: .invalid) == kCMTimebaseError_InvalidParameter)
        #expect(CMTimebaseGetTimeWithTimeScale(timebase, timeScale: 10, method: .default).timescale == 10)
    }
}
