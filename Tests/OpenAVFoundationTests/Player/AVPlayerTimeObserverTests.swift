// Playhead: periodic and boundary time observers during real playback (manual clock).
import Foundation
import PlayheadTestSupport
import Testing

@testable import OpenAVFoundation

/// Collects the times an observer block was called with.
final class TimeLog: Sendable {
    private let times = Locked<[Double]>([])
    func append(_ time: CMTime) { times.withLock { $0.append(time.seconds) } }
    func tick() { times.withLock { $0.append(.nan) } }
    var values: [Double] { times.withLock { $0 } }
    var count: Int { times.withLock { $0.count } }
}

@MainActor
@Suite struct AVPlayerTimeObserverTests {
    private func readyPlayer(clock: ManualClock) async throws -> (AVPlayer, AVPlayerItem) {
        let item = AVPlayerItem(url: try Fixture.url(.mp4))
        let player = AVPlayer(environment: timedEnvironment(RecordingVideoSink(), clock: clock), playerItem: item)
        await waitUntil("ready") { item.status == .readyToPlay && player.currentItem?.isPlaybackLikelyToKeepUp == true }
        return (player, item)
    }

    private func settle() async throws { await mainQueueSleep(nanoseconds: 30_000_000) }

    /// Plays on to a hair past 0.2 s, awaiting the calls of a 0.1 s periodic observer (counted
    /// by `count`) at the start, 0.1 and 0.2 before the clock moves on: a presenter slowed by
    /// a sanitizer, seeing the clock far on, calls once for the multiples it missed.
    private func stepThroughTwoTenths(_ clock: ManualClock, _ count: @escaping () -> Int) async {
        await waitUntil("the call at the start") { count() >= 1 }
        // (The presenter notices time at its pictures' times: 0.12 and 0.2.)
        await advance(clock, by: 0.121)
        await waitUntil("the call for 0.1") { count() >= 2 }
        await advance(clock, by: 0.08)
        await waitUntil("the call for 0.2") { count() >= 3 }
    }

    @Test func periodicObserverFiresAtIntervalMultiplesAndOnPlayAndPause() async throws {
        let clock = ManualClock()
        let (player, _) = try await readyPlayer(clock: clock)
        let log = TimeLog()
        let token = player.addPeriodicTimeObserver(forInterval: CMTime(value: 1, timescale: 4), queue: nil) {
            log.append($0)
        }
        try await settle()
        #expect(log.count == 0, "paused and not seeking: no calls")
        player.play()
        await waitUntil("playing") { player.timeControlStatus == .playing }
        try await settle()
        #expect(log.values == [0], "one call when playback starts")
        // A quarter second at a time, each multiple's call awaited before the clock moves on:
        // a presenter slowed by a sanitizer noticed 0.75 only at 0.86 when the clock ran on.
        // (The presenter notices time at its pictures' times, 25 a second: the clock stops a
        // hair past the first picture after each multiple, 0.28, 0.52, 0.76 and 1.0.)
        for quarter in 1...4 {
            await advance(clock, by: quarter == 1 ? 0.281 : 0.24)
            await waitUntil("the call for \(Double(quarter) / 4)") { log.count >= 1 + quarter }
        }
        await advance(clock, by: 0.099)
        player.pause()
        try await settle()
        let values = log.values
        for multiple in [0.25, 0.5, 0.75, 1.0] {
            let hits = values.filter { $0 >= multiple - 1e-9 && $0 < multiple + 0.1 }
            #expect(hits.count == 1, "one call just after \(multiple): \(values)")
        }
        #expect(values.count == 6, "start, four multiples, stop: \(values)")
        #expect(abs((values.last ?? 0) - 1.1) < 1e-6, "the stop call carries the pause time")
        #expect(values == values.sorted())
        await advance(clock, by: 0.5)
        try await settle()
        #expect(log.count == 6, "paused: no more calls")
        player.removeTimeObserver(token)
    }

