// Playhead: block-based key-value observing for OpenAVFoundation's observable classes.
//
// Concurrency: `observe` may be called from any thread; with `.initial` the first handler
// call happens on the calling thread before it returns. Later calls happen synchronously on
// the thread that changes the property: OpenAVFoundation changes published state only on
// the main queue, so handlers run on the main queue, as with AVFoundation.
import Observation

/// Types that can be observed with `observe(_:options:changeHandler:)`.
///
/// The name matches the protocol Apple's Foundation uses for the same method, so code that
/// names it keeps compiling. On Linux only classes that also adopt ``_KeyValueObservable``
/// get `observe`: swift-corelibs-foundation has no key-value observing of its own.
public protocol _KeyValueCodingAndObserving {}

/// An object whose properties publish changes to key-value observers and to the Observation
/// framework. Adopted by OpenAVFoundation's observable classes; not API for clients.
///
/// - Note: Differs from AVFoundation: Linux has no Objective-C runtime, so only the properties
///   OpenAVFoundation documents as observable send changes. Properties a subclass adds are
///   not observable.
public protocol _KeyValueObservable: _KeyValueCodingAndObserving, Observation.Observable,
    AnyObject
{
    /// The object's change bookkeeping.
    var _kvoRegistry: _KeyValueObservingRegistry { get }
}

extension _KeyValueCodingAndObserving where Self: _KeyValueObservable {
    /// Calls a handler whenever the value at a key path changes.
    ///
    /// ```swift
    /// @MainActor final class PlayerController {
    ///     private var observations: [NSKeyValueObservation] = []
    ///
    ///     func watch(_ player: AVPlayer) {
    ///         let rate = player.observe(\.rate, options: [.initial, .new]) { _, change in
    ///             print("rate is now", change.newValue ?? 0)
    ///         }
    ///         // Follows whichever item is current, including after replaceCurrentItem(with:).
    ///         let status = player.observe(\.currentItem?.status, options: .new) { _, change in
    ///             print("item status:", String(describing: change.newValue))
    ///         }
    ///         observations = [rate, status]  // dropping a token ends its observation
    ///     }
    /// }
    /// ```
    ///
    /// The key path may be spelled on a subclass (`\MyPlayer.rate`), and may go through other
    /// observable objects (`\.currentItem?.status`): the observation follows the object now
    /// at `currentItem` whenever it is replaced. The handler runs once per change, even when
    /// the new value equals the old one.
    ///
    /// - Parameters:
    ///   - keyPath: The value to watch, relative to this object.
    ///   - options: What each call carries (`.new`, `.old`) and when extra calls happen
    ///     (`.initial` right away, `.prior` before each change). Defaults to none.
    ///   - changeHandler: Called with this object and a description of the change.
    /// - Returns: A token; the observation lasts until you invalidate or release it. The token
    ///   does not retain this object.
    /// - Important: The handler runs synchronously on the thread that made the change (the
    ///   main queue for OpenAVFoundation's classes) and never while the library holds a lock,
    ///   so it may invalidate tokens, start observations and change properties.
    /// - Note: Differs from AVFoundation: only properties documented as observable, and chains
    ///   through OpenAVFoundation's observable objects, trigger the handler; a key path that
    ///   reads nothing observable only ever gets the `.initial` call.
    public func observe<Value>(
        _ keyPath: KeyPath<Self, Value>, options: NSKeyValueObservingOptions = [],
        changeHandler: @escaping (Self, NSKeyValueObservedChange<Value>) -> Void
    ) -> NSKeyValueObservation {
        let subscription = KeyPathSubscription(
            root: self, keyPath: keyPath, options: options, handler: changeHandler)
        let token = NSKeyValueObservation(subscription)
        subscription.start()
        return token
    }
}
