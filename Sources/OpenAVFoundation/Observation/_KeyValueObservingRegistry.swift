// Playhead: per-object bookkeeping that publishes property changes to key-value observers
// and to the Observation framework.
//
// Concurrency: thread-safe. `subscribers` is protected by its mutex, which is held only to
// read or edit the table: never while a getter, a mutation or a change handler runs, so
// handlers may observe, invalidate and mutate re-entrantly. Lock order: a subscription's
// lock may be held while taking this one, never the reverse. Change handlers run
// synchronously on the thread that calls `withMutation`; the OpenAVFoundation classes only
// mutate published state on the main queue, so handlers run there, as on Apple platforms.
import Observation

/// Bookkeeping for the key-value-observable properties of one object.
///
/// An observable class keeps one registry in a `let` and hands it out through
/// ``_KeyValueObservable/_kvoRegistry``. It has no public API: it exists only so the generic
/// `observe(_:options:changeHandler:)` can find it.
public final class _KeyValueObservingRegistry: Sendable {
    private struct WeakSubscriber: Sendable {
        weak var value: (any KeyValueSubscriber)?
    }

    /// Backs the object's `Observation.Observable` conformance.
    private let registrar = ObservationRegistrar()
    /// protected by its mutex: subscribers per canonical key path, in subscription order
    private let subscribers = Locked<[PublishedKey: [WeakSubscriber]]>([:])

    /// A registry with no observers.
    package init() {}

    // MARK: - Publishing (used by the observable classes)

    /// Reports that the getter of a published property ran.
    ///
    /// Call it from the getter of every published property, with the key path as spelled on
    /// the class that declares the property (for example `\AVPlayer.rate`, even when `self`
    /// is a subclass): that canonical path is how observers of subclasses find the property.
    /// - Parameters:
    ///   - keyPath: The canonical key path of the property being read.
    ///   - object: The object whose property is read, normally `self`.
    /// - Important: Thread-safe.
    package func access<Root: _KeyValueObservable, Value>(
        _ keyPath: KeyPath<Root, Value>, on object: Root
    ) {
        if DependencyProbe.report(self, key: PublishedKey(keyPath: keyPath)) { return }
        registrar.access(object, keyPath: keyPath)
    }

    /// Changes a published property, notifying its observers around the change.
    ///
    /// In order: observers that asked for `.prior` get their early call (old values are read
    /// now for those that asked for `.old`); `mutation` runs inside the Observation
    /// framework's `withMutation`; then every observer's handler runs with the new value.
    /// Every call notifies, even if the value did not change, so call it only for real
    /// changes. Nest calls to change several properties as one step: each property's
    /// after-change handlers then see all the new values.
    /// - Parameters:
    ///   - keyPath: The canonical key path of the property being changed.
    ///   - object: The object whose property changes, normally `self`.
    ///   - mutation: Stores the new value. It must not call change handlers itself.
    /// - Returns: Whatever `mutation` returns.
    /// - Important: Handlers run synchronously on the calling thread; call it on the main
    ///   queue for AVFoundation-compatible delivery. Never call it while holding a lock that a
    ///   getter or a handler might take.
    package func withMutation<Root: _KeyValueObservable, Value, Result>(
        _ keyPath: KeyPath<Root, Value>, on object: Root, _ mutation: () throws -> Result
    ) rethrows -> Result {
        let finishers = currentSubscribers(for: PublishedKey(keyPath: keyPath)).compactMap {
            $0.prepareChange()
        }
        let result: Result
        do {
            result = try registrar.withMutation(of: object, keyPath: keyPath, mutation)
        } catch {
            for finish in finishers { finish() }
            throw error
        }
        for finish in finishers { finish() }
        return result
    }

    // MARK: - Subscriptions (used by KeyPathSubscription)

    /// Starts sending changes of `key` to `subscriber`; the registry holds it weakly.
    func add(_ subscriber: any KeyValueSubscriber, for key: PublishedKey) {
        subscribers.withLock { table in
            var list = table[key, default: []].filter { $0.value != nil }
            list.append(WeakSubscriber(value: subscriber))
            table[key] = list
        }
    }

    /// Stops sending changes of `key` to `subscriber`.
    func remove(_ subscriber: any KeyValueSubscriber, for key: PublishedKey) {
        subscribers.withLock { table in
            guard let list = table[key] else { return }
            let kept = list.filter { $0.value != nil && $0.value !== subscriber }
            table[key] = kept.isEmpty ? nil : kept
        }
    }

    /// The live subscribers of `key`, retained so they survive while being notified.
    private func currentSubscribers(for key: PublishedKey) -> [any KeyValueSubscriber] {
        subscribers.withLock { table in table[key]?.compactMap(\.value) ?? [] }
    }
}

/// Something that wants to hear about changes of published properties.
protocol KeyValueSubscriber: AnyObject, Sendable {
    /// Called before a change it subscribed to; sends any `.prior` call.
    /// - Returns: What to run after the change, or `nil` if the subscriber is finished.
    func prepareChange() -> (() -> Void)?
}
