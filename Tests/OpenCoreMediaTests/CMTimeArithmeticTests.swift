// Playhead: table-driven tests for CMTime addition, subtraction, scaling and conversion.

import OpenCoreMedia
import Testing

/// Shorthand for a finite time in epoch 0.
private func t(_ value: Int64, _ timescale: Int32) -> CMTime {
    CMTime(value: value, timescale: timescale)
}

// MARK: - Addition and subtraction of finite times

@Test func equalTimescalesAreKept() async {
    let sum = t(1, 600) + t(2, 600)
    #expect(sum.value == 3 && sum.timescale == 600 && sum.flags == .valid)
    let difference = t(1, 600) - t(2, 600)
    #expect(difference.value == -1 && difference.timescale == 600)
}

@Test func differentTimescalesUseTheirLeastCommonMultiple() async {
    let sum = CMTimeAdd(t(1, 2), t(1, 3))
    #expect(sum.value == 5 && sum.timescale == 6 && !sum.hasBeenRounded)
    let mixed = t(1, 600) + t(1, 90000)
    #expect(mixed.value == 151 && mixed.timescale == 90000)
    let difference = CMTimeSubtract(t(1, 2), t(1, 3))
    #expect(difference.value == 1 && difference.timescale == 6)
}

@Test func largeLeastCommonMultipleIsCappedAtMaxTimescaleWithRounding() async {
    // 999_999_937 is prime, so the LCM with 2 is about 2e9.
    let sum = t(1, 999_999_937) + t(1, 2)
    #expect(sum.timescale == kCMTimeMaxTimescale)
    #expect(sum.value == 500_000_001)
    #expect(sum.hasBeenRounded)
    // When the LCM itself is at most 1e9 the result is exact.
    let exact = t(1, 1_000_000_000) + t(1, 8)
    #expect(exact.timescale == 1_000_000_000 && exact.value == 125_000_001 && !exact.hasBeenRounded)
}

@Test func roundedOperandsPropagateTheFlag() async {
    let rounded = CMTime(value: 1, timescale: 3, flags: [.valid, .hasBeenRounded], epoch: 0)
    #expect((rounded + t(1, 3)).hasBeenRounded)
    #expect((t(1, 3) - rounded).hasBeenRounded)
    #expect(!(t(1, 3) + t(1, 3)).hasBeenRounded)
}

@Test func overflowHalvesTheTimescaleThenGivesInfinity() async {
    let halved = t(.max, 2) + t(.max, 2)
    #expect(halved.value == .max && halved.timescale == 1 && !halved.hasBeenRounded)
    // (2^64 - 2) / 3 overflows at timescale 3; timescale 1 needs rounding.
    let thirds = t(.max, 3) + t(.max, 3)
    #expect(thirds.timescale == 1 && thirds.value == 6_148_914_691_236_517_205 && thirds.hasBeenRounded)
    #expect((t(.max, 1) + t(1, 1)).isPositiveInfinity)
    #expect((t(.min, 1) - t(1, 1)).isNegativeInfinity)
    #expect((t(.min, 1) + t(.min, 3)).isNegativeInfinity)
}

// MARK: - Special times

@Test func specialTimeAdditionTable() async {
    let finite = t(5, 1)
    let rows: [(CMTime, CMTime, CMTime)] = [
        (.positiveInfinity, .positiveInfinity, .positiveInfinity),
        (.negativeInfinity, .negativeInfinity, .negativeInfinity),
        (.positiveInfinity, .negativeInfinity, .invalid),
        (.negativeInfinity, .positiveInfinity, .invalid),
        (.positiveInfinity, finite, .positiveInfinity),
        (finite, .negativeInfinity, .negativeInfinity),
        (.positiveInfinity, .indefinite, .positiveInfinity),
        (.indefinite, .negativeInfinity, .negativeInfinity),
        (.indefinite, finite, .indefinite),
        (finite, .indefinite, .indefinite),
        (.indefinite, .indefinite, .indefinite),
        (.invalid, finite, .invalid),
        (finite, .invalid, .invalid),
        (.invalid, .positiveInfinity, .invalid),
        (.indefinite, .invalid, .invalid),
    ]
    for (lhs, rhs, expected) in rows {
        let sum = lhs + rhs
        #expect(sum == expected && sum.flags == expected.flags, "\(lhs) + \(rhs)")
    }
}

