// Playhead: runs one media inspection per asset in the background and remembers the result.
//
// Concurrency: shared between an asset and every caller loading it. All mutable state is in
// `state: Locked<State>`. The FFmpeg work runs at most once, on a global background queue
// (a network input's on a thread of its own); waiters are called there after the lock is
// released. Only `waitForResult()` and
// `takeOpenedMedia()` block their caller. `cancel()` may be called from any thread and
// unblocks FFmpeg through the interrupt switch. The demuxer the inspection opened is held
// (touched by no thread) until a playback engine takes it or `handOverSeconds` pass with no
// sign of interest (an item made for the asset restarts the wait); the engine that takes it
// owns it from then on.
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
        /// The media the inspection opened, kept for the first playback engine to take.
        var opened: OpenedMedia?
        /// True once an engine took the opened media (a later `cancel()` leaves it alone).
        var handedOver = false
        /// Monotonic seconds before which the opened media is kept: `handOverSeconds` after
        /// the open, or after the app last showed it will play the asset (`noteInterest`).
        var keepUntil = 0.0
    }

    /// An open demuxer handed from the inspection to a playback engine, with the interrupt
    /// switch its I/O polls (the engine aborts and kicks it from then on).
    struct OpenedMedia: @unchecked Sendable {
        let demuxer: Demuxer
        let interrupt: InterruptDeadline
        /// The dates of an HLS timeline, from its media playlist.
        var programDates: ProgramDateMap? = nil
    }

    /// How long the opened media waits for a playback engine before it is closed.
    static let handOverSeconds = 5.0
    /// How long it waits once an engine started and is on its way to take it (its open work
    /// may wait for a busy machine's threads): long, but bounded should the engine never come.
    static let engineOnItsWaySeconds = 60.0

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
            // A network open blocks for as long as its time-out: on a thread of its own, as the
            // engine's open, so it never holds one of Dispatch's few shared workers (which
            // URLSession's callbacks need) while it waits.
            if case .success(let location) = location, location.isNetwork {
                NamedThread.start("inspect") { self.run() }
            } else {
                DispatchQueue.global(qos: .userInitiated).async { self.run() }
            }
        case .nothing:
            break
        }
    }

    private enum StartAction { case start, notifyNow, nothing }

    private func run() {
        var result: Result<MediaDescription, MediaFailure>
        var opened: OpenedMedia?
        switch location {
        case .failure(let failure):
            result = .failure(failure)
        case .success(let location):
            do throws(MediaFailure) {
                // Opened as the engine opens it (stream limits apart, which the engine checks
                // itself), so a player of this asset can take the open over.
                let open = try StreamedOpen.demuxer(
                    for: location, timeout: limits.timeout, interrupt: interrupt,
                    limits: .inspection(maximumStreams: limits.maximumStreams))
                opened = OpenedMedia(demuxer: open.demuxer, interrupt: interrupt, programDates: open.programDates)
                result = .success(open.demuxer.description)
            } catch {
                result = .failure(Self.asInspectionFailure(error, limit: limits.maximumStreams))
            }
        }
        let waiters = state.withLock { state in
            state.phase = .finished(state.cancelled ? .failure(.cancelled) : result)
            if !state.cancelled { state.opened = opened }
            state.keepUntil = ThreadCondition.monotonicNow() + Self.handOverSeconds
            defer { state.waiters = [] }
            return state.waiters
        }
        if opened != nil { scheduleRelease(after: Self.handOverSeconds) }
        for waiter in waiters { waiter() }
    }

    /// The stream-count refusal in the words asset loading has always used.
    private static func asInspectionFailure(_ failure: MediaFailure, limit: Int) -> MediaFailure {
        guard case .limitExceeded(let reason) = failure, reason.hasPrefix("too many streams") else {
            return failure
        }
        let count = reason.dropFirst("too many streams (".count).prefix { $0.isNumber }
        return .damaged(detail: "\(count) streams is more than Playhead accepts")
    }

    /// Takes the media the inspection opened, for a playback engine: waits while the
    /// inspection runs, then returns its open demuxer once (nil when there is none: not
    /// inspected, failed, already taken or let go). Blocks; never call on the main queue.
    func takeOpenedMedia() -> OpenedMedia? {
        let running = state.withLock { state -> Bool in
            if case .running = state.phase { return true }
            return false
        }
        if running {
            let done = DispatchSemaphore(value: 0)
            load(keys: []) { done.signal() }
            done.wait()
        }
        return state.withLock { state in
            guard let opened = state.opened else { return nil }
            state.opened = nil
            state.handedOver = true
            return opened
        }
    }

    /// True while opened media waits for an engine to take it.
    var holdsOpenedMedia: Bool { state.withLock { $0.opened != nil } }

    /// The app showed it will play the asset (an item was made for it, or an engine started
    /// for it): opened media waiting for an engine is kept at least `seconds` from now.
    func noteInterest(seconds: Double = handOverSeconds) {
        state.withLock { state in
            guard state.opened != nil else { return }
            state.keepUntil = max(state.keepUntil, ThreadCondition.monotonicNow() + seconds)
        }
    }

    private func scheduleRelease(after seconds: Double) {
        DispatchQueue.global().asyncAfter(deadline: .now() + max(seconds, 0.01)) { [weak self] in
            self?.releaseOpenedMedia()
        }
    }

    /// Closes the opened media if no engine took it and nobody showed interest meanwhile.
    private func releaseOpenedMedia() {
        let now = ThreadCondition.monotonicNow()
        let (opened, wait) = state.withLock { state -> (OpenedMedia?, Double?) in
            if state.opened != nil, state.keepUntil > now { return (nil, state.keepUntil - now) }
            defer { state.opened = nil }
            return (state.opened, nil)
        }
        if let wait { return scheduleRelease(after: wait) }
        _ = opened  // the demuxer closes as the last reference goes, off the lock
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

    /// True once an inspection has started (or a description was adopted): a description
    /// offered from now on is not taken.
    var hasStarted: Bool {
        state.withLock { state in
            if case .idle = state.phase { return false }
            return true
        }
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
        let (finished, handedOver, opened) = state.withLock { state in
            state.cancelled = true
            let opened = state.opened
            state.opened = nil
            if case .idle = state.phase {
                state.phase = .finished(.failure(.cancelled))
                defer { state.waiters = [] }
                return (Optional(state.waiters), state.handedOver, opened)
            }
            return (nil, state.handedOver, opened)
        }
        // Media a player took over is the player's now: its reads are not the asset's to stop.
        if !handedOver { interrupt.abort() }
        _ = opened
        finished?.forEach { $0() }
    }
}
