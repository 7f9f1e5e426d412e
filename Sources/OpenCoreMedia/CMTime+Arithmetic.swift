// Playhead: CMTime addition, subtraction, scaling and timescale conversion.

// MARK: - Operators

extension CMTime {
    /// Adds two times; the same as `CMTimeAdd(lhs, rhs)`.
    ///
    /// - Parameters:
    ///   - lhs: A time.
    ///   - rhs: The time to add.
    /// - Returns: The sum, following `CMTimeAdd`'s rules for timescales,
    ///   rounding, overflow, special times and epochs.
    public static func + (lhs: CMTime, rhs: CMTime) -> CMTime {
        _addOrSubtract(lhs, rhs, subtracting: false)
    }

    /// Subtracts one time from another; the same as `CMTimeSubtract(lhs, rhs)`.
    ///
    /// - Parameters:
    ///   - lhs: The time to subtract from.
    ///   - rhs: The time to subtract.
    /// - Returns: The difference, following `CMTimeSubtract`'s rules.
    public static func - (lhs: CMTime, rhs: CMTime) -> CMTime {
        _addOrSubtract(lhs, rhs, subtracting: true)
    }
}

// MARK: - Timescale conversion

extension CMTime {
    /// Expresses this time in another timescale.
    ///
    /// If the value cannot be represented exactly, it is rounded with
    /// `method` and `.hasBeenRounded` is set. An infinite or indefinite time
    /// is returned unchanged, and an invalid time stays invalid. A
    /// non-positive `newTimescale` gives `.invalid`. If the converted value
    /// does not fit in 64 bits the result is the infinity of the same sign.
    ///
    /// - Parameters:
    ///   - newTimescale: The timescale of the result.
    ///   - method: How to round an inexact value.
    /// - Returns: The converted time, in the same epoch.
    public func convertScale(_ newTimescale: Int32, method: CMTimeRoundingMethod) -> CMTime {
        switch _kind {
        case .invalid: return .invalid
        case .indefinite, .positiveInfinity, .negativeInfinity: return self
        case .numeric: break
        }
        guard newTimescale > 0 else { return .invalid }
        if newTimescale == timescale { return self }
        let (quotient, exact) = _Rational.divide(
            Int128(value) * Int128(newTimescale),
            by: Int128(timescale),
            method: method,
            precisionIncreases: newTimescale > timescale)
        guard _Rational.fitsInValue(quotient) else { return CMTime._overflowInfinity(negative: value < 0) }
        var resultFlags: CMTimeFlags = .valid
        if !exact || flags.contains(.hasBeenRounded) { resultFlags.insert(.hasBeenRounded) }
        return CMTime(value: CMTimeValue(quotient), timescale: newTimescale, flags: resultFlags, epoch: epoch)
    }
}

// MARK: - Implementation

