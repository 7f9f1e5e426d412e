// Playhead: the token that keeps a key-value observation alive.
//
// Concurrency: thread-safe. `invalidate()` may be called from any thread, including from
// inside the observation's own change handler; the token may be released on any thread.
import Foundation

/// A running observation created by `observe(_:options:changeHandler:)`.
///
/// Keep the token for as long as you want changes: releasing it ends the observation just
/// like calling ``invalidate()``. The token does not keep the observed object alive.
public final class NSKeyValueObservation: NSObject, @unchecked Sendable {
    // @unchecked: the only stored property is an immutable reference to a Sendable value.
    private let subscription: any ObservationToken

    init(_ subscription: any ObservationToken) {
        self.subscription = subscription
        super.init()
    }

    /// Stops the observation: the change handler is not called again and is released.
    ///
    /// Calling it more than once does nothing. A change that is being delivered on another
    /// thread at the same moment may still reach the handler once.
    /// - Important: Thread-safe.
    public func invalidate() {
        subscription.invalidate()
    }

    deinit {
        subscription.invalidate()
    }
}

/// The part of a subscription the token needs.
protocol ObservationToken: AnyObject, Sendable {
    func invalidate()
}

extension KeyPathSubscription: ObservationToken {}
