// Playhead: the options that choose what a key-value observation reports, and when.
//
// Concurrency: a plain value type; safe to share between threads.

/// What a key-value observation delivers to its change handler.
///
/// Pass a combination to `observe(_:options:changeHandler:)`. With no options the handler
/// still runs after every change, but the change carries neither the old nor the new value.
public struct NSKeyValueObservingOptions: OptionSet, Sendable {
    /// The bit pattern of the selected options.
    public let rawValue: UInt

    /// Options with the given bit pattern.
    /// - Parameter rawValue: A combination of the bits of the named options.
    public init(rawValue: UInt) {
        self.rawValue = rawValue
    }

    /// Include the value after the change in `NSKeyValueObservedChange.newValue`.
    public static let new = NSKeyValueObservingOptions(rawValue: 0x01)

    /// Include the value before the change in `NSKeyValueObservedChange.oldValue`.
    public static let old = NSKeyValueObservingOptions(rawValue: 0x02)

    /// Call the handler once right away, before `observe` returns, with the current value
    /// (in `newValue` when `.new` is also requested).
    public static let initial = NSKeyValueObservingOptions(rawValue: 0x04)

    /// Also call the handler just before each change, with `isPrior` set (and the value
    /// about to be replaced in `oldValue` when `.old` is also requested).
    public static let prior = NSKeyValueObservingOptions(rawValue: 0x08)
}
