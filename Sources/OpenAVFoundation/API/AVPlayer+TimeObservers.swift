// Playhead: periodic and boundary time observers.
//
// Concurrency: add/remove may be called from any thread (they take the state lock briefly).
// Evaluation runs on the main queue when the engine reports time; blocks run on the queue
// given (the main queue when nil), always asynchronously.
import Dispatch
import Foundation

extension AVPlayer {
    /// Calls `block` every `interval` of item time while playing, and also when time jumps
    /// (seeks) and when playback starts or stops. Returns a token for `removeTimeObserver(_:)`.
    ///
    /// - Parameters:
    ///   - interval: How often, in item time; must be positive.
    ///   - queue: A serial queue for the block; nil means the main queue.
    ///   - block: Receives the item's current time.
    nonisolated public func addPeriodicTimeObserver(
        forInterval interval: CMTime, queue: DispatchQueue?, using block: @escaping @Sendable (CMTime) -> Void
    ) -> Any {
        precondition(interval.isNumeric && interval > .zero, "the interval must be a positive time")
        let observer = TimeObserver(
            kind: .periodic(interval: interval, block: block), queue: queue ?? .main)
        state.withLock { $0.timeObservers.append(observer) }
        return observer
    }

    /// Calls `block` when normal playback crosses one of `times` (`NSValue`s holding CMTimes).
    /// A seek that jumps over a time does not call it.
    nonisolated public func addBoundaryTimeObserver(
        forTimes times: [NSValue], queue: DispatchQueue?, using block: @escaping @Sendable () -> Void
    ) -> Any {
        precondition(!times.isEmpty, "boundary time observers need at least one time")
        let sorted = times.map(\.timeValue).filter(\.isNumeric).sorted()
        let observer = TimeObserver(kind: .boundary(times: sorted, block: block), queue: queue ?? .main)
        state.withLock { $0.timeObservers.append(observer) }
        return observer
    }

    /// Stops a time observer. After this returns no new call of its block starts.
    nonisolated public func removeTimeObserver(_ observer: Any) {
        guard let observer = observer as? TimeObserver else { return }
        state.withLock { state in
            observer.isRemoved = true
            state.timeObservers.removeAll { $0 === observer }
        }
    }

    // MARK: - Evaluation (main queue)

    /// Evaluates the observers for the item time `time`. `continuous` is false for jumps.
    /// A continuous report older than the last time observed, or arriving while playback is
    /// not advancing, is stale (a tick the engine sent before a pause or rate change that
    /// reached the main queue after it; the pause already reported where time stopped) and is
    /// dropped: playback only runs forward.
    nonisolated func timeObserversNoteTime(_ time: CMTime, continuous: Bool) {
        let reading = state.withLock { state -> (observers: [TimeObserver], previous: CMTime)? in
            let previous = state.lastObservedTime
            if continuous, !state.machine.isAdvancing || (time.isNumeric && previous.isNumeric && time < previous) {
                return nil
            }
            state.lastObservedTime = time
            return (state.timeObservers, previous)
        }
        guard let (observers, previous) = reading, time.isNumeric else { return }
        let isContinuous = continuous && previous.isNumeric && previous <= time
        for observer in observers {
            switch observer.kind {
            case .periodic(let interval, let block):
                if !isContinuous || TimeObserverMath.crossesMultiple(of: interval, from: previous, to: time) {
                    fire(observer) { block(time) }
                }
            case .boundary(let times, let block):
                guard isContinuous else { continue }
                if times.contains(where: { $0 > previous && $0 <= time }) {
                    fire(observer) { block() }
                }
            }
        }
    }

    /// Fires periodic observers because playback started or stopped.
    nonisolated func timeObserversNoteRateChange() {
        let now = currentTime()
        let (observers, time) = state.withLock { state in
            // Later ticks continue from here; the first tick after starting is not a jump.
            defer { if now.isNumeric { state.lastObservedTime = now } }
            return (state.timeObservers, state.lastObservedTime)
        }
        for observer in observers {
            guard case .periodic(_, let block) = observer.kind else { continue }
            fire(observer) { block(now.isNumeric ? now : time) }
        }
    }

    private nonisolated func fire(_ observer: TimeObserver, _ body: @escaping @Sendable () -> Void) {
        let player = self
        observer.queue.async {
            let live = player.state.withLock { _ in !observer.isRemoved }
            if live { body() }
        }
    }
}

/// The arithmetic behind periodic observers.
enum TimeObserverMath {
    /// True when (previous, current] contains a multiple of `interval`.
    static func crossesMultiple(of interval: CMTime, from previous: CMTime, to current: CMTime) -> Bool {
        guard interval > .zero, previous.isNumeric, current.isNumeric, current > previous else {
            return false
        }
        let step = interval.seconds
        let before = (previous.seconds / step).rounded(.down)
        let after = (current.seconds / step).rounded(.down)
        return after > before
    }
}