    @Test func periodicObserverFiresOnSeekWithTheTarget() async throws {
        let clock = ManualClock()
        let (player, _) = try await readyPlayer(clock: clock)
        let log = TimeLog()
        let token = player.addPeriodicTimeObserver(forInterval: CMTime(value: 1, timescale: 1), queue: nil) {
            log.append($0)
        }
        let finished = await player.seek(
            to: CMTime(value: 7, timescale: 10), toleranceBefore: .zero, toleranceAfter: .zero)
        #expect(finished)
        try await settle()
        #expect(log.values == [0.7])
        player.removeTimeObserver(token)
    }

    @Test func observerOnACustomQueueRunsThere() async throws {
        let clock = ManualClock()
        let (player, _) = try await readyPlayer(clock: clock)
        let queue = DispatchQueue(label: "observer-test")
        let key = DispatchSpecificKey<Int>()
        queue.setSpecific(key: key, value: 7)
        let onQueue = Locked<[Bool]>([])
        let token = player.addPeriodicTimeObserver(forInterval: CMTime(value: 1, timescale: 10), queue: queue) { _ in
            onQueue.withLock { $0.append(DispatchQueue.getSpecific(key: key) == 7) }
        }
        player.play()
        await stepThroughTwoTenths(clock) { onQueue.withLock { $0.count } }
        player.pause()
        try await settle()
        let calls = onQueue.withLock { $0 }
        #expect(calls.count >= 3)
        #expect(calls.allSatisfy { $0 })
        player.removeTimeObserver(token)
    }

    @Test func boundaryObserverFiresWhenPlaybackCrossesAndNotWhenASeekJumps() async throws {
        let clock = ManualClock()
        let (player, _) = try await readyPlayer(clock: clock)
        let crossed = TimeLog(), jumped = TimeLog(), later = TimeLog()
        let times = { (seconds: Double) in [NSValue(time: CMTime(seconds: seconds, preferredTimescale: 600))] }
        let tokens = [
            player.addBoundaryTimeObserver(forTimes: times(0.5), queue: nil) { crossed.append(player.currentTime()) },
            player.addBoundaryTimeObserver(forTimes: times(1.2), queue: nil) { jumped.tick() },
            player.addBoundaryTimeObserver(forTimes: times(1.7), queue: nil) { later.tick() },
        ]
        player.play()
        await waitUntil("playing") { player.timeControlStatus == .playing }
        // (Past 0.5 by less than the tolerance: a presenter slowed by a sanitizer calls once
        // the clock stands.)
        await advance(clock, by: 0.55)
        await waitUntil("0.5 crossed") { crossed.count >= 1 }
        try await settle()
        #expect(crossed.count == 1)
        #expect(abs((crossed.values.first ?? 0) - 0.5) < 0.1)
        let finished = await player.seek(
            to: CMTime(value: 15, timescale: 10), toleranceBefore: .zero, toleranceAfter: .zero)
        #expect(finished)
        await advance(clock, by: 0.1)
        try await settle()
        #expect(jumped.count == 0, "a seek over a boundary does not fire it")
        await advance(clock, by: 0.2)
        await waitUntil("1.7 crossed") { later.count >= 1 }
        try await settle()
        #expect(later.count == 1)
        #expect(crossed.count == 1)
        #expect(jumped.count == 0)
        for token in tokens { player.removeTimeObserver(token) }
    }

