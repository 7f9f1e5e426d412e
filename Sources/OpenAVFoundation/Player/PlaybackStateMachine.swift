// Playhead: the player's transport decisions (rate, timeControlStatus, waiting reasons) as a
// pure state machine.
//
// Concurrency: a value type with no shared state. AVPlayer keeps one inside its state lock and
// applies the returned effects on the main queue.

/// What AVPlayer decides from its inputs: whether time should advance, what
/// `timeControlStatus` and `reasonForWaitingToPlay` say, and which notifications to post.
///
/// Every public transport rule of Apple's player lives here (see avfoundation-api.md §B.6,
/// §B.8), so it can be tested without media, threads or FFmpeg.
struct PlaybackStateMachine: Equatable {
    /// The item's readiness as the state machine sees it.
    enum ItemState: Equatable { case none, loading, ready, failed }

    /// What the buffer says about the current item.
    struct Buffer: Equatable {
        /// Nothing left to play from; playback would stall (or end).
        var isEmpty = true
        /// Enough is buffered to keep playing.
        var isLikelyToKeepUp = false
        /// The buffer reached its target; loading is suspended.
        var isFull = false
    }

    /// Something that happened.
    enum Event: Equatable {
        /// `rate` was set (0 pauses). `immediately` is `playImmediately(atRate:)`.
        case setRate(Float, immediately: Bool)
        /// The sound server set the rate: 0 when it asked the sound to pause (a call), the
        /// interrupted rate when it allowed it again. Otherwise as `setRate`.
        case soundServerSetRate(Float)
        /// The current item changed state (or was replaced).
        case item(ItemState)
        /// Buffer flags changed.
        case buffer(Buffer)
        /// Playback reached the item's end (or forwardPlaybackEndTime).
        case reachedEnd
        /// Playing backward reached the item's start (or reversePlaybackEndTime).
        case reachedReverseEnd
        /// A seek moved time; the end is no longer reached. Until `.seekFinished`, an empty
        /// buffer is the seek's doing (reading restarts at the target), not a stall.
        case timeJumped
        /// The pending seek landed: the first frame at the new time is ready.
        case seekFinished
        /// A prerolled item took over, already open: not at its end, no seek in flight.
        case prerolledItemTookOver
        /// `automaticallyWaitsToMinimizeStalling` changed.
        case setAutomaticallyWaits(Bool)
        /// `actionAtItemEnd` changed (a pending end action may apply at once).
        case setActionAtItemEnd(ActionAtEnd)
    }

    /// What to do at the end of an item.
    enum ActionAtEnd: Equatable { case advance, pause, none }

    /// The status the player reports.
    enum TimeControl: Equatable { case paused, waiting, playing }

    /// Why the player is waiting.
    enum WaitReason: Equatable { case toMinimizeStalls, evaluatingBufferingRate, noItemToPlay }

    /// Side effects for the player to carry out, in order.
    enum Effect: Equatable {
        /// Post `AVPlayerItemPlaybackStalled` for the current item.
        case postPlaybackStalled
        /// Post `AVPlayerItemDidPlayToEndTime` for the current item.
        case postDidPlayToEnd
        /// Advance to the next item (queue players).
        case advanceToNextItem
    }

    // MARK: - State

    /// The desired rate: 0 is paused. While waiting, the rate playback will start at.
    private(set) var rate: Float = 0
    private(set) var item: ItemState = .none
    private(set) var buffer = Buffer()
    private(set) var automaticallyWaits = true
    private(set) var actionAtEnd: ActionAtEnd = .pause
    private(set) var timeControl: TimeControl = .paused
    private(set) var waitReason: WaitReason?
    /// True after the end was reached until time jumps back.
    private(set) var atEnd = false
    /// True after playing backward reached the start (or the reverse end) until time jumps.
    private(set) var atReverseEnd = false
    /// True once the player started playing at some rate and has not stalled since, so a
    /// buffer underrun counts as a stall (not as a slow start).
    private var hasBeenPlaying = false
    /// Set by playImmediately until the next pause, overriding the keep-up prediction.
    private var playsImmediately = false
    /// True from a seek's start until it lands (or the item changes).
    private(set) var isSeeking = false

    /// True when media time should advance: the engine clock runs at `rate`.
    var isAdvancing: Bool { timeControl == .playing }

    // MARK: - Transitions

