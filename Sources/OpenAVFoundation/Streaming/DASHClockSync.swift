// Playhead: keeps a live DASH item's packager clock measured while it plays. Measured once at
// open, the packager's time runs on by this machine's oscillator, which drifts from the
// packager's by tens of parts per million: a kiosk playing a channel for a day could be seconds
// off, asking for segments not made yet or falling behind the window. So the `UTCTiming`
// servers are asked again now and then, as dash.js does: first 30 s after the open, then twice
// as long each time an answer agrees with the running clock to 0.1 s (at most every ten
// minutes), half as long when it does not (at least every 5 s). A server that does not answer
// (an error log event) leaves the clock as it was and is asked again after the same wait; one
// that answers after failing at the open replaces the machine's clock. A manifest timed by a
// `direct` date is measured again from a reload's date when one is due.
//
// Concurrency: `now(direct:)` is called by the loaders' threads (each reload reads the live
// manifest by it); `state` (a mutex) holds the clock and the schedule. A server is asked on a
// short-lived thread of its own (`spawn`), one measurement at a time (`measuring`), never on a
// loader's thread, which goes on with the clock it had.
import Foundation

/// The packager's clock of one live item, measured again while it plays; see the file comment.
final class DASHClockSync: Sendable {
    /// How long to wait between measurements.
    struct Schedule: Sendable {
        /// Seconds from the open to the first measurement after it.
        var first = 30.0
        /// The shortest wait, after answers that moved the clock.
        var shortest = 5.0
        /// The longest wait, after answers that agreed with it.
        var longest = 600.0
        /// Seconds within which an answer agrees with the running clock.
        var tolerance = 0.1
    }

    private struct State {
        var clock: DASHPackagerClock
        /// The time since boot at which the next measurement is due.
        var due: Double
        var wait: Double
        var measuring = false
        /// How far each measurement after the open moved the clock, in seconds.
        var corrections: [Double] = []
    }

    private let state: Locked<State>
    /// Asks the servers (blocking): the offset to the machine's clock, nil when none answered.
    private let askServers: (@Sendable () -> Double?)?
    private let schedule: Schedule
    private let sinceBoot: @Sendable () -> Double
    private let date: @Sendable () -> Date
    private let spawn: @Sendable (@escaping @Sendable () -> Void) -> Void
    private let isStopped: @Sendable () -> Bool

    /// A sync starting from `clock` (as measured at the open), asking the servers with
    /// `askServers` (nil: the manifest names none) when due by `schedule`; the machine's time
    /// since boot and wall clock are `sinceBoot` and `date`; `spawn` runs a measurement on a
    /// thread of its own; none starts once `isStopped` (the item stopped).
    init(
        clock: DASHPackagerClock, askServers: (@Sendable () -> Double?)?, schedule: Schedule = Schedule(),
        sinceBoot: @escaping @Sendable () -> Double = DASHPackagerClock.secondsSinceBoot,
        date: @escaping @Sendable () -> Date = Date.init,
        spawn: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void = { NamedThread.start("dash-clock", $0) },
        isStopped: @escaping @Sendable () -> Bool = { false }
    ) {
        self.askServers = askServers
        self.schedule = schedule
        self.sinceBoot = sinceBoot
        self.date = date
        self.spawn = spawn
        self.isStopped = isStopped
        state = Locked(State(clock: clock, due: sinceBoot() + schedule.first, wait: schedule.first))
    }

    /// The packager's time now. When a measurement is due: a reload's `direct` date (the
    /// packager's time as it wrote the manifest just read) is taken at once; else the servers
    /// are asked on a thread of its own and the answer counts from the next call.
    func now(direct: Date? = nil) -> Date {
        let booted = sinceBoot(), wall = date()
        let (clock, asks) = state.withLock { state -> (DASHPackagerClock, Bool) in
            guard !state.measuring, booted >= state.due, !isStopped() else { return (state.clock, false) }
            if let direct {
                adopt(offset: direct.timeIntervalSince(wall), booted: booted, wall: wall, &state)
                return (state.clock, false)
            }
            guard askServers != nil else { return (state.clock, false) }
            state.measuring = true
            return (state.clock, true)
        }
        if asks { spawn { [self] in measure() } }
        return clock.now(date: wall, sinceBoot: booted)
    }

    /// How far each measurement after the open moved the clock, in seconds (tests).
    var corrections: [Double] { state.withLock { $0.corrections } }

    /// Asks the servers and adopts the answer (a thread of its own).
    private func measure() {
        let offset = askServers?()
        let booted = sinceBoot(), wall = date()
        state.withLock { state in
            state.measuring = false
            guard let offset else {
                state.due = booted + state.wait
                return
            }
            adopt(offset: offset, booted: booted, wall: wall, &state)
        }
    }

    /// Replaces the clock by one `offset` seconds from the machine's, and schedules the next
    /// measurement by how far that moved it.
    private func adopt(offset: Double, booted: Double, wall: Date, _ state: inout State) {
        let fresh = DASHPackagerClock(offset: offset, at: wall, sinceBoot: booted)
        let correction = fresh.now(date: wall, sinceBoot: booted).timeIntervalSince(state.clock.now(date: wall, sinceBoot: booted))
        state.corrections.append(correction)
        state.wait =
            abs(correction) <= schedule.tolerance
            ? min(state.wait * 2, schedule.longest) : max(state.wait / 2, schedule.shortest)
        state.clock = fresh
        state.due = booted + state.wait
    }
}
