// Playhead: the production host clock, backed by CLOCK_MONOTONIC.

// Concurrency: stateless apart from immutable configuration; every member may be called from any
// thread. Waiting blocks only the calling thread, on that caller's `WakeupSignal`.

/// The real host clock: `CLOCK_MONOTONIC` seconds, with timed waits on the same clock.
///
/// Unaffected by wall-clock changes (NTP steps, the user changing the date). Use one shared
/// instance, ``shared``; instances are interchangeable.
///
/// Thread-safe.
package final class SystemHostClock: HostClock {
    /// The process-wide system clock.
    package static let shared = SystemHostClock()

    /// Creates a clock; all instances read the same monotonic time.
    package init() {}

    /// Seconds on `CLOCK_MONOTONIC`.
    package var now: Double { ThreadCondition.monotonicNow() }

    /// Blocks until `deadline` on `CLOCK_MONOTONIC` or until `signal` is woken.
    @discardableResult
    package func wait(until deadline: Double, on signal: WakeupSignal) -> HostWakeReason {
        signal.block(untilMonotonic: deadline)
    }
}
