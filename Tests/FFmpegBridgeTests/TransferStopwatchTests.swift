// Playhead: the I/O-wait stopwatch behind the throughput measured at open counts time blocked,
// not time computing or queued for a core, so a busy machine does not lower the measurement.
import Foundation
import Testing

@testable import FFmpegBridge

// Concurrency: each test times its own thread.

@Suite struct TransferStopwatchTests {
    @Test func timeBlockedCountsAsWaiting() {
        let stopwatch = TransferStopwatch()
        usleep(200_000)
        let waited = stopwatch.elapsedWaiting
        // Sleeping is at least 200 ms of blocking; a late wake-up only queues for a core,
        // which is not counted.
        #expect(waited >= 0.19, "\(waited) s")
        #expect(waited < 5, "\(waited) s")
    }

    /// Seconds the hypervisor has taken from this machine's CPUs since boot, over all of them
    /// (the steal column of `/proc/stat`, in hundredths); 0 where it is not counted.
    private func stolenSeconds() -> Double {
        let text = (try? String(contentsOfFile: "/proc/stat", encoding: .utf8)) ?? ""
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("cpu ") }) else { return 0 }
        let values = line.split(separator: " ").dropFirst().compactMap { Double($0) }
        return values.count > 7 ? values[7] / 100 : 0
    }

    @Test func computingDoesNotCountAsWaiting() {
        // (On a virtual machine whose CPUs are taken away, the time taken while the thread
        // computes is on no counter of the thread's own: it reads as waiting. The test allows
        // what the hypervisor took meanwhile, over all CPUs; the stopwatch's known limit.)
        let stolenBefore = stolenSeconds()
        let stopwatch = TransferStopwatch()
        let start = TransferStopwatch.busySeconds()
        var sum = 0.0
        // A fixed amount of the thread's own time on a core (and in run queues), however
        // long the wall clock takes to give it that.
        while TransferStopwatch.busySeconds() - start < 0.2 {
            for index in 0..<10_000 { sum += Double(index).squareRoot() }
        }
        let waited = stopwatch.elapsedWaiting
        let stolen = stolenSeconds() - stolenBefore
        #expect(sum > 0)
        #expect(waited < 0.05 + stolen, "computing for 0.2 s counted \(waited) s as waiting (\(stolen) s stolen)")
    }

    @Test func theKernelSchedulerCountersAreRead() {
        // Linux provides them; the fallback (CPU time only) would count run-queue time as
        // waiting on a busy machine.
        let first = TransferStopwatch.scheduledSeconds()
        #expect(first != nil)
        let second = TransferStopwatch.scheduledSeconds()
        #expect((second ?? 0) >= (first ?? 0))
    }
}