extension CMTime {
    /// Shared body of `+` and `-`.
    ///
    /// Special kinds: an invalid operand gives invalid; infinities win over
    /// everything else, and opposing infinities (`+∞ + −∞`, `+∞ − +∞`) are
    /// invalid; otherwise indefinite is contagious. Finite operands: equal
    /// timescales are kept; otherwise the least common multiple is used,
    /// capped at `kCMTimeMaxTimescale` with default rounding; overflow halves
    /// the timescale, then gives an infinity. Epochs: two different non-zero
    /// epochs give invalid, equal non-zero epochs give epoch 0 (a duration),
    /// and an epoch-0 operand adopts the other operand's epoch.
    static func _addOrSubtract(_ lhs: CMTime, _ rhs: CMTime, subtracting: Bool) -> CMTime {
        let lhsKind = lhs._kind
        var rhsKind = rhs._kind
        if subtracting {
            // a − b is a + (−b); negating only swaps the infinities.
            if rhsKind == .positiveInfinity {
                rhsKind = .negativeInfinity
            } else if rhsKind == .negativeInfinity {
                rhsKind = .positiveInfinity
            }
        }
        if lhsKind == .invalid || rhsKind == .invalid { return .invalid }
        let lhsInfinite = lhsKind == .positiveInfinity || lhsKind == .negativeInfinity
        let rhsInfinite = rhsKind == .positiveInfinity || rhsKind == .negativeInfinity
        if lhsInfinite && rhsInfinite {
            guard lhsKind == rhsKind else { return .invalid }
            return lhsKind == .positiveInfinity ? .positiveInfinity : .negativeInfinity
        }
        if lhsInfinite { return lhsKind == .positiveInfinity ? .positiveInfinity : .negativeInfinity }
        if rhsInfinite { return rhsKind == .positiveInfinity ? .positiveInfinity : .negativeInfinity }
        if lhsKind == .indefinite || rhsKind == .indefinite { return .indefinite }

        let epoch: CMTimeEpoch
        if lhs.epoch == rhs.epoch {
            epoch = 0
        } else if lhs.epoch == 0 {
            epoch = rhs.epoch
        } else if rhs.epoch == 0 {
            epoch = lhs.epoch
        } else {
            return .invalid
        }

        let rhsValue = subtracting ? -Int128(rhs.value) : Int128(rhs.value)
        let rounded = lhs.flags.contains(.hasBeenRounded) || rhs.flags.contains(.hasBeenRounded)
        if lhs.timescale == rhs.timescale {
            return _fromRational(
                numerator: Int128(lhs.value) + rhsValue, denominator: Int128(lhs.timescale),
                timescale: lhs.timescale, epoch: epoch, alreadyRounded: rounded)
        }
        let common = _Rational.lcm(lhs.timescale, rhs.timescale)
        let numerator =
            Int128(lhs.value) * Int128(common / Int64(lhs.timescale))
            + rhsValue * Int128(common / Int64(rhs.timescale))
        let target = common <= Int64(kCMTimeMaxTimescale) ? CMTimeScale(common) : kCMTimeMaxTimescale
        return _fromRational(
            numerator: numerator, denominator: Int128(common),
            timescale: target, epoch: epoch, alreadyRounded: rounded)
    }

    /// The result of scaling a non-finite time by a factor with the given sign.
    ///
    /// Invalid stays invalid and indefinite stays indefinite. An infinity keeps
    /// its sign for a positive factor, flips it for a negative one, and becomes
    /// invalid for a zero (or NaN, `sign == nil`) factor.
    func _scaledNonNumeric(factorSign: Int?) -> CMTime {
        switch _kind {
        case .invalid, .numeric: return .invalid
        case .indefinite: return .indefinite
        case .positiveInfinity, .negativeInfinity:
            guard let sign = factorSign, sign != 0 else { return .invalid }
            let positive = (_kind == .positiveInfinity) == (sign > 0)
            return positive ? .positiveInfinity : .negativeInfinity
        }
    }

    /// Multiplies a finite or special time by a 32-bit integer, keeping the timescale.
    static func _multiply(_ time: CMTime, by multiplier: Int32) -> CMTime {
        guard time._kind == .numeric else { return time._scaledNonNumeric(factorSign: Int(multiplier.signum())) }
        return _fromRational(
            numerator: Int128(time.value) * Int128(multiplier), denominator: Int128(time.timescale),
            timescale: time.timescale, epoch: time.epoch,
            alreadyRounded: time.flags.contains(.hasBeenRounded))
    }

