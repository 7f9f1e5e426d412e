// Playhead: exact 128-bit integer helpers behind CMTime arithmetic.

/// Exact integer helpers used by the time arithmetic.
///
/// Every product of a `CMTimeValue` (64 bits) and a `CMTimeScale` (32 bits)
/// fits in 96 bits, so the stdlib's `Int128` holds all intermediate results
/// without overflow as long as callers keep numerators below 2^96 and
/// multiply them by at most one more 31-bit factor.
enum _Rational {
    // MARK: - Rounding division

    /// Divides `numerator` by a positive `denominator`, rounding with `method`.
    ///
    /// - Parameters:
    ///   - numerator: The dividend; any sign.
    ///   - denominator: The divisor; must be positive.
    ///   - method: The rounding rule for an inexact quotient.
    ///   - precisionIncreases: For `.quickTime` only: whether the conversion goes
    ///     to a larger timescale (round away from zero) rather than a smaller one
    ///     (truncate, but never truncate a negative number to zero).
    /// - Returns: The rounded quotient and whether it was exact.
    static func divide(
        _ numerator: Int128,
        by denominator: Int128,
        method: CMTimeRoundingMethod,
        precisionIncreases: Bool = false
    ) -> (quotient: Int128, exact: Bool) {
        let (quotient, remainder) = numerator.quotientAndRemainder(dividingBy: denominator)
        if remainder == 0 { return (quotient, true) }
        let awayStep: Int128 = numerator < 0 ? -1 : 1
        switch method {
        case .roundHalfAwayFromZero:
            let twiceRemainder = remainder.magnitude * 2
            return (twiceRemainder >= denominator.magnitude ? quotient + awayStep : quotient, false)
        case .roundTowardZero:
            return (quotient, false)
        case .roundAwayFromZero:
            return (quotient + awayStep, false)
        case .quickTime:
            if precisionIncreases { return (quotient + awayStep, false) }
            if numerator < 0 && quotient == 0 { return (-1, false) }
            return (quotient, false)
        case .roundTowardPositiveInfinity:
            return (numerator > 0 ? quotient + 1 : quotient, false)
        case .roundTowardNegativeInfinity:
            return (numerator < 0 ? quotient - 1 : quotient, false)
        }
    }

    // MARK: - GCD and LCM

    /// The greatest common divisor of two integers (non-negative result).
    static func gcd(_ a: Int128, _ b: Int128) -> Int128 {
        var x = a.magnitude
        var y = b.magnitude
        while y != 0 { (x, y) = (y, x % y) }
        return Int128(x)
    }

    /// The least common multiple of two positive timescales.
    ///
    /// The result is below 2^62, so it always fits in `Int64`.
    static func lcm(_ a: CMTimeScale, _ b: CMTimeScale) -> Int64 {
        let wideA = Int128(a)
        let wideB = Int128(b)
        return Int64(wideA / gcd(wideA, wideB) * wideB)
    }

    // MARK: - Range checks

    /// Whether a wide integer fits in a `CMTimeValue`.
    static func fitsInValue(_ x: Int128) -> Bool {
        x >= Int128(Int64.min) && x <= Int128(Int64.max)
    }
}

extension CMTime {
    // MARK: - Building a time from an exact rational

    /// Builds the time closest to `numerator / denominator` seconds in
    /// `timescale`, using default rounding.
    ///
    /// If the value does not fit in 64 bits the timescale is halved repeatedly
    /// (rounding again each time); if it still overflows at timescale 1 the
    /// result is the infinity with the numerator's sign, flagged as rounded.
    ///
    /// - Parameters:
    ///   - numerator: Exact numerator in seconds; keep below 2^96 in magnitude.
    ///   - denominator: Positive exact denominator.
    ///   - timescale: The preferred positive timescale of the result.
    ///   - epoch: The epoch of a finite result.
    ///   - alreadyRounded: Whether an input was already marked as rounded.
    static func _fromRational(
        numerator: Int128,
        denominator: Int128,
        timescale: CMTimeScale,
        epoch: CMTimeEpoch,
        alreadyRounded: Bool
    ) -> CMTime {
        var scale = timescale
        while true {
            let (quotient, exact) = _Rational.divide(
                numerator * Int128(scale), by: denominator, method: .default)
            if _Rational.fitsInValue(quotient) {
                var flags: CMTimeFlags = .valid
                if !exact || alreadyRounded { flags.insert(.hasBeenRounded) }
                return CMTime(value: CMTimeValue(quotient), timescale: scale, flags: flags, epoch: epoch)
            }
            if scale <= 1 { return _overflowInfinity(negative: numerator < 0) }
            scale /= 2
        }
    }

    /// The infinity produced when a result overflows even at timescale 1.
    static func _overflowInfinity(negative: Bool) -> CMTime {
        let sign: CMTimeFlags = negative ? .negativeInfinity : .positiveInfinity
        return CMTime(value: 0, timescale: 0, flags: [.valid, .hasBeenRounded, sign], epoch: 0)
    }
}
