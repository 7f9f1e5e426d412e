// Playhead: which variant of an adaptive stream to fetch next, from the throughput estimate,
// the media buffered ahead and the app's caps.
//
// Concurrency: pure functions over values; called by the HLS loader's thread.
import Foundation

/// The rule that picks the variant of each segment before it is requested.
///
/// - A variant is affordable when its bit rate fits the estimate with a margin: 0.9 of the
///   estimate to stay or go down, 0.7 to go up, so a link between two variants does not make
///   the choice flip.
/// - It must also arrive in time: fetching one segment of it at the estimate must take less
///   than the media buffered ahead (less a second), or the buffer would run dry.
/// - Going up waits until the estimate held for `upSwitchSamples` transfers in a row and the
///   buffer holds at least `upSwitchBuffer` seconds; at start-up (the first few segments, which
///   come from a guess) one transfer is enough.
/// - Going down happens at once, and lands where the latest transfer says the link is now
///   (the averages lag a falling link): the highest variant that 0.9 of the lower of the
///   estimate and that transfer's rate affords. Then, for `settleAfterDown` seconds of media,
///   the rule settles: it does not go up, and keeps the variant as long as a segment of it
///   would arrive leaving `settleReserve` seconds buffered, so a falling link makes one
///   switch, not a staircase of them, and a link that falls and then measures a little fast
///   does not make the choice go down and back up within a few seconds.
/// - With a deep buffer (`deepBuffer` seconds or more) a guess that proves too high costs
///   buffer, not a stall, so the rule plans with the recent throughput (the fast average,
///   never the slow one; see `ThroughputEstimator.recent`) and narrower margins: 0.95 of it to
///   stay, 0.85 to go up, and one transfer is enough. It still never goes above what that
///   throughput sustains (a buffer alone does not pay for a variant the link cannot carry),
///   and the in-time check keeps the careful estimate.
/// - Below the highest variant the caps allow, the loader reads only `climbingReadAhead`
///   seconds ahead (`readAhead`), so what it fetches is chosen again every segment or so
///   instead of locking in up to 30 s of a low variant; at the top it reads the full buffer.
///   (dash.js keeps a 12 s buffer below its top quality and 30 s at it, for the same reason.)
/// - All of this holds at the rate of play (`rate`): played at 2x, a variant uses twice its bit
///   rate of the link and the media buffered lasts half as long, so the rule weighs each
///   variant at its bit rate times the rate and counts the buffer (and the settling after a
///   switch down) in seconds of the wall clock, as Media3 and hls.js do; played slowly, a
///   higher variant fits the same link. Faster than 1x the loader reads as many more seconds
///   of media ahead (`readAheadScale`, as Media3 scales its buffer), so the buffer lasts as
///   long as at 1x. A switch down that comes with a change of rate does not settle: the rate,
///   not a falling link, made it.
struct VariantAdaptation: Equatable, Sendable {
    static let stayFactor = 0.9
    static let upFactor = 0.7
    static let upSwitchSamples = 2
    static let upSwitchBuffer = 6.0
    /// Seconds buffered from which the deep-buffer margins apply.
    static let deepBuffer = 9.0
    static let deepStayFactor = 0.95
    static let deepUpFactor = 0.85
    /// Seconds read ahead while below the highest allowed variant.
    static let climbingReadAhead = 12.0
    /// Seconds of media after a switch down during which the rule settles (see above).
    static let settleAfterDown = 10.0
    /// Seconds a segment must leave buffered to be kept while settling.
    static let settleReserve = 6.0

    /// One variant's bit rates and picture size.
    struct Candidate: Equatable, Sendable {
        let bandwidth: Int
        let averageBandwidth: Int?
        let width: Int?
        let height: Int?

        /// The rate to plan with: the average when given, else the peak.
        var plannedRate: Double { Double(averageBandwidth ?? bandwidth) }
    }

