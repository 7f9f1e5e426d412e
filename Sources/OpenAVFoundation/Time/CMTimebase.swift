// Playhead: CMClock and CMTimebase: a timeline that runs at a rate against a clock. Apps make
// their own from the host clock; every player item has one that follows its engine's clock
// (`AVPlayerItem.timebase`).
//
// Concurrency: a timebase's anchor and rate sit behind its lock; any thread may read or set
// them. Notifications are posted on the main queue.
import Foundation

/// Apple's status code type for Core Media calls (0: success).
public typealias OSStatus = Int32
/// The timebase cannot be changed (an item's timebase follows its player).
public let kCMTimebaseError_ReadOnly: OSStatus = -12757
/// An argument was invalid (a non-numeric time).
public let kCMTimebaseError_InvalidParameter: OSStatus = -12749

/// A clock: a source of time that always runs at rate 1.
///
/// - Important: Immutable; thread-safe.
public final class CMClock: @unchecked Sendable {
    let seconds: @Sendable () -> Double

    init(seconds: @escaping @Sendable () -> Double) {
        self.seconds = seconds
    }

    /// The host's monotonic clock (`CACurrentMediaTime()`).
    public static let hostTimeClock = CMClock { CACurrentMediaTime() }

    /// The clock's time now, in nanoseconds.
    public var time: CMTime { CMTime(seconds: seconds(), preferredTimescale: 1_000_000_000) }
}

/// The host's monotonic clock.
public func CMClockGetHostTimeClock() -> CMClock { .hostTimeClock }

/// `clock`'s time now.
public func CMClockGetTime(_ clock: CMClock) -> CMTime { clock.time }

/// A timeline that moves at `rate` against a source clock: its time is the anchor time plus the
/// clock time passed since the anchor, times the rate.
///
/// ```swift
/// let timebase = try CMTimebase(sourceClock: .hostTimeClock)
/// try timebase.setTime(.zero)
/// try timebase.setRate(1)
/// ```
///
/// Setting the rate posts `CMTimebase.effectiveRateChanged`; setting the time posts
/// `CMTimebase.timeJumped` (object: the timebase, on the main queue).
public class CMTimebase: @unchecked Sendable {
    /// Posted when the effective rate changes (play, pause, a stall, a rate change).
    public static let effectiveRateChanged = NSNotification.Name("CMTimebaseEffectiveRateChanged")
    /// Posted when the time jumps (a set time, a seek).
    public static let timeJumped = NSNotification.Name("CMTimebaseTimeJumped")

    private struct Anchor {
        var time: CMTime = .zero
        var clockSeconds: Double = 0
        var rate: Double = 0
    }
    private let anchor = Locked(Anchor())
    /// The clock the timebase runs against.
    public let sourceClock: CMClock?

    /// A timebase at time zero and rate zero against `sourceClock`.
    public convenience init(sourceClock: CMClock) throws {
        self.init(clock: sourceClock)
    }

    init(clock: CMClock) {
        sourceClock = clock
        anchor.withLock { $0.clockSeconds = clock.seconds() }
    }

    /// The timebase's time now.
    public var time: CMTime {
        let (anchorTime, clockSeconds, rate) = anchor.withLock { ($0.time, $0.clockSeconds, $0.rate) }
        guard rate != 0, let clock = sourceClock else { return anchorTime }
        let passed = (clock.seconds() - clockSeconds) * rate
        return anchorTime + CMTime(seconds: passed, preferredTimescale: anchorTime.timescale > 0 ? max(anchorTime.timescale, 1000) : 1_000_000)
    }

    /// The rate set (0: stopped).
    public var rate: Float64 { anchor.withLock { $0.rate } }

    /// The rate time moves at now; the same as `rate` for timebases apps make.
    public var effectiveRate: Float64 { rate }

