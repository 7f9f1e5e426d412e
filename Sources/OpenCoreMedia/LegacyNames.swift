// Playhead: pre-Swift-4.2 CoreMedia constant names, kept only for their diagnostics.

// Like Apple's SDK, these are unavailable in Swift 4.2 and later: using one is a
// compile error whose fix-it renames it to the modern spelling.

/// Obsolete spelling of `CMTime.zero`.
@available(swift, obsoleted: 4.2, renamed: "CMTime.zero")
public let kCMTimeZero: CMTime = .zero

/// Obsolete spelling of `CMTime.invalid`.
@available(swift, obsoleted: 4.2, renamed: "CMTime.invalid")
public let kCMTimeInvalid: CMTime = .invalid

/// Obsolete spelling of `CMTime.indefinite`.
@available(swift, obsoleted: 4.2, renamed: "CMTime.indefinite")
public let kCMTimeIndefinite: CMTime = .indefinite

/// Obsolete spelling of `CMTime.positiveInfinity`.
@available(swift, obsoleted: 4.2, renamed: "CMTime.positiveInfinity")
public let kCMTimePositiveInfinity: CMTime = .positiveInfinity

/// Obsolete spelling of `CMTime.negativeInfinity`.
@available(swift, obsoleted: 4.2, renamed: "CMTime.negativeInfinity")
public let kCMTimeNegativeInfinity: CMTime = .negativeInfinity

/// Obsolete spelling of `CMTimeRange.zero`.
@available(swift, obsoleted: 4.2, renamed: "CMTimeRange.zero")
public let kCMTimeRangeZero: CMTimeRange = .zero

/// Obsolete spelling of `CMTimeRange.invalid`.
@available(swift, obsoleted: 4.2, renamed: "CMTimeRange.invalid")
public let kCMTimeRangeInvalid: CMTimeRange = .invalid
