// Playhead: fixed-seed randomized checks of CMTime and CMTimeRange against an exact rational oracle.

import OpenCoreMedia
import Testing

// MARK: - Oracle helpers

/// Greatest common divisor, written independently of the library.
private func gcd(_ a: Int64, _ b: Int64) -> Int64 {
    b == 0 ? abs(a) : gcd(b, a % b)
}

/// What the oracle expects an arithmetic result to be.
private enum Expected: Equatable {
    case finite(value: Int64, timescale: Int32, rounded: Bool)
    case positiveInfinity
    case negativeInfinity
}

/// The time nearest to `exact` in `timescale`, halving the timescale on
/// overflow, exactly as the documented rule says.
private func expectedTime(_ exact: Fraction, startingTimescale: Int32, inputRounded: Bool = false) -> Expected {
    var scale = startingTimescale
    while true {
        let scaled = exact.times(Int128(scale))
        let value = scaled.rounded(.roundHalfAwayFromZero)
        if fitsInt64(value) {
            return .finite(value: Int64(value), timescale: scale, rounded: !scaled.isInteger || inputRounded)
        }
        if scale == 1 { return exact.numerator < 0 ? .negativeInfinity : .positiveInfinity }
        scale /= 2
    }
}

/// Classifies an actual result the same way as `Expected`.
private func observed(_ time: CMTime) -> Expected? {
    if time.isPositiveInfinity { return .positiveInfinity }
    if time.isNegativeInfinity { return .negativeInfinity }
    guard time.isNumeric else { return nil }
    return .finite(value: time.value, timescale: time.timescale, rounded: time.hasBeenRounded)
}

/// A random time of any kind, with small epochs, for ordering checks.
private func anyTime(_ rng: inout SplitMix64) -> CMTime {
    switch Int.random(in: 0..<10, using: &rng) {
    case 0: return .invalid
    case 1: return .indefinite
    case 2: return .positiveInfinity
    case 3: return .negativeInfinity
    default:
        var time = rng.numericTime()
        time.epoch = Int64.random(in: 0...2, using: &rng)
        return time
    }
}

/// The oracle's ordering of any two times: kind rank, then epoch, then exact value.
private func oracleCompare(_ a: CMTime, _ b: CMTime) -> Int32 {
    func rank(_ t: CMTime) -> Int {
        if !t.isValid { return 4 }
        if t.isPositiveInfinity { return 3 }
        if t.isIndefinite { return 2 }
        if t.isNegativeInfinity { return 0 }
        return 1
    }
    let (ra, rb) = (rank(a), rank(b))
    if ra != rb { return ra < rb ? -1 : 1 }
    if ra != 1 { return 0 }
    if a.epoch != b.epoch { return a.epoch < b.epoch ? -1 : 1 }
    let (fa, fb) = (Fraction(a), Fraction(b))
    return fa == fb ? 0 : (fa < fb ? -1 : 1)
}

// MARK: - Comparison

@Test func comparisonMatchesExactOracle() async {
    var rng = SplitMix64(seed: 0xC0FFEE)
    var equalPairs = 0
    for _ in 0..<20_000 {
        let a = rng.numericTime()
        var b = rng.numericTime()
        if Bool.random(using: &rng) {
            // Build an equal time in another timescale when it fits.
            let k = Int64.random(in: 2...1000, using: &rng)
            let (value, overflowV) = a.value.multipliedReportingOverflow(by: k)
            let (scale, overflowS) = Int64(a.timescale).multipliedReportingOverflow(by: k)
            if !overflowV && !overflowS && scale <= Int64(Int32.max) {
                b = CMTime(value: value, timescale: Int32(scale))
                equalPairs += 1
            } else if Bool.random(using: &rng) {
                b = CMTime(value: a.value &+ 1, timescale: a.timescale)
            }
        }
        let expected = oracleCompare(a, b)
        #expect(CMTimeCompare(a, b) == expected, "\(a) vs \(b)")
        #expect(CMTimeCompare(b, a) == -expected)
        #expect((a == b) == (expected == 0))
        #expect((a < b) == (expected < 0))
    }
    #expect(equalPairs > 1000)
}

