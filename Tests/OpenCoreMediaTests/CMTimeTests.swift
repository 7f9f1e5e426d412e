// Playhead: tests for CMTime construction, inspection, flags and ordering.

import OpenCoreMedia
import Testing

// MARK: - Construction

@Test func defaultInitializerIsInvalidWithAllFieldsZero() async {
    let time = CMTime()
    #expect(time.value == 0 && time.timescale == 0 && time.flags == [] && time.epoch == 0)
    #expect(!time.isValid)
    #expect(time == .invalid)
}

@Test func valueTimescaleInitializerStoresFieldsVerbatim() async {
    let time = CMTime(value: 2, timescale: 4)
    #expect(time.value == 2)
    #expect(time.timescale == 4)
    #expect(time.flags == .valid)
    #expect(time.epoch == 0)
    let made = CMTimeMake(value: 2, timescale: 4)
    #expect(made.value == 2 && made.timescale == 4 && made.flags == .valid)
}

@Test func fullInitializerAndEpochMaker() async {
    let time = CMTime(value: 5, timescale: 10, flags: [.valid, .hasBeenRounded], epoch: 3)
    #expect(time.value == 5 && time.timescale == 10 && time.epoch == 3)
    #expect(time.hasBeenRounded)
    let withEpoch = CMTimeMakeWithEpoch(value: 7, timescale: 9, epoch: 2)
    #expect(withEpoch.epoch == 2 && withEpoch.flags == .valid)
}

@Test(arguments: [
    // seconds, timescale, expected value, expected rounded flag
    (0.4, 1 as Int32, 0 as Int64, true),
    (1.5, 1, 2, true),
    (-1.5, 1, -2, true),
    (2.5, 1, 3, true),
    (-0.4, 1, 0, true),
    (0.5, 2, 1, false),
    (0.1, 600, 60, false),
    (1.0 / 3.0, 600, 200, false),
    (12.345, 1000, 12345, false),
    (0.0001, 1000, 0, true),
    (3.0, 1_000_000_000, 3_000_000_000, false),
])
func secondsInitializerRoundsHalfAwayFromZero(seconds: Double, timescale: Int32, value: Int64, rounded: Bool) async {
    let time = CMTime(seconds: seconds, preferredTimescale: timescale)
    #expect(time.value == value)
    #expect(time.timescale == timescale)
    #expect(time.hasBeenRounded == rounded)
    #expect(CMTimeMakeWithSeconds(seconds, preferredTimescale: timescale).value == value)
}

@Test func secondsInitializerRejectsBadInput() async {
    #expect(!CMTime(seconds: 1, preferredTimescale: 0).isValid)
    #expect(!CMTime(seconds: 1, preferredTimescale: -600).isValid)
    #expect(!CMTime(seconds: .nan, preferredTimescale: 600).isValid)
    #expect(CMTime(seconds: .infinity, preferredTimescale: 600).isPositiveInfinity)
    #expect(CMTime(seconds: -.infinity, preferredTimescale: 600).isNegativeInfinity)
}

@Test func secondsInitializerHalvesTimescaleOnOverflow() async {
    let time = CMTime(seconds: 1e10, preferredTimescale: 1_000_000_000)
    #expect(time.isNumeric)
    #expect(time.timescale < 1_000_000_000)
    #expect(time.seconds == 1e10)
    // 1e10 * 1e9 = 1e19 overflows Int64; half the timescale gives 5e18, which fits.
    #expect(time.timescale == 500_000_000)
    #expect(time.value == 5_000_000_000_000_000_000)
    #expect(!time.hasBeenRounded)
    #expect(CMTime(seconds: 1e30, preferredTimescale: 600).isPositiveInfinity)
    #expect(CMTime(seconds: -1e30, preferredTimescale: 600).isNegativeInfinity)
}

// MARK: - Special times and predicates

@Test func specialConstantsHaveTheDocumentedFlags() async {
    #expect(CMTime.zero.value == 0 && CMTime.zero.timescale == 1 && CMTime.zero.flags == .valid)
    #expect(CMTime.invalid.flags == [])
    #expect(CMTime.indefinite.flags == [.valid, .indefinite])
    #expect(CMTime.positiveInfinity.flags == [.valid, .positiveInfinity])
    #expect(CMTime.negativeInfinity.flags == [.valid, .negativeInfinity])
}

