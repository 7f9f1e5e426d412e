// Playhead: tests for measuring a live DASH item's packager clock again while it plays
// (DASHClockSync.swift): when the servers are asked, how the wait between measurements
// follows the answers, and what a failed or late answer does, on a virtual clock with the
// measurements run at once.
import Foundation
import Testing

@testable import OpenAVFoundation

@Suite struct DASHClockSyncTests {
    /// A virtual machine: its time since boot and wall clock move together; the packager's
    /// clock runs `drift` seconds per second faster and started `ahead` seconds ahead.
    final class Machine: @unchecked Sendable {
        let booted = Locked(1_000.0)
        let wall = Date(timeIntervalSince1970: 1_800_000_000)
        let ahead: Locked<Double>
        let drift: Double
        /// Times the servers were asked (since boot), and whether they answer.
        let asked = Locked<[Double]>([])
        let answers = Locked(true)

        init(ahead: Double, drift: Double) {
            self.ahead = Locked(ahead)
            self.drift = drift
        }

        var sinceBoot: Double { booted.withLock { $0 } }
        var date: Date { wall.addingTimeInterval(sinceBoot - 1_000) }
        /// The packager's true time against the machine's clock.
        var packagerOffset: Double { ahead.withLock { $0 } + drift * (sinceBoot - 1_000) }
        func advance(_ seconds: Double) { booted.withLock { $0 += seconds } }
        /// The packager's clock is set `seconds` forward.
        func jump(_ seconds: Double) { ahead.withLock { $0 += seconds } }

        /// A sync measured at the open (now), asking this machine's packager.
        func sync(schedule: DASHClockSync.Schedule = .init(), servers: Bool = true) -> DASHClockSync {
            let ask: @Sendable () -> Double? = {
                self.asked.withLock { $0.append(self.sinceBoot) }
                return self.answers.withLock { $0 } ? self.packagerOffset : nil
            }
            return DASHClockSync(
                clock: DASHPackagerClock(offset: packagerOffset, at: date, sinceBoot: sinceBoot),
                askServers: servers ? ask : nil, schedule: schedule, sinceBoot: { self.sinceBoot },
                date: { self.date }, spawn: { $0() })
        }

        /// Seconds the sync's clock is off the packager's now.
        func error(of sync: DASHClockSync) -> Double {
            sync.now().timeIntervalSince(date.addingTimeInterval(packagerOffset))
        }
    }

    @Test func aSteadyClockIsAskedAfterThirtySecondsThenEverLessOften() {
        let machine = Machine(ahead: 120, drift: 0)
        let sync = machine.sync()
        // Read at every reload (every 2 s) for an hour.
        for _ in 0..<1_800 {
            _ = sync.now()
            machine.advance(2)
        }
        let asked = machine.asked.withLock { $0 }.map { Int($0 - 1_000) }
        // 30, then waits of 60, 120, 240, 480 and 600 from then on.
        #expect(asked == [30, 90, 210, 450, 930, 1530, 2130, 2730, 3330], "\(asked)")
        #expect(sync.corrections.allSatisfy { abs($0) < 1e-9 })
    }

    @Test func aDriftingOscillatorIsCorrectedAndTheClockStaysWithinAFewTenthsOfASecond() {
        // The machine's oscillator runs 200 ppm slow against the packager's (a cheap board):
        // measured once, the clock would be 17 s off after a day.
        let machine = Machine(ahead: 5, drift: 200e-6)
        let sync = machine.sync()
        var worst = 0.0
        for _ in 0..<(86_400 / 2) {
            worst = max(worst, abs(machine.error(of: sync)))
            machine.advance(2)
        }
        // Corrections of 0.12 s every 600 s keep the wait between 300 and 600 s.
        #expect(worst < 0.13, "\(worst) s off at worst")
        let waits = zip(machine.asked.withLock { $0 }, machine.asked.withLock { $0 }.dropFirst()).map { $1 - $0 }
        #expect(waits.suffix(100).allSatisfy { (300...600).contains($0) }, "\(waits.suffix(10))")
    }

    @Test func aClockThatJumpedIsCorrectedAndThenAskedSoonerUntilItHolds() {
        let machine = Machine(ahead: 10, drift: 0)
        let sync = machine.sync()
        machine.advance(20)
        _ = sync.now()
        // The packager's clock is set 4 s forward after the open.
        machine.jump(4)
        machine.advance(10)
        let read = sync.now()
        #expect(abs(read.timeIntervalSince(machine.date.addingTimeInterval(10))) < 1e-6, "the answer counts from the next reading")
        #expect(abs(machine.error(of: sync)) < 1e-6, "then the packager's time is followed")
        #expect(sync.corrections.count == 1 && abs(sync.corrections[0] - 4) < 1e-6)
        // Moved by more than 0.1 s: the next is asked after 15 s, not 60.
        machine.advance(14)
        _ = sync.now()
        #expect(sync.corrections.count == 1)
        machine.advance(1)
        _ = sync.now()
        #expect(sync.corrections.count == 2)
    }

    @Test func aServerThatDoesNotAnswerLeavesTheClockAndIsAskedAgainAfterTheSameWait() {
        let machine = Machine(ahead: 60, drift: 0)
        let sync = machine.sync()
        machine.answers.withLock { $0 = false }
        for _ in 0..<50 {
            _ = sync.now()
            machine.advance(2)
        }
        #expect(machine.asked.withLock { $0 }.map { Int($0 - 1_000) } == [30, 60, 90])
        #expect(sync.corrections.isEmpty)
        #expect(abs(machine.error(of: sync)) < 1e-6, "the clock measured at the open runs on")
    }

    @Test func aManifestWithoutTimeServersIsMeasuredFromAReloadsDirectDateWhenDue() {
        let machine = Machine(ahead: 3, drift: 0)
        let sync = machine.sync(servers: false)
        // Before the wait is over a reload's date is not taken.
        machine.advance(20)
        _ = sync.now(direct: machine.date.addingTimeInterval(8))
        #expect(sync.corrections.isEmpty)
        machine.advance(10)
        let now = sync.now(direct: machine.date.addingTimeInterval(8))
        #expect(abs(now.timeIntervalSince(machine.date.addingTimeInterval(8))) < 1e-6, "taken at once")
        #expect(sync.corrections.count == 1 && abs(sync.corrections[0] - 5) < 1e-6)
        #expect(machine.asked.withLock { $0 }.isEmpty)
    }

    @Test func aStoppedItemAsksNoMore() {
        let machine = Machine(ahead: 0, drift: 0)
        let stopped = Locked(false)
        let sync = DASHClockSync(
            clock: .machine, askServers: {
                machine.asked.withLock { $0.append(machine.sinceBoot) }
                return 2
            }, sinceBoot: { machine.sinceBoot }, date: { machine.date }, spawn: { $0() }, isStopped: { stopped.withLock { $0 } })
        machine.advance(31)
        _ = sync.now()
        #expect(machine.asked.withLock { $0.count } == 1)
        #expect(abs(sync.now().timeIntervalSince(machine.date) - 2) < 1e-6, "a server that answers replaces the machine's clock")
        stopped.withLock { $0 = true }
        machine.advance(3_600)
        _ = sync.now()
        #expect(machine.asked.withLock { $0.count } == 1)
    }
}
