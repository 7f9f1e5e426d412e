// Playhead: how long one thread spent waiting on I/O, as opposed to running or waiting for a
// core, so a throughput measured on it does not fall when the machine is busy.
//
// Concurrency: a value type read on one thread; `start` and `elapsedWaiting` must run on the
// same thread (the one doing the I/O), since both read that thread's own scheduler counters.
import Foundation

/// Times the I/O wait of the calling thread.
///
/// Wall time over a network open mixes three things: waiting for bytes, decoding and parsing
/// them (CPU), and waiting for a core when other work keeps both busy. Only the first says
/// anything about the network. Linux's `/proc/thread-self/schedstat` gives the thread's time
/// on a core and its time queued for one, both in nanoseconds; what is left of the wall time
/// is time blocked, which for an opening demuxer is time waiting on its inputs. Where the file
/// is missing, the thread's CPU time stands in (queueing then counts as waiting).
///
/// Tests use it the same way to show that a call does not wait (on I/O, a lock, a thread
/// join), whatever the machine's load: the time it spent blocked stays near zero.
package struct TransferStopwatch {
    private let wallStart: Double
    private let busyStart: Double

    /// Starts timing on the calling thread.
    package init() {
        wallStart = Self.monotonicSeconds()
        busyStart = Self.busySeconds()
    }

    /// Seconds the calling thread spent blocked since `init`, never below zero.
    package var elapsedWaiting: Double {
        let wall = Self.monotonicSeconds() - wallStart
        let busy = Self.busySeconds() - busyStart
        return max(0, wall - busy)
    }

    /// Seconds the calling thread has run on a core plus waited in a run queue.
    package static func busySeconds() -> Double {
        if let scheduled = scheduledSeconds() { return scheduled }
        var now = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    /// The first two fields of `/proc/thread-self/schedstat` (run and queue nanoseconds), in
    /// seconds; nil when the kernel does not provide them.
    package static func scheduledSeconds() -> Double? {
        let descriptor = open("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: 96)
        let count = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        guard count > 0 else { return nil }
        let fields = bytes[..<count].split(whereSeparator: { $0 == 0x20 || $0 == 0x0A })
        guard fields.count >= 2,
            let running = UInt64(String(decoding: fields[0], as: UTF8.self)),
            let queued = UInt64(String(decoding: fields[1], as: UTF8.self))
        else { return nil }
        return Double(running + queued) / 1e9
    }

    private static func monotonicSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}