    /// The app's limits (`preferredPeakBitRate`, `preferredMaximumResolution`; 0 means none)
    /// and its start rule.
    struct Caps: Equatable, Sendable {
        var peakBitRate: Double = 0
        var maximumWidth: Double = 0
        var maximumHeight: Double = 0
        /// `startsOnFirstEligibleVariant`: the first segment comes from the first variant the
        /// multivariant playlist lists that the limits allow (read when the stream opens).
        var startsOnFirstEligible = false
    }

    /// Variants sorted by ascending bandwidth.
    let candidates: [Candidate]
    /// Transfers in a row whose estimate would afford a higher variant.
    private(set) var upVotes = 0
    /// Seconds of the wall clock chosen since the last switch down (none yet: infinity).
    private(set) var sinceDown = Double.infinity
    /// The rate of play of the last choice.
    private(set) var lastRate = 1.0

    init(candidates: [Candidate]) {
        self.candidates = candidates.sorted { $0.bandwidth < $1.bandwidth }
    }

    /// The indices (into `candidates`) the caps allow; the lowest alone when none qualifies.
    func allowed(under caps: Caps) -> [Int] {
        let fitting = candidates.indices.filter { index in
            let candidate = candidates[index]
            if caps.peakBitRate > 0, Double(candidate.bandwidth) > caps.peakBitRate { return false }
            if caps.maximumWidth > 0, let width = candidate.width, Double(width) > caps.maximumWidth { return false }
            if caps.maximumHeight > 0, let height = candidate.height, Double(height) > caps.maximumHeight {
                return false
            }
            return true
        }
        return fitting.isEmpty ? [0] : fitting
    }

    /// The first variant to fetch: with `caps.startsOnFirstEligible`, the first of
    /// `listedOrder` (indices into `candidates` in the playlist's order) the caps allow; else
    /// the highest allowed one whose first segment of `segmentDuration` seconds arrives within
    /// 1.5 s at 0.7 of `estimate`, else the lowest allowed.
    func startIndex(estimate: Double, segmentDuration: Double, caps: Caps, listedOrder: [Int] = []) -> Int {
        let allowed = allowed(under: caps)
        if caps.startsOnFirstEligible, let first = listedOrder.first(where: allowed.contains) { return first }
        let budget = estimate * Self.upFactor * 1.5
        return allowed.last { candidates[$0].plannedRate * segmentDuration <= budget } ?? allowed[0]
    }

