// Playhead: test-only observable classes shaped like AVPlayer and AVPlayerItem.
//
// Concurrency: like the real classes, `@MainActor` types whose `nonisolated` members keep
// their state in a lock; the tests mutate them from the main actor, so change handlers
// run there.
import Foundation
import OpenAVFoundation
import Synchronization

/// Stands in for AVPlayerItem: the child object in chained key paths.
@MainActor
open class FakeItem: NSObject, _KeyValueObservable {
    /// A non-Equatable status, like enums with payloads that clients observe.
    public enum Status: Sendable {
        case unknown
        case readyToPlay
        case failed(reason: String)
    }

    private struct State {
        var status = Status.unknown
        var error: (any Error)?
        var loadedRanges: [CMTimeRange] = []
    }

    /// owned by the lock
    private let state = Locked(State())
    /// Change bookkeeping for observers.
    public nonisolated let _kvoRegistry = _KeyValueObservingRegistry()
    /// A name for debugging failed expectations.
    public nonisolated let name: String

    /// An item with the given debug name.
    public nonisolated init(name: String) {
        self.name = name
        super.init()
    }

    /// Published: where the fake item stands.
    public nonisolated var status: Status {
        _kvoRegistry.access(\FakeItem.status, on: self)
        return state.withLock { $0.status }
    }

    /// Published: why the item failed; not Equatable.
    public nonisolated var error: (any Error)? {
        _kvoRegistry.access(\FakeItem.error, on: self)
        return state.withLock { $0.error }
    }

    /// Published: loaded ranges boxed as `NSValue`, as in AVPlayerItem.
    public nonisolated var loadedTimeRanges: [NSValue] {
        _kvoRegistry.access(\FakeItem.loadedTimeRanges, on: self)
        return state.withLock { $0.loadedRanges }.map { NSValue(timeRange: $0) }
    }

    /// Engine-side update of `status`.
    public nonisolated func engineSetStatus(_ status: Status) {
        _kvoRegistry.withMutation(\FakeItem.status, on: self) {
            state.withLock { $0.status = status }
        }
    }

    /// Engine-side failure: changes `error` and `status` as one step.
    public nonisolated func engineFail(_ error: any Error) {
        _kvoRegistry.withMutation(\FakeItem.error, on: self) {
            _kvoRegistry.withMutation(\FakeItem.status, on: self) {
                state.withLock {
                    $0.error = error
                    $0.status = .failed(reason: "\(error)")
                }
            }
        }
    }

    /// Engine-side update of `loadedTimeRanges`.
    public nonisolated func engineSetLoadedRanges(_ ranges: [CMTimeRange]) {
        _kvoRegistry.withMutation(\FakeItem.loadedTimeRanges, on: self) {
            state.withLock { $0.loadedRanges = ranges }
        }
    }
}

/// Stands in for AVPlayer: `open` published properties, one of them another observable.
@MainActor
open class FakePlayer: NSObject, _KeyValueObservable {
    private struct State {
        var rate: Float = 0
        var volume: Float = 1
        var currentItem: FakeItem?
    }

    /// owned by the lock
    private let state = Locked(State())
    /// Change bookkeeping for observers.
    public nonisolated let _kvoRegistry = _KeyValueObservingRegistry()

    /// A player with no item.
    public nonisolated override init() {
        super.init()
    }

    /// Published and settable, like `AVPlayer.rate`.
    nonisolated open var rate: Float {
        get {
            _kvoRegistry.access(\FakePlayer.rate, on: self)
            return state.withLock { $0.rate }
        }
        set {
            _kvoRegistry.withMutation(\FakePlayer.rate, on: self) {
                state.withLock { $0.rate = newValue }
            }
        }
    }

    /// Published and settable, like `AVPlayer.volume`.
    nonisolated open var volume: Float {
        get {
            _kvoRegistry.access(\FakePlayer.volume, on: self)
            return state.withLock { $0.volume }
        }
        set {
            _kvoRegistry.withMutation(\FakePlayer.volume, on: self) {
                state.withLock { $0.volume = newValue }
            }
        }
    }

    /// Published child object, like `AVPlayer.currentItem`.
    nonisolated open var currentItem: FakeItem? {
        _kvoRegistry.access(\FakePlayer.currentItem, on: self)
        return state.withLock { $0.currentItem }
    }

    /// Like `AVPlayer.replaceCurrentItem(with:)`.
    nonisolated open func replaceCurrentItem(with item: FakeItem?) {
        _kvoRegistry.withMutation(\FakePlayer.currentItem, on: self) {
            state.withLock { $0.currentItem = item }
        }
    }
}

/// A subclass as a client would write it, adding nothing.
final class MyPlayer: FakePlayer {}

/// A subclass as a client would write it, overriding a published property.
final class ClampedPlayer: FakePlayer {
    nonisolated override var rate: Float {
        get { super.rate }
        set { super.rate = min(newValue, 2) }
    }
}

/// An error for non-Equatable values.
struct FakeFailure: Error, CustomStringConvertible {
    let code: Int
    var description: String { "FakeFailure(\(code))" }
}

/// Collects what change handlers receive.
final class ChangeLog<Value> {
    private(set) var changes: [NSKeyValueObservedChange<Value>] = []

    func append(_ change: NSKeyValueObservedChange<Value>) {
        changes.append(change)
    }

    var count: Int { changes.count }
}

/// A thread-safe call counter for `@Sendable` callbacks.
final class CallCounter: Sendable {
    private let value = Locked(0)

    func increment() {
        value.withLock { $0 += 1 }
    }

    var count: Int { value.withLock { $0 } }
}
