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
        scheduleObserverTicks()
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
        scheduleObserverTicks()
        return observer
    }

    /// Stops a time observer. After this returns no new call of its block starts.
    nonisolated public func removeTimeObserver(_ observer: Any) {
        guard let observer = observer as? TimeObserver else { return }
        state.withLock { state in
            observer.isRemoved = true
            state.timeObservers.removeAll { $0 === observer }
        }
        scheduleObserverTicks()
    }

    /// Tells the engine the item time at which an observer next needs a tick: the engine sends
    /// time up only then (and on jumps), not for every frame; with no observer, never.
    nonisolated func scheduleObserverTicks() {
        let (engine, due) = state.withLock { state -> (ItemPlayback?, CMTime) in
            (state.engine, Self.nextObserverTime(state.timeObservers, after: state.lastObservedTime))
        }
        engine?.setNextTick(at: due)
    }

    /// The earliest item time after `time` at which one of `observers` fires during forward
    /// playback: at once when `time` is unknown, never (+∞) without observers.
    nonisolated static func nextObserverTime(_ observers: [TimeObserver], after time: CMTime) -> CMTime {
        guard !observers.isEmpty else { return .positiveInfinity }
        guard time.isNumeric else { return .negativeInfinity }
        var due = CMTime.positiveInfinity
        for observer in observers {
            let next: CMTime?
            switch observer.kind {
            case .periodic(let interval, _):
                next = TimeObserverCrossings.nextMultiple(of: interval, after: time) ?? .negativeInfinity
            case .boundary(let times, _):
                next = TimeObserverCrossings.nextBoundary(times, after: time)
            }
            if let next, next < due { due = next }
        }
        return due
    }

    // MARK: - Evaluation (main queue)

    /// Evaluates the observers for the item time `time`. `continuous` is false for jumps.
    /// A continuous report older than the last time observed, or arriving while playback is
    /// not advancing, is stale (a tick the engine sent before a pause or rate change that
    /// reached the main queue after it; the pause already reported where time stopped) and is
    /// dropped: playback only runs forward.
    nonisolated func timeObserversNoteTime(_ time: CMTime, continuous: Bool) {
        let reading = state.withLock { state -> (observers: [TimeObserver], previous: CMTime, backward: Bool)? in
            let previous = state.lastObservedTime
            let backward = state.machine.rate < 0
            // Continuous time moves the way the rate points; a reading against it is stale.
            let against = time.isNumeric && previous.isNumeric && (backward ? time > previous : time < previous)
            if continuous, !state.machine.isAdvancing || against {
                return nil
            }
            state.lastObservedTime = time
            return (state.timeObservers, previous, backward)
        }
        guard let (observers, previous, backward) = reading, time.isNumeric else { return }
        defer { scheduleObserverTicks() }
        let isContinuous = continuous && previous.isNumeric && (backward ? previous >= time : previous <= time)
        for observer in observers {
            switch observer.kind {
            case .periodic(let interval, let block):
                // Exact rational arithmetic (a 1/30 s interval never fires early, late or twice at
                // a multiple), forward or backward.
                if !isContinuous
                    || TimeObserverCrossings.periodicShouldFire(interval: interval, previous: previous, current: time)
                {
                    fire(observer) { block(time) }
                }
            case .boundary(let times, let block):
                let crossed = TimeObserverCrossings.boundaryCrossings(
                    times, previous: previous, current: time, isContinuous: isContinuous)
                if !crossed.isEmpty {
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
        scheduleObserverTicks()
    }

    private nonisolated func fire(_ observer: TimeObserver, _ body: @escaping @Sendable () -> Void) {
        let player = self
        observer.queue.async {
            let live = player.state.withLock { _ in !observer.isRemoved }
            if live { body() }
        }
    }
}