    /// Real-time timing: meaningful on a quiet machine, noisy when the whole suite shares two
    /// cores (the manual-clock variant asserts the same behaviour exactly). Runs in the
    /// real-time pass of `make test` (PLAYHEAD_REALTIME_TESTS set).
    @Test(.enabled(if: realTimeTestsEnabled))
    func boundaryObserverDoesNotFireForASeekWhilePlayingInRealTime() async throws {
        let item = AVPlayerItem(url: try Fixture.url(.mp4))
        let player = AVPlayer(
            environment: timedEnvironment(RecordingVideoSink(), clock: SystemHostClock.shared), playerItem: item)
        let jumped = TimeLog()
        let token = player.addBoundaryTimeObserver(
            forTimes: [NSValue(time: CMTime(value: 1, timescale: 1))], queue: nil) { jumped.tick() }
        player.play()
        await waitUntil("playing") { player.timeControlStatus == .playing }
        await mainQueueSleep(nanoseconds: 100_000_000)
        let before = player.currentTime()
        let finished = await player.seek(to: CMTime(value: 15, timescale: 10), toleranceBefore: .zero, toleranceAfter: .zero)
        #expect(finished)
        await mainQueueSleep(nanoseconds: 150_000_000)
        // Under heavy load playback may really have crossed 1 s before the seek.
        if before.seconds < 0.95 { #expect(jumped.count == 0, "fired though the seek left \(before.seconds)") }
        player.removeTimeObserver(token)
    }

    @Test func removedObserversAreNotCalledAgain() async throws {
        let clock = ManualClock()
        let (player, _) = try await readyPlayer(clock: clock)
        let periodic = TimeLog(), boundary = TimeLog()
        let periodicToken = player.addPeriodicTimeObserver(
            forInterval: CMTime(value: 1, timescale: 10), queue: nil) { periodic.append($0) }
        let boundaryToken = player.addBoundaryTimeObserver(
            forTimes: [NSValue(time: CMTime(value: 1, timescale: 1))], queue: nil) { boundary.tick() }
        player.play()
        await stepThroughTwoTenths(clock) { periodic.count }
        try await settle()
        let before = periodic.count
        #expect(before >= 3)
        player.removeTimeObserver(periodicToken)
        player.removeTimeObserver(boundaryToken)
        await advance(clock, by: 1)
        player.pause()
        _ = await player.seek(to: .zero)
        try await settle()
        #expect(periodic.count == before)
        #expect(boundary.count == 0)
    }

    @Test func timeGoesUpOnlyWhenAnObserverNeedsIt() async throws {
        // 25 fps for 1.5 s: one main-queue hop per frame would be about 37 reports.
        let clock = ManualClock()
        let (quiet, quietItem) = try await readyPlayer(clock: clock)
        quiet.play()
        await advance(clock, by: 1.5, thenUpTo: 2) { quietItem.currentTime().seconds >= 1.5 }
        #expect(engine(of: quiet)?.statistics.timeReports == 0, "no observer, no reports")
        quiet.replaceCurrentItem(with: nil)

        let (player, item) = try await readyPlayer(clock: clock)
        let log = TimeLog()
        let token = player.addPeriodicTimeObserver(forInterval: CMTime(value: 1, timescale: 2), queue: nil) {
            log.append($0)
        }
        player.play()
        await waitUntil("the call at the start") { log.count >= 1 }
        // Each crossing's call awaited before the clock moves on (a presenter slowed by a
        // sanitizer, seeing the clock far on, once reported 1.5 twice), the clock stopping a
        // hair past the first picture after each multiple.
        var at = 0.0
        for (multiple, target) in [(1, 0.521), (2, 1.001), (3, 1.521)] {
            await advance(clock, by: target - at)
            at = target
            await waitUntil("the call for \(Double(multiple) / 2)") { log.count >= 1 + multiple }
        }
        await advance(clock, by: 1.6 - at, thenUpTo: 2) { item.currentTime().seconds >= 1.6 }
        await mainQueueSleep(nanoseconds: 50_000_000)
        let reports = engine(of: player)?.statistics.timeReports ?? -1
        #expect(reports >= 3 && reports <= 6, "about one report per 0.5 s crossing: \(reports)")
        // The start, then each multiple crossed: 0.5, 1.0, 1.5.
        let crossings = log.values.dropFirst().map { ($0 * 2).rounded(.down) / 2 }
        #expect(crossings == [0.5, 1.0, 1.5], "\(log.values)")
        player.removeTimeObserver(token)
        player.replaceCurrentItem(with: nil)
    }
}
