// Playhead: the network throughput an adaptive stream plans with: two exponentially weighted
// averages of measured transfers, weighted by transfer time, and the lower of the two (or the
// fast one alone, `recent`, for a deep buffer).
//
// Concurrency: a value type, owned by the HLS loader's thread. `ProcessThroughput` is shared by
// every stream of the process behind a lock.
import Foundation

/// Estimates throughput from (bytes, seconds) samples.
///
/// Each average forgets by time, not by sample count: with a half-life of `h` seconds, a
/// sample of weight `w` keeps `0.5^(w/h)` of what came before. A sample weighs its transfer
/// time, but at least the media it brought: on a fast link a segment arrives in a fraction of
/// its length, and weighing it by that alone would keep a recovered link's estimate low for
/// minutes (hls.js users report exactly that). The fast average (3 s) falls quickly when the
/// network slows; the slow one (9 s) rises slowly when it recovers; the estimate is the lower
/// of the two, so it drops fast and climbs with care. A transfer slower than half of that
/// estimate is a collapse, not noise: until the next sample the estimate is that transfer's rate.
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

    /// Adds a transfer of `bytes` that took `seconds` and brought `mediaSeconds` of media.
    mutating func add(bytes: Int, seconds: Double, mediaSeconds: Double = 0) {
        guard bytes >= Self.smallestSampleBytes else { return }
        let duration = max(seconds, 0.001)
        let bitsPerSecond = Double(bytes) * 8 / duration
        let weight = max(duration, mediaSeconds)
        fast.add(bitsPerSecond, weight: weight)
        slow.add(bitsPerSecond, weight: weight)
        last = bitsPerSecond
    }

    /// The rate of the latest sample.
    private var last = 0.0

    /// The rate of the latest sample, bits per second, or `initial` before any sample: where a
    /// switch down lands, since both averages lag a link that is falling.
    var latest: Double { hasSamples ? last : initial }

    /// True once a sample was taken.
    var hasSamples: Bool { fast.totalWeight > 0 }

    /// The estimate, bits per second: the lower average, or `initial` before any sample.
    var estimate: Double {
        guard hasSamples else { return initial }
        let averaged = min(fast.value, slow.value)
        return last < averaged / 2 ? last : averaged
    }

    /// The recent throughput, bits per second: the fast average alone (the rate of the latest
    /// sample after a collapse, as in `estimate`), or `initial` before any sample. Never below
    /// a collapse, but it climbs as fast as the link recovers; the variant rule plans with it
    /// only while a deep buffer can absorb a guess that proves too high.
    var recent: Double {
        guard hasSamples else { return initial }
        let averaged = min(fast.value, slow.value)
        return last < averaged / 2 ? last : fast.value
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