@Test func specialTimeSubtractionTable() async {
    let finite = t(5, 1)
    let rows: [(CMTime, CMTime, CMTime)] = [
        (.positiveInfinity, .positiveInfinity, .invalid),
        (.negativeInfinity, .negativeInfinity, .invalid),
        (.positiveInfinity, .negativeInfinity, .positiveInfinity),
        (.negativeInfinity, .positiveInfinity, .negativeInfinity),
        (finite, .positiveInfinity, .negativeInfinity),
        (finite, .negativeInfinity, .positiveInfinity),
        (.positiveInfinity, finite, .positiveInfinity),
        (.indefinite, .positiveInfinity, .negativeInfinity),
        (.indefinite, finite, .indefinite),
        (finite, .indefinite, .indefinite),
        (.indefinite, .indefinite, .indefinite),
        (finite, .invalid, .invalid),
        (.invalid, .negativeInfinity, .invalid),
    ]
    for (lhs, rhs, expected) in rows {
        let difference = lhs - rhs
        #expect(difference == expected && difference.flags == expected.flags, "\(lhs) - \(rhs)")
    }
}

@Test func malformedFiniteTimesActAsInvalid() async {
    let zeroScale = CMTime(value: 1, timescale: 0)
    #expect((zeroScale + t(1, 1)).flags == [])
    #expect(CMTimeCompare(zeroScale, .positiveInfinity) == 1)
}

// MARK: - Epochs

@Test func epochRules() async {
    let a = CMTime(value: 3, timescale: 1, flags: .valid, epoch: 1)
    let b = CMTime(value: 1, timescale: 1, flags: .valid, epoch: 1)
    let other = CMTime(value: 1, timescale: 1, flags: .valid, epoch: 2)
    let duration = t(2, 1)
    let difference = a - b
    #expect(difference.value == 2 && difference.epoch == 0)
    #expect((a + b).epoch == 0)
    #expect((a + duration).epoch == 1 && (a + duration).value == 5)
    #expect((duration + other).epoch == 2)
    #expect((a - duration).epoch == 1)
    #expect(!(a + other).isValid)
    #expect(!(a - other).isValid)
}

// MARK: - Timescale conversion

@Test(arguments: [
    // value/timescale -> new timescale, then results for methods 1...6 in raw-value order.
    (1 as Int64, 2 as Int32, 1 as Int32, [1, 0, 1, 0, 1, 0] as [Int64]),
    (-1, 2, 1, [-1, 0, -1, -1, 0, -1]),
    (3, 2, 1, [2, 1, 2, 1, 2, 1]),
    (-3, 2, 1, [-2, -1, -2, -1, -1, -2]),
    (1, 3, 1, [0, 0, 1, 0, 1, 0]),
    (-1, 3, 1, [0, 0, -1, -1, 0, -1]),
    (2, 3, 1, [1, 0, 1, 0, 1, 0]),
    (-2, 3, 1, [-1, 0, -1, -1, 0, -1]),
    (-5, 3, 1, [-2, -1, -2, -1, -1, -2]),
    // Toward a larger timescale: QuickTime rounds away from zero.
    (1, 3, 10, [3, 3, 4, 4, 4, 3]),
    (-1, 3, 10, [-3, -3, -4, -4, -3, -4]),
    (2, 3, 10, [7, 6, 7, 7, 7, 6]),
    (-2, 3, 10, [-7, -6, -7, -7, -6, -7]),
])
func convertScaleWithEveryMethod(value: Int64, timescale: Int32, newTimescale: Int32, expected: [Int64]) async {
    for (index, raw) in (UInt32(1)...6).enumerated() {
        let method = CMTimeRoundingMethod(rawValue: raw)!
        let converted = t(value, timescale).convertScale(newTimescale, method: method)
        #expect(converted.value == expected[index], "method \(method)")
        #expect(converted.timescale == newTimescale)
        #expect(converted.hasBeenRounded)
        #expect(CMTimeConvertScale(t(value, timescale), timescale: newTimescale, method: method) == converted)
    }
}

@Test func exactConversionIsNotRounded() async {
    for raw in UInt32(1)...6 {
        let method = CMTimeRoundingMethod(rawValue: raw)!
        let converted = t(1, 2).convertScale(600, method: method)
        #expect(converted.value == 300 && converted.timescale == 600 && converted.flags == .valid)
        let down = t(-300, 600).convertScale(2, method: method)
        #expect(down.value == -1 && !down.hasBeenRounded)
    }
}

