// Playhead: CoreMedia's C-style CMTime functions, with their Swift labels.

// MARK: - Making times

/// Makes a valid time of `value / timescale` seconds in epoch 0.
///
/// - Parameters:
///   - value: The number of units.
///   - timescale: Units per second.
/// - Returns: The time, with its fields stored exactly as given.
public func CMTimeMake(value: Int64, timescale: Int32) -> CMTime {
    CMTime(value: value, timescale: timescale)
}

/// Makes the time nearest to a number of seconds; see `CMTime(seconds:preferredTimescale:)`.
///
/// - Parameters:
///   - seconds: The time in seconds.
///   - preferredTimescale: The timescale to use when the value fits.
/// - Returns: The rounded time, flagged `.hasBeenRounded` when inexact.
public func CMTimeMakeWithSeconds(_ seconds: Float64, preferredTimescale: Int32) -> CMTime {
    CMTime(seconds: seconds, preferredTimescale: preferredTimescale)
}

/// Makes a valid time of `value / timescale` seconds in the given epoch.
///
/// - Parameters:
///   - value: The number of units.
///   - timescale: Units per second.
///   - epoch: The epoch.
/// - Returns: The time, with its fields stored exactly as given.
public func CMTimeMakeWithEpoch(value: Int64, timescale: Int32, epoch: Int64) -> CMTime {
    CMTime(value: value, timescale: timescale, flags: .valid, epoch: epoch)
}

// MARK: - Reading times

/// The time in floating-point seconds; see `CMTime.seconds`.
///
/// - Parameter time: The time to read.
/// - Returns: Seconds, `.nan` for invalid or indefinite, `±.infinity` for the infinities.
public func CMTimeGetSeconds(_ time: CMTime) -> Float64 {
    time.seconds
}

// MARK: - Arithmetic

/// Adds two times.
///
/// Equal timescales are kept; different ones give their least common
/// multiple, capped at `kCMTimeMaxTimescale` with default rounding. On
/// overflow the timescale is halved until the value fits, then the result is
/// an infinity. `.hasBeenRounded` is set when any rounding happens or either
/// input had it.
///
/// - Parameters:
///   - lhs: A time.
///   - rhs: The time to add.
/// - Returns: The sum; see `CMTime.+` for special times and epochs.
public func CMTimeAdd(_ lhs: CMTime, _ rhs: CMTime) -> CMTime {
    lhs + rhs
}

/// Subtracts `rhs` from `lhs`, with the same timescale and rounding rules as `CMTimeAdd`.
///
/// - Parameters:
///   - lhs: The time to subtract from.
///   - rhs: The time to subtract.
/// - Returns: The difference; `+∞ − +∞` and `−∞ − −∞` are invalid.
public func CMTimeSubtract(_ lhs: CMTime, _ rhs: CMTime) -> CMTime {
    lhs - rhs
}

/// Multiplies a time by an integer, keeping its timescale unless the value overflows.
///
/// - Parameters:
///   - time: The time to scale.
///   - multiplier: The factor.
/// - Returns: The product; on overflow the timescale is halved, then the
///   result is an infinity. An infinity times a negative number flips sign,
///   and times zero is invalid.
public func CMTimeMultiply(_ time: CMTime, multiplier: Int32) -> CMTime {
    CMTime._multiply(time, by: multiplier)
}

/// Multiplies a time by a floating-point factor.
///
/// The result's timescale is the input's, doubled until it is at least 65536;
/// the value is rounded half away from zero.
///
/// - Parameters:
///   - time: The time to scale.
///   - multiplier: The factor; NaN gives `.invalid`.
/// - Returns: The product, flagged `.hasBeenRounded` when inexact.
public func CMTimeMultiplyByFloat64(_ time: CMTime, multiplier: Float64) -> CMTime {
    CMTime._multiply(time, byFloat64: multiplier)
}

/// Multiplies a time by the fraction `multiplier / divisor`, exactly when the
/// result can be represented.
///
/// - Parameters:
///   - time: The time to scale.
///   - multiplier: The numerator of the factor.
///   - divisor: The denominator of the factor; zero gives `.invalid`.
/// - Returns: The product, in the input's timescale when that is exact.
public func CMTimeMultiplyByRatio(_ time: CMTime, multiplier: Int32, divisor: Int32) -> CMTime {
    CMTime._multiply(time, ratio: multiplier, divisor)
}

