// Playhead: a host clock that moves only when told to, for deterministic tests.

// Concurrency: all mutable state (`nanoseconds`, `waiters`, `nextTicket`) is protected by
// `condition`. Any thread may read `now`, advance the clock, or wait. `advance` wakes expired
// waiters after releasing the lock, so it never calls into a `WakeupSignal` while holding it.

/// A ``HostClock`` for tests: time starts where you say and changes only through
/// ``advance(by:)`` and ``advance(to:)``.
///
/// Threads blocked in ``wait(until:on:)`` never wake because real time passed; they wake when an
/// advance reaches their deadline (in deadline order, ties in arrival order) or when their signal
/// is woken. Time is kept in whole nanoseconds, so `advance(by: 0.1)` ten times lands on exactly
/// one second.
///
/// To hand off to a woken thread deterministically, wait for it to park again with
/// ``waitForWaiters(count:)``, or use a component-specific call such as
/// ``ClockDrivenAudioOutput/waitUntilCaughtUp()``.
///
/// Thread-safe.
package final class ManualClock: HostClock, @unchecked Sendable {
    private struct Waiter {
        var ticket: Int
        var deadline: Int64
        var signal: WakeupSignal
    }

    private let condition = ThreadCondition()
    private var nanoseconds: Int64  // protected by condition
    private var waiters: [Waiter] = []  // protected by condition
    private var nextTicket = 0  // protected by condition

    /// Creates a clock reading `start` seconds.
    package init(now start: Double = 0) {
        nanoseconds = ManualClock.nanoseconds(start)
    }

    /// The current manual time in seconds.
    package var now: Double {
        condition.withLock { Double(nanoseconds) / 1e9 }
    }

    /// How many threads are blocked in ``wait(until:on:)``.
    package var waiterCount: Int {
        condition.withLock { waiters.count }
    }

    /// Moves time forward by `seconds` (rounded to nanoseconds) and wakes expired waiters.
    /// - Precondition: `seconds >= 0`.
    package func advance(by seconds: Double) {
        precondition(seconds >= 0, "ManualClock cannot go backwards")
        let fired = condition.withLock {
            nanoseconds += ManualClock.nanoseconds(seconds)
            return takeExpiredWaiters()
        }
        for waiter in fired { waiter.signal.fire(ticket: waiter.ticket) }
    }

    /// Sets time to `seconds` and wakes expired waiters. Earlier times are ignored.
    package func advance(to seconds: Double) {
        let fired = condition.withLock {
            nanoseconds = max(nanoseconds, ManualClock.nanoseconds(seconds))
            return takeExpiredWaiters()
        }
        for waiter in fired { waiter.signal.fire(ticket: waiter.ticket) }
    }

    /// Blocks until an advance reaches `deadline` or `signal` is woken.
    @discardableResult
    package func wait(until deadline: Double, on signal: WakeupSignal) -> HostWakeReason {
        if signal.consumeWake() { return .woken }
        let target = ManualClock.nanoseconds(deadline)
        let ticket: Int? = condition.withLock {
            guard target > nanoseconds else { return nil }
            let ticket = nextTicket
            nextTicket += 1
            waiters.append(Waiter(ticket: ticket, deadline: target, signal: signal))
            condition.broadcast()
            return ticket
        }
        guard let ticket else { return .deadlineReached }
        let reason = signal.block(ticket: ticket)
        if reason == .woken {
            condition.withLock {
                waiters.removeAll { $0.ticket == ticket }
                condition.broadcast()
            }
        }
        return reason
    }

    /// Blocks the caller (in real time) until at least `count` threads are waiting on this clock.
    ///
    /// Use it after starting a thread or advancing the clock, to know the thread has finished its
    /// work and parked again.
    /// - Parameter timeout: real seconds to wait before giving up.
    /// - Returns: `false` if the timeout expired first.
    @discardableResult
    package func waitForWaiters(count: Int, timeout: Double = 10) -> Bool {
        let deadline = ThreadCondition.monotonicNow() + timeout
        return condition.withLock {
            while waiters.count < count {
                if ThreadCondition.monotonicNow() >= deadline { return false }
                condition.wait(untilMonotonic: deadline)
            }
            return true
        }
    }

    /// Removes and returns, in firing order, the waiters whose deadline has passed.
    /// Must be called with `condition` held.
    private func takeExpiredWaiters() -> [Waiter] {
        let expired = waiters.filter { $0.deadline <= nanoseconds }
        guard !expired.isEmpty else { return [] }
        waiters.removeAll { $0.deadline <= nanoseconds }
        condition.broadcast()
        return expired.sorted { ($0.deadline, $0.ticket) < ($1.deadline, $1.ticket) }
    }

    private static func nanoseconds(_ seconds: Double) -> Int64 {
        // An infinite deadline is never reached: only a wake ends the wait.
        guard seconds.isFinite else { return seconds > 0 ? .max : .min }
        return Int64((seconds * 1e9).rounded())
    }
}
