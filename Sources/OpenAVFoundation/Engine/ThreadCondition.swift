// Playhead: a mutex plus condition variable whose timed waits use the monotonic clock.
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

// Concurrency: a `ThreadCondition` is shared by every thread that blocks on the state it guards.
// The pthread objects live at fixed heap addresses allocated in `init` and freed in `deinit`;
// the owner's guarded fields are documented `// protected by <name>` at their declaration.
// Never touched from the real-time audio callback.

/// A lock with one condition variable, for engine threads that must block until guarded state
/// changes (queues, wake-up signals, the manual clock).
///
/// Timed waits take absolute deadlines on `CLOCK_MONOTONIC`, the same time base as
/// ``SystemHostClock``, so a wall-clock change can never stretch or cut a wait short.
///
/// Thread-safe. `wait` and `wait(untilMonotonic:)` must be called with the lock held.
package final class ThreadCondition: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>

    /// Creates an unlocked condition.
    package init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        condition = .allocate(capacity: 1)
        condition.initialize(to: pthread_cond_t())
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        #if !canImport(Darwin)
            pthread_condattr_setclock(&attributes, clockid_t(CLOCK_MONOTONIC))
        #endif
        precondition(pthread_mutex_init(mutex, nil) == 0, "pthread_mutex_init failed")
        precondition(pthread_cond_init(condition, &attributes) == 0, "pthread_cond_init failed")
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    /// Acquires the lock, blocking while another thread holds it.
    package func lock() { pthread_mutex_lock(mutex) }

    /// Releases the lock.
    package func unlock() { pthread_mutex_unlock(mutex) }

    /// Runs `body` with the lock held.
    /// - Important: `body` must not call out to code that could take other locks.
    package func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        lock()
        defer { unlock() }
        return try body()
    }

    /// Atomically releases the lock and sleeps until signalled, then re-acquires the lock.
    /// Spurious wake-ups happen: always re-check the predicate in a loop.
    package func wait() { pthread_cond_wait(condition, mutex) }

    /// Like ``wait()`` but gives up at `deadline` (seconds on `CLOCK_MONOTONIC`).
    /// - Returns: `false` when the deadline passed, `true` when signalled (or spuriously woken).
    @discardableResult
    package func wait(untilMonotonic deadline: Double) -> Bool {
        guard deadline.isFinite else {
            if deadline > 0 { wait() }
            return deadline > 0
        }
        let whole = deadline.rounded(.down)
        var time = timespec()
        time.tv_sec = Int(max(0, whole))
        time.tv_nsec = Int(min(999_999_999, max(0, (deadline - whole) * 1e9)))
        return pthread_cond_timedwait(condition, mutex, &time) != ETIMEDOUT
    }

    /// Wakes one waiting thread.
    package func signal() { pthread_cond_signal(condition) }

    /// Wakes every waiting thread.
    package func broadcast() { pthread_cond_broadcast(condition) }

    /// Reads `CLOCK_MONOTONIC` in seconds.
    package static func monotonicNow() -> Double {
        var time = timespec()
        clock_gettime(clockid_t(CLOCK_MONOTONIC), &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
