// Playhead: names Apple code relies on that swift-corelibs-foundation does not provide.
import Foundation

/// Nanoseconds per second, as Dispatch declares it on Apple platforms. Ported code writes
/// `CMTimeScale(NSEC_PER_SEC)` for a nanosecond timescale.
public let NSEC_PER_SEC: UInt64 = 1_000_000_000
/// Nanoseconds per millisecond.
public let NSEC_PER_MSEC: UInt64 = 1_000_000
/// Microseconds per second.
public let USEC_PER_SEC: UInt64 = 1_000_000
/// Nanoseconds per microsecond.
public let NSEC_PER_USEC: UInt64 = 1_000

/// A pointer through which a method can hand back an error, so that the Apple idiom
/// `var error: NSError?; asset.statusOfValue(forKey: "duration", error: &error)` compiles.
///
/// - Note: Differs from AVFoundation: Apple's type is an `AutoreleasingUnsafeMutablePointer`,
///   which exists only with the Objective-C runtime. Call sites look the same.
public typealias NSErrorPointer = UnsafeMutablePointer<NSError?>?

/// Seconds on the host's monotonic clock, as Core Foundation names it.
public typealias CFTimeInterval = Double
