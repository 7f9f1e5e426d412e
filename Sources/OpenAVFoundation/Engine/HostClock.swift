// Playhead: the injectable host time source and the wake-up signal engine threads sleep on.

// Concurrency: `HostClock` implementations are thread-safe; any thread may read `now`. A
// `WakeupSignal` is waited on by exactly one thread at a time (its owner, e.g. a render or
// presentation thread) and woken from any thread. Its fields are protected by `condition`.
// Neither is used from the real-time audio callback.

/// Why a ``HostClock/wait(until:on:)`` call returned.
package enum HostWakeReason: Sendable, Equatable {
    /// The host clock reached the deadline.
    case deadlineReached
    /// Someone called ``WakeupSignal/wake()`` before the deadline.
    case woken
}

/// The engine's source of host time: a monotonic clock in seconds, plus timed sleeps that can be
/// cut short.
///
/// Engine code never reads the system clock directly; it asks an injected `HostClock`. Production
/// uses ``SystemHostClock``; tests use ``ManualClock``, whose time moves only when the test says so.
///
/// Thread-safe.
package protocol HostClock: AnyObject, Sendable {
    /// The current host time in seconds. Monotonic; the origin is arbitrary.
    var now: Double { get }

    /// Blocks the calling thread until `now >= deadline` or until `signal` is woken.
    ///
    /// A wake that arrived before the call is not lost: it makes the call return `.woken`
    /// immediately (and is consumed).
    /// - Parameters:
    ///   - deadline: host time, in this clock's seconds, at which to return.
    ///   - signal: the caller's signal; other threads call ``WakeupSignal/wake()`` on it.
    /// - Returns: whether the deadline passed or the signal fired.
    /// - Important: Only one thread may wait on a given `signal` at a time.
    @discardableResult
    func wait(until deadline: Double, on signal: WakeupSignal) -> HostWakeReason
}

/// A sticky, single-waiter wake-up flag used with ``HostClock/wait(until:on:)``.
///
/// `wake()` from any thread makes the current (or next) wait of the owning thread return
/// `.woken`. Several wakes before a wait collapse into one.
///
/// Thread-safe.
package final class WakeupSignal: @unchecked Sendable {
    private let condition = ThreadCondition()
    private var pendingWake = false  // protected by condition
    private var firedTicket = -1  // protected by condition; written by ManualClock

    /// Creates a signal with no wake pending.
    package init() {}

    /// Makes the owner's current or next wait return `.woken`. Callable from any thread.
    package func wake() {
        condition.withLock {
            pendingWake = true
            condition.broadcast()
        }
    }

    /// Consumes a pending wake, if any, without blocking.
    /// - Returns: `true` when a wake was pending.
    package func consumeWake() -> Bool {
        condition.withLock {
            defer { pendingWake = false }
            return pendingWake
        }
    }

    /// Sleeps until a wake arrives or `deadline` (seconds on `CLOCK_MONOTONIC`) passes.
    func block(untilMonotonic deadline: Double) -> HostWakeReason {
        condition.withLock {
            while !pendingWake {
                if ThreadCondition.monotonicNow() >= deadline { return .deadlineReached }
                condition.wait(untilMonotonic: deadline)
            }
            pendingWake = false
            return .woken
        }
    }

    /// Sleeps until a wake arrives or a ``ManualClock`` fires `ticket`. Real time never ends it.
    func block(ticket: Int) -> HostWakeReason {
        condition.withLock {
            while true {
                if firedTicket == ticket { return .deadlineReached }
                if pendingWake {
                    pendingWake = false
                    return .woken
                }
                condition.wait()
            }
        }
    }

    /// Ends the wait registered under `ticket` (called by ``ManualClock`` on advance).
    func fire(ticket: Int) {
        condition.withLock {
            firedTicket = ticket
            condition.broadcast()
        }
    }
}