/// Expresses a time in another timescale; see `CMTime.convertScale(_:method:)`.
///
/// - Parameters:
///   - time: The time to convert.
///   - newTimescale: The timescale of the result.
///   - method: How to round an inexact value.
/// - Returns: The converted time.
public func CMTimeConvertScale(_ time: CMTime, timescale newTimescale: Int32, method: CMTimeRoundingMethod) -> CMTime {
    time.convertScale(newTimescale, method: method)
}

// MARK: - Comparison

/// Compares two times exactly.
///
/// The order is: negative infinity < finite times < indefinite < positive
/// infinity < invalid. Finite times compare by epoch first, then by exact
/// value across timescales.
///
/// - Parameters:
///   - time1: A time.
///   - time2: Another time.
/// - Returns: -1 if `time1` is earlier, 0 if equal, 1 if later.
public func CMTimeCompare(_ time1: CMTime, _ time2: CMTime) -> Int32 {
    CMTime._compare(time1, time2)
}

/// The earlier of two times in `CMTimeCompare` order.
///
/// - Parameters:
///   - time1: A time.
///   - time2: Another time.
/// - Returns: `time2` if it is strictly earlier, otherwise `time1`.
public func CMTimeMinimum(_ time1: CMTime, _ time2: CMTime) -> CMTime {
    CMTime._compare(time2, time1) < 0 ? time2 : time1
}

/// The later of two times in `CMTimeCompare` order.
///
/// - Parameters:
///   - time1: A time.
///   - time2: Another time.
/// - Returns: `time2` if it is strictly later, otherwise `time1`.
public func CMTimeMaximum(_ time1: CMTime, _ time2: CMTime) -> CMTime {
    CMTime._compare(time2, time1) > 0 ? time2 : time1
}

/// The magnitude of a time.
///
/// - Parameter time: The time.
/// - Returns: The time negated if finite and negative, positive infinity for
///   negative infinity, and the time itself otherwise.
public func CMTimeAbsoluteValue(_ time: CMTime) -> CMTime {
    CMTime._absoluteValue(time)
}

// MARK: - Predicates

/// Whether a time is valid; the same as `time.isValid`.
///
/// - Parameter time: The time to test.
/// - Returns: `true` if `.valid` is set.
public func CMTIME_IS_VALID(_ time: CMTime) -> Bool {
    time.isValid
}

/// Whether a time is invalid; the negation of `CMTIME_IS_VALID`.
///
/// - Parameter time: The time to test.
/// - Returns: `true` if `.valid` is not set.
public func CMTIME_IS_INVALID(_ time: CMTime) -> Bool {
    !time.isValid
}

/// Whether a time is positive infinity; the same as `time.isPositiveInfinity`.
///
/// - Parameter time: The time to test.
/// - Returns: `true` for a valid time flagged `.positiveInfinity`.
public func CMTIME_IS_POSITIVEINFINITY(_ time: CMTime) -> Bool {
    time.isPositiveInfinity
}

/// Whether a time is negative infinity; the same as `time.isNegativeInfinity`.
///
/// - Parameter time: The time to test.
/// - Returns: `true` for a valid time flagged `.negativeInfinity`.
public func CMTIME_IS_NEGATIVEINFINITY(_ time: CMTime) -> Bool {
    time.isNegativeInfinity
}

/// Whether a time is indefinite; the same as `time.isIndefinite`.
///
/// - Parameter time: The time to test.
/// - Returns: `true` for a valid time flagged `.indefinite`.
public func CMTIME_IS_INDEFINITE(_ time: CMTime) -> Bool {
    time.isIndefinite
}

/// Whether a time is finite; the same as `time.isNumeric`.
///
/// - Parameter time: The time to test.
/// - Returns: `true` for a valid time that is neither infinite nor indefinite.
public func CMTIME_IS_NUMERIC(_ time: CMTime) -> Bool {
    time.isNumeric
}

/// Whether a finite time has been rounded; the same as `time.hasBeenRounded`.
///
/// - Parameter time: The time to test.
/// - Returns: `true` for a finite time flagged `.hasBeenRounded`.
public func CMTIME_HAS_BEEN_ROUNDED(_ time: CMTime) -> Bool {
    time.hasBeenRounded
}
