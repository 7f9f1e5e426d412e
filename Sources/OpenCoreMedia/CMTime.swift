// Playhead: CMTime, an exact rational time value mirroring CoreMedia's.

// MARK: - Scalar types

/// The numerator of a `CMTime`: a count of `timescale` units.
public typealias CMTimeValue = Int64

/// The denominator of a `CMTime`: how many units make one second.
public typealias CMTimeScale = Int32

/// A counter that separates times which would otherwise compare equal, for
/// example timestamps from different passes through a loop.
public typealias CMTimeEpoch = Int64

/// An identifier for a track inside an asset.
public typealias CMPersistentTrackID = Int32

/// The largest timescale that arithmetic picks on its own: one billion units
/// per second (nanoseconds).
public var kCMTimeMaxTimescale: Int32 { 1_000_000_000 }

// MARK: - CMTime

/// A point in time or a duration, stored as the exact fraction
/// `value / timescale` seconds rather than as a floating-point number.
///
/// Besides finite times there are four special kinds, told apart by `flags`:
/// invalid, indefinite, positive infinity and negative infinity. The `value`
/// and `timescale` fields of the special kinds mean nothing.
///
/// Times compare exactly across timescales (`1/2 == 300/600`), using the same
/// total order as CoreMedia: negative infinity, then finite times, then
/// indefinite, then positive infinity, then invalid.
public struct CMTime: Sendable {
    /// The number of `timescale` units.
    public var value: CMTimeValue

    /// The number of units in one second; positive for a finite time.
    public var timescale: CMTimeScale

    /// What kind of time this is, and whether it has been rounded.
    public var flags: CMTimeFlags

    /// The epoch; a later epoch compares later regardless of value.
    public var epoch: CMTimeEpoch

    // MARK: - Creating times

    /// Creates an invalid time, with every field zero.
    public init() {
        self.init(value: 0, timescale: 0, flags: [], epoch: 0)
    }

    /// Creates a valid time of `value / timescale` seconds in epoch 0.
    ///
    /// The fields are stored as given, without reducing the fraction.
    ///
    /// - Parameters:
    ///   - value: The number of units.
    ///   - timescale: Units per second; should be positive.
    public init(value: CMTimeValue, timescale: CMTimeScale) {
        self.init(value: value, timescale: timescale, flags: .valid, epoch: 0)
    }

    /// Creates a time with every field given explicitly and stored as is.
    ///
    /// - Parameters:
    ///   - value: The number of units.
    ///   - timescale: Units per second.
    ///   - flags: The kind of time, and whether it was rounded.
    ///   - epoch: The epoch.
    public init(value: CMTimeValue, timescale: CMTimeScale, flags: CMTimeFlags, epoch: CMTimeEpoch) {
        self.value = value
        self.timescale = timescale
        self.flags = flags
        self.epoch = epoch
    }

    /// Creates the time nearest to a floating-point number of seconds.
    ///
    /// The value is `seconds * preferredTimescale` rounded half away from
    /// zero, so `CMTime(seconds: 0.4, preferredTimescale: 1)` is zero and
    /// `CMTime(seconds: 1.5, preferredTimescale: 1)` is two seconds. If that
    /// loses precision, `.hasBeenRounded` is set. If the value would not fit in
    /// 64 bits the timescale is halved until it does; past timescale 1 the
    /// result is an infinity. A NaN or a non-positive timescale gives
    /// `.invalid`; an infinite `seconds` gives the matching infinity.
    ///
    /// - Parameters:
    ///   - seconds: The time in seconds.
    ///   - preferredTimescale: The timescale to use when the value fits.
    public init(seconds: Double, preferredTimescale: CMTimeScale) {
        if preferredTimescale <= 0 || seconds.isNaN {
            self = .invalid
            return
        }
        if seconds.isInfinite {
            self = seconds > 0 ? .positiveInfinity : .negativeInfinity
            return
        }
        var scale = preferredTimescale
        while true {
            let product = seconds * Double(scale)
            let rounded = product.rounded(.toNearestOrAwayFromZero)
            // 2^63 is exactly representable; every double below it converts safely.
            if rounded >= -0x1p63 && rounded < 0x1p63 {
                let flags: CMTimeFlags = rounded == product ? .valid : [.valid, .hasBeenRounded]
                self.init(value: CMTimeValue(rounded), timescale: scale, flags: flags, epoch: 0)
                return
            }
            if scale == 1 {
                self = CMTime._overflowInfinity(negative: seconds < 0)
                return
            }
            scale /= 2
        }
    }