    /// Multiplies a time by a floating-point factor.
    ///
    /// A timescale below 65536 is doubled until it reaches at least 65536, so
    /// that the result keeps useful precision; the value is then rounded half
    /// away from zero, and overflow halves the timescale, then gives an infinity.
    static func _multiply(_ time: CMTime, byFloat64 multiplier: Double) -> CMTime {
        if multiplier.isNaN { return .invalid }
        let sign = multiplier > 0 ? 1 : (multiplier < 0 ? -1 : 0)
        guard time._kind == .numeric else { return time._scaledNonNumeric(factorSign: sign) }
        if multiplier.isInfinite {
            if time.value == 0 { return .invalid }
            return (time.value > 0) == (sign > 0) ? .positiveInfinity : .negativeInfinity
        }
        var scale = time.timescale
        while scale < 65536 { scale *= 2 }
        let base = Double(time.value) * multiplier
        let inputRounded = time.flags.contains(.hasBeenRounded) || Double(exactly: time.value) == nil
        while true {
            let product = base * (Double(scale) / Double(time.timescale))
            let rounded = product.rounded(.toNearestOrAwayFromZero)
            if rounded >= -0x1p63 && rounded < 0x1p63 {
                var flags: CMTimeFlags = .valid
                if rounded != product || inputRounded { flags.insert(.hasBeenRounded) }
                return CMTime(value: CMTimeValue(rounded), timescale: scale, flags: flags, epoch: time.epoch)
            }
            if scale <= 1 { return _overflowInfinity(negative: base < 0) }
            scale /= 2
        }
    }

    /// Multiplies a time by `multiplier / divisor`, exactly when possible.
    ///
    /// The original timescale is kept when the result is exact in it;
    /// otherwise the reduced exact fraction is used when it fits; otherwise
    /// the nearest time in the exact denominator (or `kCMTimeMaxTimescale`
    /// when that does not fit in 32 bits) with default rounding and the usual
    /// overflow halving. A zero divisor gives `.invalid`.
    static func _multiply(_ time: CMTime, ratio multiplier: Int32, _ divisor: Int32) -> CMTime {
        if divisor == 0 { return .invalid }
        guard time._kind == .numeric else {
            return time._scaledNonNumeric(factorSign: Int(multiplier.signum()) * Int(divisor.signum()))
        }
        var numerator = Int128(time.value) * Int128(multiplier)
        var denominator = Int128(time.timescale) * Int128(divisor)
        if denominator < 0 {
            numerator = -numerator
            denominator = -denominator
        }
        let rounded = time.flags.contains(.hasBeenRounded)
        let flags: CMTimeFlags = rounded ? [.valid, .hasBeenRounded] : .valid
        let (sameScale, remainder) = (Int128(time.value) * Int128(multiplier))
            .quotientAndRemainder(dividingBy: Int128(divisor))
        if remainder == 0 && _Rational.fitsInValue(sameScale) {
            return CMTime(value: CMTimeValue(sameScale), timescale: time.timescale, flags: flags, epoch: time.epoch)
        }
        let divisorGCD = _Rational.gcd(numerator, denominator)
        let reducedNumerator = numerator / divisorGCD
        let reducedDenominator = denominator / divisorGCD
        let fitsScale = reducedDenominator <= Int128(Int32.max)
        if fitsScale && _Rational.fitsInValue(reducedNumerator) {
            return CMTime(
                value: CMTimeValue(reducedNumerator), timescale: CMTimeScale(reducedDenominator),
                flags: flags, epoch: time.epoch)
        }
        let target = fitsScale ? CMTimeScale(reducedDenominator) : max(time.timescale, kCMTimeMaxTimescale)
        return _fromRational(
            numerator: reducedNumerator, denominator: reducedDenominator,
            timescale: target, epoch: time.epoch, alreadyRounded: rounded)
    }

    /// The magnitude of a time: finite negatives are negated, negative
    /// infinity becomes positive infinity, everything else is unchanged.
    static func _absoluteValue(_ time: CMTime) -> CMTime {
        switch time._kind {
        case .negativeInfinity: return .positiveInfinity
        case .numeric where time.value < 0:
            return _fromRational(
                numerator: -Int128(time.value), denominator: Int128(time.timescale),
                timescale: time.timescale, epoch: time.epoch,
                alreadyRounded: time.flags.contains(.hasBeenRounded))
        default: return time
        }
    }
}
