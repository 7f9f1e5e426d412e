// Playhead: loading an asset's properties without blocking, in both of Apple's styles.
import Foundation

/// Where loading one property stands.
public enum AVKeyValueStatus: Int, Sendable {
    /// Loading has not been asked for.
    case unknown = 0
    /// Loading is under way.
    case loading = 1
    /// The value is ready.
    case loaded = 2
    /// Loading failed; the error says why.
    case failed = 3
    /// Loading was cancelled with `cancelLoading()`.
    case cancelled = 4
}

/// Types whose properties load in the background: assets, tracks and metadata items.
///
/// Two styles are supported, as on Apple platforms:
/// ```swift
/// let (duration, tracks) = try await asset.load(.duration, .tracks)
///
/// asset.loadValuesAsynchronously(forKeys: ["duration", "tracks"]) {
///     var error: NSError?
///     if asset.statusOfValue(forKey: "duration", error: &error) == .loaded { ... }
/// }
/// ```
public protocol AVAsynchronousKeyValueLoading {
    /// The loading status of the property named `key`, with the error when it failed.
    ///
    /// Never blocks. `.unknown` until loading of the key was requested.
    func statusOfValue(forKey key: String, error outError: NSErrorPointer) -> AVKeyValueStatus

    /// Starts loading the named properties and calls `handler` once all of them have loaded,
    /// failed or been cancelled. Returns at once; the handler runs on a background queue.
    func loadValuesAsynchronously(forKeys keys: [String], completionHandler handler: (@Sendable () -> Void)?)
}

extension AVAsynchronousKeyValueLoading {
    /// Loads one property and returns its value.
    ///
    /// - Throws: the loading error (an `NSError` saying what is wrong with the media), or
    ///   `CancellationError` when loading was cancelled.
    public func load<T>(
        _ property: AVAsyncProperty<Self, T>, isolation: isolated (any Actor)? = #isolation
    ) async throws -> T {
        try await _loadKeys([property.key])
        return try property.value(of: self)
    }

    /// Loads several properties in one pass and returns their values in order.
    public func load<A, B, each C>(
        _ firstProperty: AVAsyncProperty<Self, A>, _ secondProperty: AVAsyncProperty<Self, B>,
        _ properties: repeat AVAsyncProperty<Self, each C>,
        isolation: isolated (any Actor)? = #isolation
    ) async throws -> (A, B, repeat each C) {
        var keys = [firstProperty.key, secondProperty.key]
        for property in repeat each properties { keys.append(property.key) }
        try await _loadKeys(keys)
        return (
            try firstProperty.value(of: self), try secondProperty.value(of: self),
            repeat try (each properties).value(of: self)
        )
    }

    /// Where loading `property` stands, with its value once loaded.
    public func status<T>(of property: AVAsyncProperty<Self, T>) -> AVAsyncProperty<Self, T>.Status {
        var error: NSError?
        switch statusOfValue(forKey: property.key, error: &error) {
        case .unknown: return .notYetLoaded
        case .loading: return .loading
        case .loaded:
            do { return .loaded(try property.value(of: self)) } catch { return .failed(error as NSError) }
        case .failed: return .failed(error ?? AVError(.unknown).nsError)
        case .cancelled: return .failed(NSError(domain: NSURLErrorDomain, code: NSURLErrorCancelled))
        }
    }

    /// Loads `keys`, then throws the first key's failure, if any.
    private func _loadKeys(_ keys: [String], isolation: isolated (any Actor)? = #isolation)
        async throws
    {
        await withCheckedContinuation(isolation: isolation) { (done: CheckedContinuation<Void, Never>) in
            loadValuesAsynchronously(forKeys: keys) { done.resume() }
        }
        for key in keys {
            var error: NSError?
            switch statusOfValue(forKey: key, error: &error) {
            case .loaded: continue
            case .cancelled: throw CancellationError()
            default: throw error ?? AVError(.unknown, description: "\(key) did not load").nsError
            }
        }
    }
}
