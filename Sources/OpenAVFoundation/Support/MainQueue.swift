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
        if isCurrent { work() } else { async(work) }
    }

    /// Enqueues `work` on the main queue (never runs it inline).
    package static func async(_ work: @escaping @Sendable () -> Void) {
        _ = marked
        DispatchQueue.main.async(execute: work)
        wakeUpHook.withLock { $0 }?.call()
    }

    /// A registered wake-up for a loop that drains the main queue itself (a player window's
    /// event loop sleeping in SDL): called after each enqueue, from the enqueuing thread.
    package final class WakeUpHook: Sendable {
        let call: @Sendable () -> Void
        /// A hook that runs `call`.
        package init(_ call: @escaping @Sendable () -> Void) { self.call = call }
    }

    private static let wakeUpHook = Locked<WakeUpHook?>(nil)

    /// Makes `hook` the one called after each enqueue (nil: none).
    package static func setWakeUpHook(_ hook: WakeUpHook?) { wakeUpHook.withLock { $0 = hook } }

    /// Removes `hook` if it is still the registered one.
    package static func clearWakeUpHook(_ hook: WakeUpHook) {
        wakeUpHook.withLock { if $0 === hook { $0 = nil } }
    }
}

/// A weak reference that can cross threads (for callbacks that must not keep their target
/// alive).
final class WeakReference<Target: AnyObject>: @unchecked Sendable {
    /// The target, while it lives.
    weak var value: Target?
    init(_ value: Target) { self.value = value }
}