@Test func convertScaleOfSpecialsAndBadTimescales() async {
    #expect(CMTime.positiveInfinity.convertScale(600, method: .default).isPositiveInfinity)
    #expect(CMTime.negativeInfinity.convertScale(600, method: .default).isNegativeInfinity)
    #expect(CMTime.indefinite.convertScale(600, method: .default).isIndefinite)
    #expect(!CMTime.invalid.convertScale(600, method: .default).isValid)
    #expect(!t(1, 2).convertScale(0, method: .default).isValid)
    #expect(t(.max, 1).convertScale(1000, method: .default).isPositiveInfinity)
    #expect(t(.min, 1).convertScale(1000, method: .default).isNegativeInfinity)
    let epoch = CMTime(value: 1, timescale: 2, flags: .valid, epoch: 4).convertScale(4, method: .default)
    #expect(epoch.epoch == 4 && epoch.value == 2)
    let sticky = CMTime(value: 1, timescale: 2, flags: [.valid, .hasBeenRounded], epoch: 0)
    #expect(sticky.convertScale(4, method: .default).hasBeenRounded)
}

// MARK: - Multiplication

@Test func integerMultiplication() async {
    let product = CMTimeMultiply(t(3, 600), multiplier: 4)
    #expect(product.value == 12 && product.timescale == 600 && product.flags == .valid)
    #expect(CMTimeMultiply(t(3, 600), multiplier: -1).value == -3)
    let overflow = CMTimeMultiply(t(.max, 2), multiplier: 2)
    #expect(overflow.value == .max && overflow.timescale == 1)
    #expect(CMTimeMultiply(t(.max, 1), multiplier: 2).isPositiveInfinity)
    #expect(CMTimeMultiply(.positiveInfinity, multiplier: -1).isNegativeInfinity)
    #expect(CMTimeMultiply(.negativeInfinity, multiplier: 3).isNegativeInfinity)
    #expect(!CMTimeMultiply(.positiveInfinity, multiplier: 0).isValid)
    #expect(CMTimeMultiply(.indefinite, multiplier: 3).isIndefinite)
    #expect(!CMTimeMultiply(.invalid, multiplier: 3).isValid)
}

@Test func floatMultiplicationRaisesSmallTimescales() async {
    let product = CMTimeMultiplyByFloat64(t(1, 600), multiplier: 1.5)
    #expect(product.timescale == 76800 && product.value == 192 && !product.hasBeenRounded)
    let tenth = CMTimeMultiplyByFloat64(t(1, 1), multiplier: 0.1)
    #expect(tenth.timescale == 65536 && tenth.value == 6554 && tenth.hasBeenRounded)
    let large = CMTimeMultiplyByFloat64(t(1, 90000), multiplier: 2)
    #expect(large.timescale == 90000 && large.value == 2)
    let exactly65536 = CMTimeMultiplyByFloat64(t(1, 65536), multiplier: 3)
    #expect(exactly65536.timescale == 65536 && exactly65536.value == 3)
    #expect(!CMTimeMultiplyByFloat64(t(1, 1), multiplier: .nan).isValid)
    #expect(CMTimeMultiplyByFloat64(.positiveInfinity, multiplier: -2).isNegativeInfinity)
    #expect(CMTimeMultiplyByFloat64(t(1, 1), multiplier: .infinity).isPositiveInfinity)
    #expect(CMTimeMultiplyByFloat64(t(1, 1), multiplier: 1e300).isPositiveInfinity)
    #expect(CMTimeMultiplyByFloat64(t(-1, 1), multiplier: 1e300).isNegativeInfinity)
    let halved = CMTimeMultiplyByFloat64(t(1, 1_000_000_000), multiplier: 1e19)
    #expect(halved.isNumeric && halved.timescale == 500_000_000 && halved.seconds == 1e10)
}

@Test func ratioMultiplicationIsExactWhenPossible() async {
    let half = CMTimeMultiplyByRatio(t(10, 600), multiplier: 1, divisor: 2)
    #expect(half.value == 5 && half.timescale == 600 && half.flags == .valid)
    let finer = CMTimeMultiplyByRatio(t(1, 600), multiplier: 1, divisor: 2)
    #expect(finer.value == 1 && finer.timescale == 1200 && !finer.hasBeenRounded)
    let negative = CMTimeMultiplyByRatio(t(3, 600), multiplier: 2, divisor: -3)
    #expect(negative.value == -2 && negative.timescale == 600)
    #expect(!CMTimeMultiplyByRatio(t(3, 600), multiplier: 2, divisor: 0).isValid)
    #expect(CMTimeMultiplyByRatio(.positiveInfinity, multiplier: 1, divisor: -2).isNegativeInfinity)
    // The exact denominator 3 * Int32.max does not fit, so the input's timescale is used.
    let wide = CMTimeMultiplyByRatio(t(1000, Int32.max), multiplier: 1, divisor: 3)
    #expect(wide.isNumeric && wide.timescale == Int32.max && wide.value == 333 && wide.hasBeenRounded)
    let huge = CMTimeMultiplyByRatio(t(.max, 1), multiplier: Int32.max, divisor: 1)
    #expect(huge.isPositiveInfinity)
}
