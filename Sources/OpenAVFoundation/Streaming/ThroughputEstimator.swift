// Playhead: the network throughput an adaptive stream plans with: two exponentially weighted
// averages of measured transfers, weighted by transfer time, and the lower of the two.
//
// Concurrency: a value type, owned by the HLS loader's thread. `ProcessThroughput` is shared by
// every stream of the process behind a lock.
import Foundation

/// Estimates throughput from (bytes, seconds) samples.
///
/// Each average forgets by transfer time, not by sample count: with a half-life of `h`
/// seconds, a sample that took `w` seconds keeps `0.5^(w/h)` of what came before. The fast
/// average (3 s) falls quickly when the network slows; the slow one (9 s) rises slowly when it
/// recovers; the estimate is the lower of the two, so it drops fast and climbs with care.
struct ThroughputEstimator: Equatable, Sendable {
    /// Half-lives of the fast and the slow average, seconds of transfer.
    static let fastHalfLife = 3.0
    static let slowHalfLife = 9.0
    /// Transfers smaller than this say more about latency than throughput and are not sampled.
    static let smallestSampleBytes = 16_000

    private var fast = WeightedAverage(halfLife: fastHalfLife)
    private var slow = WeightedAverage(halfLife: slowHalfLife)
    /// The estimate before any sample, bits per second.
    let initial: Double

    init(initial: Double) { self.initial = initial }

    /// Adds a transfer of `bytes` that took `seconds`.
    mutating func add(bytes: Int, seconds: Double) {
        guard bytes >= Self.smallestSampleBytes else { return }
        let duration = max(seconds, 0.001)
        let bitsPerSecond = Double(bytes) * 8 / duration
        fast.add(bitsPerSecond, weight: duration)
        slow.add(bitsPerSecond, weight: duration)
    }

    /// True once a sample was taken.
    var hasSamples: Bool { fast.totalWeight > 0 }

    /// The estimate, bits per second: the lower average, or `initial` before any sample.
    var estimate: Double {
        guard hasSamples else { return initial }
        return min(fast.value, slow.value)
    }

    /// An average that forgets by weight, corrected for its zero start.
    private struct WeightedAverage: Equatable, Sendable {
        let alpha: Double
        var raw = 0.0
        var totalWeight = 0.0

        init(halfLife: Double) { alpha = pow(0.5, 1 / halfLife) }

        mutating func add(_ value: Double, weight: Double) {
            let keep = pow(alpha, weight)
            raw = value * (1 - keep) + keep * raw
            totalWeight += weight
        }

        var value: Double {
            let zeroFactor = 1 - pow(alpha, totalWeight)
            return zeroFactor > 0 ? raw / zeroFactor : raw
        }
    }
}

/// The throughput the process last measured to each server, so the next stream from it
/// starts there instead of at a guess.
enum ProcessThroughput {
    private static let last = Locked<[String: Double]>([:])

    /// The latest estimate a stream from `server` ("host:port") reached, bits per second.
    static func lastEstimate(for server: String) -> Double? { last.withLock { $0[server] } }

    /// Remembers `estimate` for `server`.
    static func remember(_ estimate: Double, for server: String) {
        last.withLock { $0[server] = estimate }
    }
}