@Test func flagRawValuesMatchCoreMedia() async {
    #expect(CMTimeFlags.valid.rawValue == 1)
    #expect(CMTimeFlags.hasBeenRounded.rawValue == 2)
    #expect(CMTimeFlags.positiveInfinity.rawValue == 4)
    #expect(CMTimeFlags.negativeInfinity.rawValue == 8)
    #expect(CMTimeFlags.indefinite.rawValue == 16)
    #expect(CMTimeFlags.impliedValueFlagsMask.rawValue == 28)
    #expect(kCMTimeMaxTimescale == 1_000_000_000)
}

@Test func roundingMethodRawValuesMatchCoreMedia() async {
    #expect(CMTimeRoundingMethod.roundHalfAwayFromZero.rawValue == 1)
    #expect(CMTimeRoundingMethod.roundTowardZero.rawValue == 2)
    #expect(CMTimeRoundingMethod.roundAwayFromZero.rawValue == 3)
    #expect(CMTimeRoundingMethod.quickTime.rawValue == 4)
    #expect(CMTimeRoundingMethod.roundTowardPositiveInfinity.rawValue == 5)
    #expect(CMTimeRoundingMethod.roundTowardNegativeInfinity.rawValue == 6)
    #expect(CMTimeRoundingMethod.default == .roundHalfAwayFromZero)
}

@Test func predicatesAgreeWithFunctionsForEveryKind() async {
    let rounded = CMTime(value: 1, timescale: 3, flags: [.valid, .hasBeenRounded], epoch: 0)
    let cases: [(CMTime, valid: Bool, numeric: Bool, indefinite: Bool, pos: Bool, neg: Bool, rounded: Bool)] = [
        (.zero, true, true, false, false, false, false),
        (.invalid, false, false, false, false, false, false),
        (.indefinite, true, false, true, false, false, false),
        (.positiveInfinity, true, false, false, true, false, false),
        (.negativeInfinity, true, false, false, false, true, false),
        (rounded, true, true, false, false, false, true),
        // Special flags without .valid mean nothing.
        (CMTime(value: 0, timescale: 0, flags: .positiveInfinity, epoch: 0), false, false, false, false, false, false),
        // Rounded only counts on numeric times.
        (CMTime(value: 0, timescale: 0, flags: [.valid, .indefinite, .hasBeenRounded], epoch: 0),
         true, false, true, false, false, false),
    ]
    for c in cases {
        let t = c.0
        #expect(t.isValid == c.valid && CMTIME_IS_VALID(t) == c.valid && CMTIME_IS_INVALID(t) == !c.valid)
        #expect(t.isNumeric == c.numeric && CMTIME_IS_NUMERIC(t) == c.numeric)
        #expect(t.isIndefinite == c.indefinite && CMTIME_IS_INDEFINITE(t) == c.indefinite)
        #expect(t.isPositiveInfinity == c.pos && CMTIME_IS_POSITIVEINFINITY(t) == c.pos)
        #expect(t.isNegativeInfinity == c.neg && CMTIME_IS_NEGATIVEINFINITY(t) == c.neg)
        #expect(t.hasBeenRounded == c.rounded && CMTIME_HAS_BEEN_ROUNDED(t) == c.rounded)
    }
}

@Test func secondsOfSpecialTimes() async {
    #expect(CMTime.invalid.seconds.isNaN)
    #expect(CMTime.indefinite.seconds.isNaN)
    #expect(CMTime.positiveInfinity.seconds == .infinity)
    #expect(CMTime.negativeInfinity.seconds == -.infinity)
    #expect(CMTime(value: 1, timescale: 4).seconds == 0.25)
    #expect(CMTimeGetSeconds(CMTime(value: -3, timescale: 2)) == -1.5)
    #expect(CMTimeGetSeconds(.invalid).isNaN)
}

// MARK: - Ordering

@Test func equalityIsExactAcrossTimescales() async {
    #expect(CMTime(value: 1, timescale: 2) == CMTime(value: 300, timescale: 600))
    #expect(CMTime(value: 1, timescale: 2) == CMTime(value: 2, timescale: 4))
    #expect(CMTime(value: 1, timescale: 3) != CMTime(value: 333, timescale: 1000))
    #expect(CMTime(value: 333, timescale: 1000) < CMTime(value: 1, timescale: 3))
    #expect(CMTime(value: Int64.max, timescale: Int32.max) > CMTime(value: Int64.max - 1, timescale: Int32.max))
    #expect(CMTime(value: Int64.max, timescale: 1) > CMTime(value: Int64.max, timescale: 2))
    #expect(CMTime(value: Int64.min, timescale: 1) < CMTime(value: Int64.min, timescale: 2))
}

