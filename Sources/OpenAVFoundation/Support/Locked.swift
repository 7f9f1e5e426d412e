// Playhead: the lock behind all of the package's shared mutable state.
//
// Concurrency: a `Locked` value may be used from any thread; its state is only reachable inside
// `withLock`, which holds a pthread mutex for the duration of the closure.
//
// Why not Synchronization.Mutex: on Linux it locks with raw futex calls, which ThreadSanitizer
// cannot see, so every access made under it showed up in `make test-tsan` as a race. A pthread
// mutex is intercepted by ThreadSanitizer, so its reports name real races only. Uncontended, the
// two cost the same (one atomic exchange each way).
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Mutable state guarded by a mutex: the state is reachable only inside `withLock`.
///
/// Used instead of `Synchronization.Mutex` throughout the package so ThreadSanitizer
/// understands the locking. Never use it on the audio callback thread.
package final class Locked<State>: @unchecked Sendable {
    @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>
    @usableFromInline var state: State

    /// Guards `initial`.
    package init(_ initial: State) {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        state = initial
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` with exclusive access to the state and returns what it returns.
    @inlinable
    package func withLock<Result, Failure: Error>(
        _ body: (inout State) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&state)
    }
}
