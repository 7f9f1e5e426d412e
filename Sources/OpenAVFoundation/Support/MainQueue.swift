// Playhead: running work on the main queue, synchronously when already there.
import Dispatch
import Foundation

/// Helpers for the rule that public state changes, observer callbacks and notifications
/// happen on the main queue.
///
/// Concurrency: thread-safe. `isCurrent` recognises both the main thread and blocks the main
/// queue runs on a worker thread (as under `dispatchMain()`, where `Thread.isMainThread` is
/// false).
package enum MainQueue {
    private static let key = DispatchSpecificKey<UInt8>()
    private static let marked: Void = { DispatchQueue.main.setSpecific(key: key, value: 1) }()

    /// True when the caller runs on the main thread or inside a main-queue block.
    package static var isCurrent: Bool {
        _ = marked
        return Thread.isMainThread || DispatchQueue.getSpecific(key: key) == 1
    }

    /// Runs `work` now when on the main queue, otherwise enqueues it there.
    package static func perform(_ work: @escaping @Sendable () -> Void) {
        if isCurrent { work() } else { DispatchQueue.main.async(execute: work) }
    }

    /// Enqueues `work` on the main queue (never runs it inline).
    package static func async(_ work: @escaping @Sendable () -> Void) {
        _ = marked
        DispatchQueue.main.async(execute: work)
    }
}

/// A weak reference that can cross threads (for callbacks that must not keep their target
/// alive).
final class WeakReference<Target: AnyObject>: @unchecked Sendable {
    /// The target, while it lives.
    weak var value: Target?
    init(_ value: Target) { self.value = value }
}