@Test func orderingOfMixedKindsIsATotalOrder() async {
    var rng = SplitMix64(seed: 42)
    for _ in 0..<10_000 {
        let (a, b, c) = (anyTime(&rng), anyTime(&rng), anyTime(&rng))
        #expect(CMTimeCompare(a, b) == oracleCompare(a, b))
        #expect(CMTimeCompare(a, a) == 0)
        if a <= b && b <= c { #expect(a <= c) }
    }
}

// MARK: - Addition and subtraction

@Test func additionAndSubtractionMatchExactOracle() async {
    var rng = SplitMix64(seed: 7)
    var roundedCount = 0
    var halvedCount = 0
    var infiniteCount = 0
    for iteration in 0..<20_000 {
        var a = rng.numericTime()
        var b = rng.numericTime()
        if iteration % 20 == 0 {
            // Push some sums past Int64 even at timescale 1.
            let sign: Int64 = Bool.random(using: &rng) ? 1 : -1
            a = CMTime(value: sign * Int64.random(in: (1 << 62)...Int64.max, using: &rng), timescale: 1)
            b = CMTime(value: sign * Int64.random(in: (1 << 62)...Int64.max, using: &rng), timescale: Int32.random(in: 1...2, using: &rng))
        }
        let startScale: Int32
        if a.timescale == b.timescale {
            startScale = a.timescale
        } else {
            let lcm = Int64(a.timescale) / gcd(Int64(a.timescale), Int64(b.timescale)) * Int64(b.timescale)
            startScale = lcm > 1_000_000_000 ? 1_000_000_000 : Int32(lcm)
        }
        for subtracting in [false, true] {
            let exact = subtracting ? Fraction(a) + -Fraction(b) : Fraction(a) + Fraction(b)
            let expected = expectedTime(exact, startingTimescale: startScale)
            let actual = subtracting ? CMTimeSubtract(a, b) : CMTimeAdd(a, b)
            #expect(observed(actual) == expected, "\(a) \(subtracting ? "-" : "+") \(b)")
            #expect(actual.epoch == 0)
            switch expected {
            case .finite(_, let scale, let rounded):
                if rounded { roundedCount += 1 }
                if scale < startScale { halvedCount += 1 }
            case .positiveInfinity, .negativeInfinity:
                infiniteCount += 1
            }
        }
    }
    // Make sure the generator really reaches the rounding and overflow paths.
    #expect(roundedCount > 500)
    #expect(halvedCount > 500)
    #expect(infiniteCount > 100)
}

@Test func exactSumsAreExact() async {
    var rng = SplitMix64(seed: 99)
    for _ in 0..<5_000 {
        let scale = CMTimeScale.random(in: 1...100_000, using: &rng)
        let a = CMTime(value: Int64.random(in: -1_000_000...1_000_000, using: &rng), timescale: scale)
        let b = CMTime(value: Int64.random(in: -1_000_000...1_000_000, using: &rng), timescale: rng.timescale() % 1000 + 1)
        let sum = a + b
        #expect(Fraction(sum) == Fraction(a) + Fraction(b))
        #expect(!sum.hasBeenRounded)
        #expect(sum - b == a)
    }
}

// MARK: - Timescale conversion and multiplication

@Test func convertScaleMatchesOracleForEveryMethod() async {
    var rng = SplitMix64(seed: 2024)
    for _ in 0..<5_000 {
        let time = rng.numericTime()
        let newScale = rng.timescale()
        for raw in UInt32(1)...6 {
            let method = CMTimeRoundingMethod(rawValue: raw)!
            let actual = time.convertScale(newScale, method: method)
            if newScale == time.timescale {
                #expect(actual.value == time.value && actual.timescale == newScale && !actual.hasBeenRounded)
                continue
            }
            let exact = Fraction(Int128(time.value) * Int128(newScale), Int128(time.timescale))
            let value = exact.rounded(method, precisionIncreases: newScale > time.timescale)
            let expected: Expected =
                fitsInt64(value)
                ? .finite(value: Int64(value), timescale: newScale, rounded: !exact.isInteger)
                : (time.value < 0 ? .negativeInfinity : .positiveInfinity)
            #expect(observed(actual) == expected, "\(time) -> \(newScale) \(method)")
        }
    }
}

@Test func integerMultiplicationMatchesOracle() async {
    var rng = SplitMix64(seed: 5)
    for _ in 0..<5_000 {
        let time = rng.numericTime()
        let multiplier = Int32.random(in: Int32.min...Int32.max, using: &rng) >> Int.random(in: 0...31, using: &rng)
        let exact = Fraction(time).times(Int128(multiplier))
        let expected = expectedTime(exact, startingTimescale: time.timescale)
        #expect(observed(CMTimeMultiply(time, multiplier: multiplier)) == expected, "\(time) * \(multiplier)")
    }
}

@Test func ratioMultiplicationIsExactOrNearest() async {
    var rng = SplitMix64(seed: 11)
    for _ in 0..<5_000 {
        let time = rng.numericTime()
        let multiplier = Int32.random(in: -1000...1000, using: &rng)
        var divisor = Int32.random(in: -1000...1000, using: &rng)
        if divisor == 0 { divisor = 1 }
        let exact = Fraction(Int128(time.value) * Int128(multiplier), Int128(time.timescale) * Int128(divisor))
        let actual = CMTimeMultiplyByRatio(time, multiplier: multiplier, divisor: divisor)
        if actual.isNumeric && !actual.hasBeenRounded {
            #expect(Fraction(actual) == exact)
        } else if actual.isNumeric {
            let scaled = exact.times(Int128(actual.timescale))
            #expect(Int128(actual.value) == scaled.rounded(.roundHalfAwayFromZero))
            #expect(!scaled.isInteger || !fitsInt64(exact.times(Int128(time.timescale)).floor))
        } else {
            #expect(actual.isPositiveInfinity || actual.isNegativeInfinity)
            #expect(!fitsInt64(exact.rounded(.roundHalfAwayFromZero)))
        }
    }
}

// MARK: - Ranges

@Test func rangeOperationsMatchOracle() async {
    var rng = SplitMix64(seed: 314)
    // The LCM of these timescales is 35_280_000, so range arithmetic never rounds.
    let scales: [Int32] = [1, 2, 3, 10, 600, 1000, 44100, 48000, 90000]
    func time() -> CMTime {
        CMTime(value: Int64.random(in: -2000...2000, using: &rng), timescale: scales.randomElement(using: &rng)!)
    }
    func range() -> CMTimeRange {
        let start = time()
        let length = CMTime(value: Int64.random(in: 0...2000, using: &rng), timescale: scales.randomElement(using: &rng)!)
        return CMTimeRange(start: start, duration: length)
    }
    for _ in 0..<5_000 {
        let a = range()
        let b = range()
        let probe = time()
        let (aStart, aEnd) = (Fraction(a.start), Fraction(a.start) + Fraction(a.duration))
        let (bStart, bEnd) = (Fraction(b.start), Fraction(b.start) + Fraction(b.duration))
        #expect(Fraction(a.end) == aEnd && !a.end.hasBeenRounded)
        #expect(a.containsTime(probe) == (aStart <= Fraction(probe) && Fraction(probe) < aEnd))
        #expect(a.containsTimeRange(b) == (aStart <= bStart && bEnd <= aEnd))

        let union = a.union(b)
        #expect(Fraction(union.start) == min(aStart, bStart))
        #expect(Fraction(union.end) == max(aEnd, bEnd))
        #expect(union.containsTimeRange(a) && union.containsTimeRange(b))

        let intersection = a.intersection(b)
        let (lo, hi) = (max(aStart, bStart), min(aEnd, bEnd))
        if lo < hi {
            #expect(Fraction(intersection.start) == lo && Fraction(intersection.end) == hi)
            #expect(a.containsTimeRange(intersection) && b.containsTimeRange(intersection))
        } else {
            #expect(intersection == .zero && intersection.isEmpty)
        }
    }
}
