// Playhead: the live part of one `observe(_:options:changeHandler:)` call.
//
// Concurrency: thread-safe. Everything mutable is in `state`, protected by its mutex, which
// is held only to read or edit that state and to add or remove this subscription in the
// registries it depends on (this lock, then a registry's lock; never the reverse). Key
// paths are evaluated and the change handler is called with no lock held, on the thread
// that changes the property (the main queue for OpenAVFoundation's classes), so handlers
// may invalidate, observe and mutate re-entrantly.

/// Watches one key path of one object and calls a handler when anything it reads changes.
///
/// The object is held weakly; the handler is released on `invalidate()`. Dependencies are
/// found by evaluating the key path under a `DependencyProbe`, and found again after every
/// change, so a chain such as `\.currentItem?.status` follows a replaced child.
final class KeyPathSubscription<Root: _KeyValueObservable, Value>: KeyValueSubscriber,
    @unchecked Sendable
{
    // @unchecked: `keyPath` and `options` are immutable; all else is inside `state`. The
    // handler is not Sendable: it runs on whichever thread mutates, which the observable
    // classes keep on the main queue (see the file header).
    typealias Handler = (Root, NSKeyValueObservedChange<Value>) -> Void

    private struct State: @unchecked Sendable {
        // @unchecked: only ever touched inside `state`'s lock; the handler is called outside
        // it, on the mutating thread (see the file header).
        weak var root: Root?
        var handler: Handler?
        var dependencies: Set<KeyValueDependency> = []
    }

    private let keyPath: KeyPath<Root, Value>
    private let options: NSKeyValueObservingOptions
    /// protected by its mutex
    private let state: Locked<State>

    init(
        root: Root, keyPath: KeyPath<Root, Value>, options: NSKeyValueObservingOptions,
        handler: @escaping Handler
    ) {
        self.keyPath = keyPath
        self.options = options
        state = Locked(State(root: root, handler: handler))
    }

    /// Subscribes to what the key path reads, then sends the `.initial` call if asked.
    func start() {
        guard let root = state.withLock({ $0.root }) else { return }
        let probe = DependencyProbe.record { root[keyPath: keyPath] }
        resubscribe(to: probe.dependencies)
        if options.contains(.initial) {
            let newValue = options.contains(.new) ? probe.value : nil
            deliver(
                to: root,
                NSKeyValueObservedChange(
                    kind: .setting, newValue: newValue, oldValue: nil, isPrior: false))
        }
    }

    /// Stops delivery and releases the handler; safe to call more than once, from any thread.
    func invalidate() {
        let released: Handler? = state.withLock { state in
            for dependency in state.dependencies {
                dependency.registry.remove(self, for: dependency.key)
            }
            state.dependencies = []
            state.root = nil
            defer { state.handler = nil }
            return state.handler
        }
        _ = released  // the handler (and whatever it captured) is released here, unlocked
    }

    // MARK: - KeyValueSubscriber

    func prepareChange() -> (() -> Void)? {
        guard let root = state.withLock({ $0.handler == nil ? nil : $0.root }) else { return nil }
        var oldValue: Value?
        if options.contains(.old) {
            oldValue = DependencyProbe.record { root[keyPath: keyPath] }.value
        }
        if options.contains(.prior) {
            deliver(
                to: root,
                NSKeyValueObservedChange(
                    kind: .setting, newValue: nil, oldValue: oldValue, isPrior: true))
        }
        return { [self] in finishChange(oldValue: oldValue) }
    }

    // MARK: - Private

    private func finishChange(oldValue: Value?) {
        guard let root = state.withLock({ $0.handler == nil ? nil : $0.root }) else { return }
        let probe = DependencyProbe.record { root[keyPath: keyPath] }
        resubscribe(to: probe.dependencies)
        let newValue = options.contains(.new) ? probe.value : nil
        deliver(
            to: root,
            NSKeyValueObservedChange(
                kind: .setting, newValue: newValue, oldValue: oldValue, isPrior: false))
    }

    /// Calls the handler unless the subscription was invalidated in the meantime.
    private func deliver(to root: Root, _ change: NSKeyValueObservedChange<Value>) {
        guard let handler = state.withLock({ $0.handler }) else { return }
        handler(root, change)
    }

    /// Moves the subscription to exactly `dependencies` (no-op once invalidated).
    private func resubscribe(to dependencies: Set<KeyValueDependency>) {
        state.withLock { state in
            guard state.handler != nil, state.dependencies != dependencies else { return }
            for gone in state.dependencies.subtracting(dependencies) {
                gone.registry.remove(self, for: gone.key)
            }
            for added in dependencies.subtracting(state.dependencies) {
                added.registry.add(self, for: added.key)
            }
            state.dependencies = dependencies
        }
    }
}