    // MARK: - Special times

    /// Zero seconds: value 0, timescale 1.
    public static let zero = CMTime(value: 0, timescale: 1)

    /// The invalid time: no flags set, every field zero.
    public static let invalid = CMTime()

    /// The unknown time, e.g. the duration of a live stream.
    public static let indefinite = CMTime(value: 0, timescale: 0, flags: [.valid, .indefinite], epoch: 0)

    /// The time later than every finite time.
    public static let positiveInfinity = CMTime(
        value: 0, timescale: 0, flags: [.valid, .positiveInfinity], epoch: 0)

    /// The time earlier than every finite time.
    public static let negativeInfinity = CMTime(
        value: 0, timescale: 0, flags: [.valid, .negativeInfinity], epoch: 0)

    // MARK: - Inspecting times

    /// The time as floating-point seconds.
    ///
    /// Invalid and indefinite times give `.nan`; the infinities give
    /// `.infinity` and `-.infinity`.
    public var seconds: Double {
        switch _kind {
        case .invalid, .indefinite: return .nan
        case .positiveInfinity: return .infinity
        case .negativeInfinity: return -.infinity
        case .numeric: return Double(value) / Double(timescale)
        }
    }

    /// Whether the `.valid` flag is set.
    public var isValid: Bool { flags.contains(.valid) }

    /// Whether this is a finite time: valid and neither infinite nor indefinite.
    public var isNumeric: Bool {
        flags.intersection([.valid, .impliedValueFlagsMask]) == .valid
    }

    /// Whether this is the valid, indefinite time.
    public var isIndefinite: Bool { isValid && flags.contains(.indefinite) }

    /// Whether this is positive infinity.
    public var isPositiveInfinity: Bool { isValid && flags.contains(.positiveInfinity) }

    /// Whether this is negative infinity.
    public var isNegativeInfinity: Bool { isValid && flags.contains(.negativeInfinity) }

    /// Whether this is a finite time that has lost precision to rounding.
    public var hasBeenRounded: Bool { isNumeric && flags.contains(.hasBeenRounded) }
}

// MARK: - Classification

extension CMTime {
    /// The kind of a time as the arithmetic sees it, ordered as `CMTimeCompare` orders them.
    enum _Kind: Int {
        case negativeInfinity = 0
        case numeric = 1
        case indefinite = 2
        case positiveInfinity = 3
        case invalid = 4
    }

    /// The kind of this time.
    ///
    /// A time flagged finite but with a timescale that is not positive cannot
    /// be evaluated, so the arithmetic treats it as invalid.
    var _kind: _Kind {
        if !isValid { return .invalid }
        if flags.contains(.indefinite) { return .indefinite }
        if flags.contains(.positiveInfinity) { return .positiveInfinity }
        if flags.contains(.negativeInfinity) { return .negativeInfinity }
        return timescale > 0 ? .numeric : .invalid
    }
}

// MARK: - CustomDebugStringConvertible

extension CMTime: CustomDebugStringConvertible {
    /// A struct-like rendering such as `CMTime(value: 1, timescale: 2, flags: [.valid], epoch: 0)`.
    ///
    /// - Note: Apple's `CMTime` has no such conformance; it prints through
    ///   reflection in the same `CMTime(value:timescale:flags:epoch:)` shape.
    public var debugDescription: String {
        var names: [String] = []
        if flags.contains(.valid) { names.append(".valid") }
        if flags.contains(.hasBeenRounded) { names.append(".hasBeenRounded") }
        if flags.contains(.positiveInfinity) { names.append(".positiveInfinity") }
        if flags.contains(.negativeInfinity) { names.append(".negativeInfinity") }
        if flags.contains(.indefinite) { names.append(".indefinite") }
        let known: CMTimeFlags = [.valid, .hasBeenRounded, .impliedValueFlagsMask]
        let unknown = flags.subtracting(known).rawValue
        if unknown != 0 { names.append("CMTimeFlags(rawValue: \(unknown))") }
        let flagText = "[" + names.joined(separator: ", ") + "]"
        return "CMTime(value: \(value), timescale: \(timescale), flags: \(flagText), epoch: \(epoch))"
    }
}