    /// The variant for the next segment.
    ///
    /// - Parameters:
    ///   - current: the variant of the segment before.
    ///   - estimate: the careful throughput estimate, bits per second.
    ///   - recentEstimate: the recent throughput (`ThroughputEstimator.recent`), planned with
    ///     when the buffer is deep; nil plans with `estimate` throughout.
    ///   - latestRate: the latest transfer's rate (`ThroughputEstimator.latest`), where a
    ///     switch down lands; nil lands by the estimate.
    ///   - buffered: seconds of media fetched ahead of what is being played.
    ///   - segmentDuration: the next segment's length, seconds.
    ///   - startingUp: true while the first few segments are fetched (the buffer is still
    ///     filling, so going up need not wait for it).
    ///   - rate: the rate the media plays at (`playbackRate(_:)` of the player's rate); 1 by default.
    mutating func nextIndex(
        current: Int, estimate: Double, recentEstimate: Double? = nil, latestRate: Double? = nil, buffered mediaBuffered: Double,
        segmentDuration: Double, caps: Caps, startingUp: Bool, rate: Double = 1
    ) -> Int {
        let allowed = allowed(under: caps)
        let rate = Self.playbackRate(rate)
        let rateChanged = rate != lastRate
        lastRate = rate
        // Seconds of the wall clock the buffer lasts, and the link's bits a variant takes per second.
        let buffered = mediaBuffered / rate
        func need(_ index: Int) -> Double { candidates[index].plannedRate * rate }
        let deep = buffered >= Self.deepBuffer
        // A deep buffer plans with the recent throughput, never below the careful estimate.
        let planned = deep ? max(estimate, recentEstimate ?? estimate) : estimate
        func fetchSeconds(_ index: Int) -> Double { candidates[index].plannedRate * segmentDuration / max(estimate, 1) }
        func arrivesInTime(_ index: Int) -> Bool { fetchSeconds(index) < max(buffered - 1, segmentDuration / rate * 0.5) }
        func affordable(_ index: Int, factor: Double) -> Bool {
            need(index) <= planned * factor && arrivesInTime(index)
        }
        let capped = allowed.contains(current) ? current : (allowed.last { $0 < current } ?? allowed[0])
        sinceDown += segmentDuration / rate
        let settling = sinceDown < Self.settleAfterDown
        // Down (or stay) at once: the highest variant up to the current one that keeps up
        // (that leaves the reserve buffered, while settling after a switch down).
        let stay = deep ? Self.deepStayFactor : Self.stayFactor
        func keeps(_ index: Int) -> Bool {
            settling
                ? arrivesInTime(index) && buffered - fetchSeconds(index) >= Self.settleReserve
                : affordable(index, factor: stay)
        }
        let steady = allowed.last { $0 <= capped && keeps($0) } ?? allowed[0]
        if steady < capped {
            upVotes = 0
            if !rateChanged { sinceDown = 0 }
            // Land where the latest transfer says the link is now.
            let now = min(planned, latestRate ?? planned) * Self.stayFactor
            return allowed.last { $0 <= steady && need($0) <= now && arrivesInTime($0) }
                ?? allowed[0]
        }
        let higher = allowed.last { $0 > capped && affordable($0, factor: deep ? Self.deepUpFactor : Self.upFactor) }
        guard let higher, !settling else {
            upVotes = 0
            return capped
        }
        upVotes += 1
        // At start-up, or with a deep buffer, one transfer is enough.
        guard startingUp || deep || (upVotes >= Self.upSwitchSamples && buffered >= Self.upSwitchBuffer) else {
            return capped
        }
        upVotes = 0
        return higher
    }

    /// The rate the rule plans for when the player's is `rate`: itself, kept between 1/8 and
    /// 16; 1 for a paused, backward or unknown rate (the caller passes the rate play will
    /// resume at where it knows it).
    static func playbackRate(_ rate: Double) -> Double {
        guard rate.isFinite, rate > 0 else { return 1 }
        return min(max(rate, 0.125), 16)
    }

    /// How many times its forward buffer the loader reads ahead at `rate`: the rate itself when
    /// faster than 1x (so the buffer lasts as long on the wall clock), at most 4; 1 otherwise.
    static func readAheadScale(_ rate: Double) -> Double { min(max(playbackRate(rate), 1), 4) }

    /// Seconds the loader should read ahead of the playhead while fetching variant `current`:
    /// `full` at the highest variant `caps` allow (leaving out the `unusable` ones, whose
    /// playlist could not be loaded), at most `climbingReadAhead` below it.
    func readAhead(current: Int, caps: Caps, full: Double, unusable: Set<Int> = []) -> Double {
        let top = allowed(under: caps).last { !unusable.contains($0) } ?? 0
        return current >= top ? full : min(full, Self.climbingReadAhead)
    }

    /// Whether a transfer of a segment of variant `index` should be abandoned for a lower one:
    /// after `elapsed` seconds with `received` of an expected `expected` bytes, finishing at
    /// the rate so far would outlast `buffered` (seconds of the wall clock the media buffered
    /// lasts at the rate of play, less a second), and the lowest variant's
    /// segment would come sooner. Never for the lowest variant, never in the first half second.
    func shouldAbandon(
        index: Int, allowed: [Int], elapsed: Double, received: Int, expected: Int, buffered: Double,
        segmentDuration: Double
    ) -> Bool {
        guard let lowest = allowed.first, index > lowest, elapsed >= max(0.5, segmentDuration * 0.25) else {
            return false
        }
        let rate = Double(max(received, 1)) / elapsed
        let remaining = Double(max(expected - received, 0)) / rate
        guard remaining > buffered - 1 else { return false }
        let lowSeconds = candidates[lowest].plannedRate * segmentDuration / 8 / rate
        return lowSeconds < remaining
    }
}
