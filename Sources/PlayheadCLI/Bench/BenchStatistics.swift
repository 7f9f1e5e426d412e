// Playhead: summary statistics and timing helpers shared by the benchmarks.
import Foundation

/// The median, mean and maximum of a list of timings in milliseconds.
struct BenchStatistics: Equatable {
    /// How many timings.
    var count: Int
    /// The middle timing (the mean of the two middle ones for an even count).
    var median: Double
    /// The arithmetic mean.
    var mean: Double
    /// The largest timing.
    var maximum: Double

    /// Summarises `values`; all zero for an empty list.
    init(_ values: [Double]) {
        count = values.count
        guard !values.isEmpty else {
            median = 0
            mean = 0
            maximum = 0
            return
        }
        let sorted = values.sorted()
        let middle = sorted.count / 2
        median = sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
        mean = values.reduce(0, +) / Double(values.count)
        maximum = sorted[sorted.count - 1]
    }
}

/// Monotonic timestamps for benchmarks.
enum BenchClock {
    /// Now, on the monotonic clock.
    static func now() -> ContinuousClock.Instant { ContinuousClock.now }

    /// Milliseconds from `start` to `end`.
    static func milliseconds(
        from start: ContinuousClock.Instant, to end: ContinuousClock.Instant
    ) -> Double {
        let elapsed = start.duration(to: end).components
        return Double(elapsed.seconds) * 1_000 + Double(elapsed.attoseconds) / 1e15
    }

    /// `value` rounded to microseconds, so printed timings stay short.
    static func rounded(_ value: Double) -> Double { (value * 1_000).rounded() / 1_000 }
}

/// SplitMix64: the fixed-seed generator behind the seek positions.
struct BenchRandom: RandomNumberGenerator {
    private var state: UInt64

    /// A generator whose sequence depends only on `seed`.
    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state = state &+ 0x9e37_79b9_7f4a_7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }
}

/// Raised when a benchmark step does not finish in time or the engine reports failure.
struct BenchFailure: LocalizedError, Sendable {
    /// What went wrong, in lower case.
    var reason: String
    /// Same as `reason`.
    var errorDescription: String? { reason }
}
