// Playhead: runs one media inspection per asset in the background and remembers the result.
//
// Concurrency: shared between an asset and every caller loading it. All mutable state is in
// `state: Locked<State>`. The FFmpeg work runs at most once, on a global background queue;
// waiters are called on that queue after the lock is released. Only `waitForResult()`
// blocks its caller (the deprecated synchronous getters use it). `cancel()` may be called
// from any thread and unblocks FFmpeg through the interrupt switch.
import Dispatch
import FFmpegBridge
import Foundation

final class AssetInspection: Sendable {
    enum Phase {
        case idle
        case running
        case finished(Result<MediaDescription, MediaFailure>)
    }

    struct State {
        var phase: Phase = .idle
        var cancelled = false
        var requestedKeys: Set<String> = []
        var waiters: [@Sendable () -> Void] = []
    }

    let location: Result<MediaLocation, MediaFailure>
    let limits: MediaInspector.Limits
    private let interrupt = InterruptDeadline()
    private let state = Locked(State())

    init(url: URL, limits: MediaInspector.Limits, network: NetworkOptions = NetworkOptions()) {
        do throws(MediaFailure) {
            location = .success(try MediaLocation(url: url, network: network))
        } catch {
            location = .failure(error)
        }
        self.limits = limits
    }

    /// An inspection of a location Playhead made itself (the built-in demo), not of a URL.
    init(location: MediaLocation, limits: MediaInspector.Limits) {
        self.location = .success(location)
        self.limits = limits
    }

    /// Marks `keys` as requested and calls `completion` once the inspection is over
    /// (at once, on a background queue, when it already is).
    func load(keys: [String], completion: (@Sendable () -> Void)?) {
        let action: StartAction = state.withLock { state in
            state.requestedKeys.formUnion(keys)
            switch state.phase {
            case .finished:
                return .notifyNow
            case .running:
                if let completion { state.waiters.append(completion) }
                return .nothing
            case .idle:
                if let completion { state.waiters.append(completion) }
                state.phase = .running
                return .start
            }
        }
        switch action {
        case .notifyNow:
            if let completion { DispatchQueue.global(qos: .userInitiated).async(execute: completion) }
        case .start:
            DispatchQueue.global(qos: .userInitiated).async { self.run() }
        case .nothing:
            break
        }
    }

    private enum StartAction { case start, notifyNow, nothing }

    private func run() {
        let result: Result<MediaDescription, MediaFailure>
        switch location {
        case .failure(let failure):
            result = .failure(failure)
        case .success(let location):
            do throws(MediaFailure) {
                result = .success(
                    try MediaInspector.describe(location, limits: limits, interrupt: interrupt))
            } catch {
                result = .failure(error)
            }
        }
        let waiters = state.withLock { state in
            state.phase = .finished(state.cancelled ? .failure(.cancelled) : result)
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter() }
    }

    /// Adopts a description made elsewhere (the playback engine opened the same media) when no
    /// inspection has started, so the asset's keys load without opening the media twice.
    func offer(_ description: MediaDescription) {
        state.withLock { state in
            if case .idle = state.phase, !state.cancelled { state.phase = .finished(.success(description)) }
        }
    }

    /// True when loading of `key` has been requested.
    func wasRequested(_ key: String) -> Bool {
        state.withLock { $0.requestedKeys.contains(key) }
    }

    /// The result when the inspection is over; nil while it is idle or running.
    var result: Result<MediaDescription, MediaFailure>? {
        state.withLock { state in
            if case .finished(let result) = state.phase { return result }
            return nil
        }
    }

    /// Starts the inspection if needed and blocks until it is over.
    func waitForResult(key: String) -> Result<MediaDescription, MediaFailure> {
        if let result { state.withLock { _ = $0.requestedKeys.insert(key) }; return result }
        let done = DispatchSemaphore(value: 0)
        load(keys: [key]) { done.signal() }
        done.wait()
        return result ?? .failure(.cancelled)
    }

    /// Stops a running inspection; pending and later loads report cancellation.
    func cancel() {
        let finished: [@Sendable () -> Void]? = state.withLock { state in
            state.cancelled = true
            if case .idle = state.phase {
                state.phase = .finished(.failure(.cancelled))
                defer { state.waiters = [] }
                return state.waiters
            }
            return nil
        }
        interrupt.abort()
        finished?.forEach { $0() }
    }
}
