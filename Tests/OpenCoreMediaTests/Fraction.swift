// Playhead: an exact rational oracle for checking CMTime arithmetic in tests.

import OpenCoreMedia

/// An exact fraction `numerator / denominator` with a positive denominator.
///
/// Magnitudes stay below 2^126 for every use in these tests: numerators come
/// from sums of 64-bit × 32-bit products, denominators from 32-bit × 32-bit products.
struct Fraction: Comparable {
    /// The numerator; carries the sign.
    var numerator: Int128
    /// The denominator; always positive.
    var denominator: Int128

    /// Creates `numerator / denominator`, moving the sign into the numerator.
    init(_ numerator: Int128, _ denominator: Int128) {
        precondition(denominator != 0)
        if denominator < 0 {
            self.numerator = -numerator
            self.denominator = -denominator
        } else {
            self.numerator = numerator
            self.denominator = denominator
        }
    }

    /// The exact value of a finite time.
    init(_ time: CMTime) {
        self.init(Int128(time.value), Int128(time.timescale))
    }

    static func + (a: Fraction, b: Fraction) -> Fraction {
        Fraction(a.numerator * b.denominator + b.numerator * a.denominator, a.denominator * b.denominator)
    }

    static prefix func - (a: Fraction) -> Fraction {
        Fraction(-a.numerator, a.denominator)
    }

    static func == (a: Fraction, b: Fraction) -> Bool {
        a.numerator * b.denominator == b.numerator * a.denominator
    }

    static func < (a: Fraction, b: Fraction) -> Bool {
        a.numerator * b.denominator < b.numerator * a.denominator
    }

    /// Whether the fraction is a whole number.
    var isInteger: Bool { numerator % denominator == 0 }

    /// The largest integer not above the fraction.
    var floor: Int128 {
        let q = numerator / denominator
        return (numerator % denominator != 0 && numerator < 0) ? q - 1 : q
    }

    /// The smallest integer not below the fraction.
    var ceiling: Int128 {
        isInteger ? numerator / denominator : floor + 1
    }

    /// This fraction multiplied by an integer.
    func times(_ k: Int128) -> Fraction {
        Fraction(numerator * k, denominator)
    }

    /// The integer this fraction rounds to under `method`, written from the
    /// rounding rules' definitions, independently of the library.
    ///
    /// - Parameter precisionIncreases: For `.quickTime`: whether the target timescale is larger.
    func rounded(_ method: CMTimeRoundingMethod, precisionIncreases: Bool = false) -> Int128 {
        let down = floor
        let up = ceiling
        if down == up { return down }
        let negative = numerator < 0
        let towardZero = negative ? up : down
        let awayFromZero = negative ? down : up
        switch method {
        case .roundHalfAwayFromZero:
            // Distance from floor, doubled, compared with 1: 2 * (x - floor) vs 1.
            let twiceFraction = 2 * (numerator - down * denominator)
            if twiceFraction == denominator { return awayFromZero }
            return twiceFraction < denominator ? down : up
        case .roundTowardZero: return towardZero
        case .roundAwayFromZero: return awayFromZero
        case .roundTowardPositiveInfinity: return up
        case .roundTowardNegativeInfinity: return down
        case .quickTime:
            if precisionIncreases { return awayFromZero }
            return (negative && towardZero == 0) ? -1 : towardZero
        }
    }
}

/// Whether a wide integer fits in a `CMTimeValue`.
func fitsInt64(_ x: Int128) -> Bool {
    x >= Int128(Int64.min) && x <= Int128(Int64.max)
}