    /// Applies `event` and returns the effects to carry out.
    mutating func handle(_ event: Event) -> [Effect] {
        if case .soundServerSetRate(let newRate) = event { return handle(.setRate(newRate, immediately: false)) }
        var effects: [Effect] = []
        switch event {
        case .setRate(let newRate, let immediately):
            rate = newRate
            // Moving away from an end leaves it behind.
            if newRate < 0 { atEnd = false } else if newRate > 0 { atReverseEnd = false }
            playsImmediately = immediately && newRate != 0
            if newRate == 0 { hasBeenPlaying = false }
            if isAtEndOfDirection && actionAtEnd != .none && item == .ready {
                // Playing from the end (backward: from the start) reaches it again at once
                // (replaying needs a seek).
                effects.append(.postDidPlayToEnd)
                effects += applyEndAction()
            }
        case .item(let state):
            if state != item { hasBeenPlaying = false; atEnd = false; atReverseEnd = false; isSeeking = false }
            item = state
            if state == .none || state == .loading { buffer = Buffer() }
        case .buffer(let newBuffer):
            buffer = newBuffer
        case .reachedEnd:
            guard !atEnd else { break }
            atEnd = true
            effects.append(.postDidPlayToEnd)
            effects += applyEndAction()
        case .reachedReverseEnd:
            guard !atReverseEnd, rate < 0 else { break }
            atReverseEnd = true
            // Apple posts the same notification at either end.
            effects.append(.postDidPlayToEnd)
            effects += applyEndAction()
        case .timeJumped:
            atEnd = false
            atReverseEnd = false
            isSeeking = true
        case .seekFinished:
            isSeeking = false
            // Landed with nothing buffered (a network seek outside the buffer): playback waits
            // for data as at a start, not as after a stall.
            if buffer.isEmpty { hasBeenPlaying = false }
        case .prerolledItemTookOver:
            atEnd = false
            atReverseEnd = false
            isSeeking = false
        case .setAutomaticallyWaits(let waits):
            automaticallyWaits = waits
        case .setActionAtItemEnd(let action):
            actionAtEnd = action
            if isAtEndOfDirection { effects += applyEndAction() }
        case .soundServerSetRate:
            break  // (handled as `setRate` above)
        }
        effects += settle()
        return effects
    }

    /// True when time stands at the end it runs toward: the end playing forward, the start
    /// (or reverse end) playing backward.
    private var isAtEndOfDirection: Bool { rate > 0 ? atEnd : rate < 0 ? atReverseEnd : false }

    private mutating func applyEndAction() -> [Effect] {
        switch actionAtEnd {
        case .pause:
            rate = 0
            hasBeenPlaying = false
            return []
        case .advance:
            return [.advanceToNextItem]
        case .none:
            return []
        }
    }

    /// Recomputes timeControl and waitReason from the inputs.
    private mutating func settle() -> [Effect] {
        var effects: [Effect] = []
        let previous = timeControl
        if rate == 0 {
            timeControl = .paused
            waitReason = nil
            return effects
        }
        switch item {
        case .none:
            timeControl = .waiting
            waitReason = .noItemToPlay
        case .failed:
            rate = 0
            timeControl = .paused
            waitReason = nil
        case .loading:
            timeControl = .waiting
            waitReason = .evaluatingBufferingRate
        case .ready:
            if isAtEndOfDirection {
                // Time may run on past the end only with `.none`; `.advance` hands over to the
                // next item at once (a queue keeps playing through); `.pause` stays put.
                timeControl = actionAtEnd == .pause ? .paused : .playing
                waitReason = nil
            } else if rate < 0 {
                // Backward play needs one picture per keyframe step, not the forward buffer
                // the flags measure (the engine sends none while playing backward).
                timeControl = .playing
                waitReason = nil
            } else if buffer.isEmpty && !(isSeeking && previous == .playing) {
                // Running dry while playing is a stall; emptied by a seek it is not: the data
                // at the target is on its way (a local file's always is), and playing goes on
                // through the seek (the engine restarts time at the landing).
                let stalled = previous == .playing && hasBeenPlaying && !isSeeking
                if stalled && !playsImmediately { effects.append(.postPlaybackStalled) }
                if automaticallyWaits {
                    timeControl = .waiting
                    waitReason = hasBeenPlaying || previous == .waiting ? .toMinimizeStalls
                        : .evaluatingBufferingRate
                } else if stalled {
                    rate = 0
                    hasBeenPlaying = false
                    timeControl = .paused
                    waitReason = nil
                } else {
                    timeControl = .waiting
                    waitReason = .evaluatingBufferingRate
                }
            } else if !automaticallyWaits || playsImmediately || buffer.isLikelyToKeepUp
                || buffer.isFull || previous == .playing
            {
                timeControl = .playing
                waitReason = nil
                hasBeenPlaying = true
            } else {
                timeControl = .waiting
                waitReason = previous == .waiting && waitReason == .toMinimizeStalls
                    ? .toMinimizeStalls : .evaluatingBufferingRate
            }
        }
        return effects
    }
}
