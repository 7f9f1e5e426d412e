// Playhead: finds out which published properties evaluating a key path reads.
//
// Concurrency: a probe belongs to the thread (or task) that runs it. `record(_:)` binds a
// fresh `DependencyRecorder` in a task-local, which outside any task falls back to a
// thread-local, so getters running on other threads at the same time never see it. The
// recorder is touched only by the probing thread while the probe runs, then read by the
// same thread after it ends. `activeProbes` is a process-wide atomic count that lets getters
// skip the task-local lookup in the common case where nothing is probing.
import Synchronization

/// The canonical (base-class) key path of a published property, as its getter reports it.
struct PublishedKey: Hashable, @unchecked Sendable {
    // @unchecked: a key path is an immutable value once formed.
    let keyPath: AnyKeyPath
}

/// One published property of one object: the registry that publishes it and its key.
struct KeyValueDependency: Hashable, Sendable {
    let registry: _KeyValueObservingRegistry
    let key: PublishedKey

    static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.registry === rhs.registry && lhs.key == rhs.key
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(registry))
        hasher.combine(key)
    }
}

/// Collects the dependencies reported while a probe runs.
final class DependencyRecorder: @unchecked Sendable {
    // @unchecked: only the probing thread touches `dependencies` (see the file header).
    var dependencies: Set<KeyValueDependency> = []
}

/// Runs code while recording the published properties it reads.
enum DependencyProbe {
    /// How many probes are running anywhere in the process.
    private static let activeProbes = Atomic<Int>(0)

    /// The recorder of the probe running on this thread or task, if any.
    @TaskLocal private static var recorder: DependencyRecorder?

    /// Runs `body` and returns its result with every published property it read.
    ///
    /// While the probe runs, getters report to the probe *instead of* the Observation
    /// framework, so the machinery's own reads never leak into an enclosing
    /// `withObservationTracking` on the same thread.
    static func record<T>(_ body: () -> T) -> (value: T, dependencies: Set<KeyValueDependency>) {
        let recorder = DependencyRecorder()
        activeProbes.add(1, ordering: .sequentiallyConsistent)
        defer { activeProbes.subtract(1, ordering: .sequentiallyConsistent) }
        let value = $recorder.withValue(recorder) { body() }
        return (value, recorder.dependencies)
    }

    /// Reports a read of `key` on `registry` to this thread's probe.
    /// - Returns: `true` if a probe took the report, `false` if none is running here.
    static func report(_ registry: _KeyValueObservingRegistry, key: PublishedKey) -> Bool {
        guard activeProbes.load(ordering: .relaxed) > 0, let recorder else { return false }
        recorder.dependencies.insert(KeyValueDependency(registry: registry, key: key))
        return true
    }
}
