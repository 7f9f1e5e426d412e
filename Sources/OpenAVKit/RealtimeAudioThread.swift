// Playhead: real-time scheduling for the thread that hands audio to the sound server, as
// browsers and SDL do for their audio threads. On a machine whose cores are busy, an ordinary
// thread can wait 100 ms or more to run (measured here beside two busy loops), longer than the
// server's buffer for the stream, and the listener hears a gap although the ring had audio.
//
// Concurrency: `promoteCurrentThread()` changes only the calling thread's scheduling; it holds
// no state and any thread may call it.
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Asks the kernel to run the calling thread under `SCHED_RR` at a low real-time priority.
enum RealtimeAudioThread {
    /// The priority asked for: low, under a desktop sound server's own I/O threads (PulseAudio
    /// runs them at 5 by default, PipeWire higher), so the server is never held up by us.
    static let priority: Int32 = 4
    /// Linux's flag that drops real-time scheduling in children forked from the thread.
    private static let resetOnFork: Int32 = 0x4000_0000

    /// Puts the calling thread under `SCHED_RR` at ``priority`` (or the highest priority
    /// `RLIMIT_RTPRIO` allows, when lower), children forked from it not inheriting it.
    /// Allowed for root, and for users the system grants real-time priority to (the `audio` or
    /// `pipewire` group's limits on desktops); elsewhere the thread stays as it was.
    /// - Returns: true when the thread now runs real-time.
    @discardableResult
    static func promoteCurrentThread() -> Bool {
        #if os(Linux)
            var wanted = priority
            var limit = rlimit()
            if getuid() != 0, getrlimit(__rlimit_resource_t(__RLIMIT_RTPRIO.rawValue), &limit) == 0, limit.rlim_cur != rlim_t.max {
                guard limit.rlim_cur > 0 else { return false }
                wanted = min(wanted, Int32(clamping: limit.rlim_cur))
            }
            var parameters = sched_param(sched_priority: wanted)
            return pthread_setschedparam(pthread_self(), Int32(SCHED_RR) | resetOnFork, &parameters) == 0
        #else
            return false
        #endif
    }
}