@Test func roundedFlagDoesNotAffectEquality() async {
    let rounded = CMTime(value: 1, timescale: 2, flags: [.valid, .hasBeenRounded], epoch: 0)
    #expect(rounded == CMTime(value: 1, timescale: 2))
}

@Test func nonNumericTimesFollowCoreMediaTotalOrder() async {
    let ordered: [CMTime] = [
        .negativeInfinity, CMTime(value: Int64.min, timescale: 1), .zero,
        CMTime(value: Int64.max, timescale: 1), .indefinite, .positiveInfinity, .invalid,
    ]
    for i in ordered.indices {
        for j in ordered.indices {
            let expected: Int32 = i < j ? -1 : (i == j ? 0 : 1)
            #expect(CMTimeCompare(ordered[i], ordered[j]) == expected, "\(i) vs \(j)")
        }
    }
    #expect(CMTime.indefinite > .zero)
    #expect(CMTime(value: 5, timescale: 1) < .invalid)
    #expect(CMTime.invalid == CMTime(value: 9, timescale: 9, flags: [.positiveInfinity], epoch: 4))
    #expect(CMTime.indefinite == CMTime(value: 3, timescale: 7, flags: [.valid, .indefinite], epoch: 2))
    #expect(CMTime.positiveInfinity == CMTime(value: 1, timescale: 1, flags: [.valid, .positiveInfinity], epoch: 0))
}

@Test func sortingPutsInvalidLast() async {
    let sorted = [CMTime.invalid, .positiveInfinity, CMTime(value: 1, timescale: 1), .negativeInfinity].sorted()
    #expect(sorted.map(\.flags) == [[.valid, .negativeInfinity], .valid, [.valid, .positiveInfinity], []])
}

@Test func epochIsComparedBeforeValue() async {
    let early = CMTime(value: 1000, timescale: 1, flags: .valid, epoch: 0)
    let late = CMTime(value: 0, timescale: 1, flags: .valid, epoch: 1)
    #expect(early < late)
    #expect(CMTimeCompare(late, early) == 1)
    #expect(CMTime(value: 1, timescale: 2, flags: .valid, epoch: 1) != CMTime(value: 1, timescale: 2))
}

@Test func minimumMaximumAndAbsoluteValue() async {
    let a = CMTime(value: 1, timescale: 2)
    let b = CMTime(value: 2, timescale: 3)
    #expect(CMTimeMinimum(a, b) == a && CMTimeMaximum(a, b) == b)
    #expect(CMTimeMinimum(b, a) == a && CMTimeMaximum(b, a) == b)
    #expect(CMTimeMaximum(a, .invalid).flags == [])
    #expect(CMTimeMinimum(.negativeInfinity, a).isNegativeInfinity)
    // Ties keep the first argument.
    let same = CMTime(value: 300, timescale: 600)
    #expect(CMTimeMinimum(a, same).timescale == 2 && CMTimeMaximum(a, same).timescale == 2)
    #expect(CMTimeAbsoluteValue(CMTime(value: -7, timescale: 3)) == CMTime(value: 7, timescale: 3))
    #expect(CMTimeAbsoluteValue(CMTime(value: 7, timescale: 3)).value == 7)
    #expect(CMTimeAbsoluteValue(.negativeInfinity).isPositiveInfinity)
    #expect(CMTimeAbsoluteValue(.indefinite).isIndefinite)
    let absMin = CMTimeAbsoluteValue(CMTime(value: .min, timescale: 2))
    #expect(absMin == CMTime(value: 1 << 62, timescale: 1))
}

// MARK: - Printing

@Test func debugDescriptionLooksLikeTheStruct() async {
    #expect(CMTime(value: 1, timescale: 2).debugDescription == "CMTime(value: 1, timescale: 2, flags: [.valid], epoch: 0)")
    #expect(CMTime.invalid.debugDescription == "CMTime(value: 0, timescale: 0, flags: [], epoch: 0)")
}