    /// Moves the timebase to `time` now, keeping its rate.
    public func setTime(_ time: CMTime) throws {
        guard time.isNumeric, let clock = sourceClock else { throw CMTimebaseError(status: kCMTimebaseError_InvalidParameter) }
        anchor.withLock { $0 = Anchor(time: time, clockSeconds: clock.seconds(), rate: $0.rate) }
        post(Self.timeJumped)
    }

    /// Sets the rate from now on, keeping the time continuous.
    public func setRate(_ rate: Float64) throws {
        guard let clock = sourceClock else { throw CMTimebaseError(status: kCMTimebaseError_ReadOnly) }
        let current = time
        let changed = anchor.withLock { anchor -> Bool in
            defer { anchor = Anchor(time: current, clockSeconds: clock.seconds(), rate: rate) }
            return anchor.rate != rate
        }
        if changed { post(Self.effectiveRateChanged) }
    }

    /// Sets the rate and places `anchorTime` at the source clock's `immediateSourceTime`.
    public func setRateAndAnchorTime(rate: Float64, anchorTime: CMTime, immediateSourceTime: CMTime) throws {
        guard anchorTime.isNumeric, immediateSourceTime.isNumeric, sourceClock != nil else {
            throw CMTimebaseError(status: kCMTimebaseError_InvalidParameter)
        }
        let changed = anchor.withLock { anchor -> Bool in
            defer { anchor = Anchor(time: anchorTime, clockSeconds: immediateSourceTime.seconds, rate: rate) }
            return anchor.rate != rate
        }
        post(Self.timeJumped)
        if changed { post(Self.effectiveRateChanged) }
    }

    /// Posts `name` with this timebase as the object, on the main queue.
    func post(_ name: NSNotification.Name) {
        let timebase = UncheckedBox(self)
        MainQueue.perform { NotificationCenter.default.post(name: name, object: timebase.value) }
    }
}

/// A failed timebase call, with Core Media's status code.
public struct CMTimebaseError: Error, Equatable, Sendable {
    /// The status code (`kCMTimebaseError_ReadOnly`, ...).
    public let status: OSStatus
}

/// The effective-rate notification's name, as the C API spells it.
public let kCMTimebaseNotification_EffectiveRateChanged = CMTimebase.effectiveRateChanged.rawValue
/// The time-jumped notification's name, as the C API spells it.
public let kCMTimebaseNotification_TimeJumped = CMTimebase.timeJumped.rawValue

/// `timebase`'s time now.
public func CMTimebaseGetTime(_ timebase: CMTimebase) -> CMTime { timebase.time }

/// `timebase`'s time now in `timeScale` units, rounded by `method`.
public func CMTimebaseGetTimeWithTimeScale(
    _ timebase: CMTimebase, timeScale: CMTimeScale, method: CMTimeRoundingMethod
) -> CMTime {
    CMTimeConvertScale(timebase.time, timescale: timeScale, method: method)
}

/// `timebase`'s rate.
public func CMTimebaseGetRate(_ timebase: CMTimebase) -> Float64 { timebase.rate }

/// The rate `timebase`'s time moves at now.
public func CMTimebaseGetEffectiveRate(_ timebase: CMTimebase) -> Float64 { timebase.effectiveRate }

/// Sets `timebase`'s rate; `kCMTimebaseError_ReadOnly` for an item's timebase.
@discardableResult
public func CMTimebaseSetRate(_ timebase: CMTimebase, rate: Float64) -> OSStatus {
    status { try timebase.setRate(rate) }
}

/// Sets `timebase`'s time; `kCMTimebaseError_ReadOnly` for an item's timebase.
@discardableResult
public func CMTimebaseSetTime(_ timebase: CMTimebase, time: CMTime) -> OSStatus {
    status { try timebase.setTime(time) }
}

private func status(_ body: () throws -> Void) -> OSStatus {
    do {
        try body()
        return 0
    } catch let error as CMTimebaseError {
        return error.status
    } catch {
        return kCMTimebaseError_InvalidParameter
    }
}
