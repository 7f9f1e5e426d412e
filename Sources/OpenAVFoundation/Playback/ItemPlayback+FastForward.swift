// Playhead: fast forward through keyframes on the presentation thread, as AVPlayer plays HLS
// fast from its I-frame playlists: above `EngineState.forwardStepsAbove` (2x on a stream that
// fetches keyframes alone, 4x on a local file that indexes them), time runs on the system
// clock with no sound, and each
// step is a keyframe seek of the engine's own to the first keyframe after the picture up (or
// after time, when time has passed it), shown when time reaches it (the next step is asked
// for as soon as it shows). A source whose I-frame playlist turns out unusable stops the
// steps (`keyframesUnavailable`): every frame plays, with sound.
//
// Concurrency: runs on the presentation thread only; `ForwardStepProgress` is that thread's
// local value. Steps and the end are decided by the coordinator (`forwardStepDue`, `endDue`);
// this side only notices when they fall due.
import FFmpegBridge
import Foundation

/// What the presentation thread remembers while fast forward steps through keyframes.
struct ForwardStepProgress {
    /// The picture a step was asked for from (nil: no step of this kind in flight).
    var askedFrom: CMTime?
    /// True once a step came to no later picture (the last keyframe is up): time runs on to
    /// the end without steps.
    var atLastKeyframe = false

    /// True when a forward step's picture at `time` is no later than the one it stepped from
    /// (no keyframe follows: the loader or the demuxer gave the last again); it is not shown
    /// twice.
    func repeatsPicture(at time: CMTime) -> Bool {
        askedFrom.map { time <= $0 } ?? false
    }

    /// Notes that the picture at `shown` came up, from a forward step (`isStep`) or not.
    mutating func noteShown(_ shown: CMTime, isStep: Bool) {
        if isStep, let asked = askedFrom {
            atLastKeyframe = shown <= asked
        } else if !isStep {
            atLastKeyframe = false
        }
        askedFrom = nil
    }
}

extension ItemPlayback {
    /// While fast forward steps through keyframes and no picture waits: ends the item once
    /// time reaches its end (a step in flight or one that brought nothing never ends it
    /// earlier). True when the state is stepping forward (the caller's end rules do not apply).
    func forwardStepEndCheck(_ state: EngineState, now: Double) -> Bool {
        guard state.stepsForward else { return false }
        let current = state.time(atHost: now)
        if !state.endReported, state.endTime.isNumeric, current.isNumeric, current >= state.endTime {
            post(.endDue(generation: state.generation, host: now))
        }
        return true
    }

    /// One turn of the presentation thread while fast forward steps through keyframes with the
    /// picture at `shown` up (its step landed): reaches the end, reports time to observers,
    /// and asks for the next keyframe at once.
    func forwardStepTurn(
        _ state: EngineState, now: Double, shown: CMTime, _ progress: inout ForwardStepProgress,
        lastTick: inout Double
    ) {
        let wakeAtCommand = { self.sleep(until: .infinity, on: self.presenterWake) }
        guard !state.endReported else { return wakeAtCommand() }
        let current = state.time(atHost: now)
        guard current.isNumeric, state.stepsForward else { return wakeAtCommand() }
        let end = state.endTime
        if end.isNumeric, current >= end {
            if post(.endDue(generation: state.generation, host: now)) == .ended(true) { return }
            return sleep(until: now + 0.005, on: presenterWake)
        }
        tickWhileStepping(state, current, now: now, lastTick: &lastTick)
        if !progress.atLastKeyframe, shown.isNumeric {
            progress.askedFrom = shown
            post(.forwardStepDue(after: max(current, shown)))
            return
        }
        // The last keyframe is up: sleep until the end, at most a tick.
        let wait = end.isNumeric ? (end - current).seconds / state.rate : .infinity
        sleep(until: now + min(max(wait, 0.001), Self.idleRecheckInterval), on: presenterWake)
    }

    /// While a fast forward step's keyframe waits to be shown: the host time to sleep until
    /// before showing `frame` (nil: show it now). Time observers hear the time meanwhile, and
    /// the end comes if time reaches it first (the keyframe then is never shown).
    func forwardStepWait(
        for frame: VideoFrame, _ state: EngineState, now: Double, lastTick: inout Double
    ) -> Double? {
        guard let pending = state.seek, pending.generation == state.generation, pending.isForwardStep,
            frame.pts.isNumeric
        else { return nil }
        // The end came first: the keyframe is never shown (a command wakes the thread).
        if state.endReported { return .infinity }
        guard state.stepsForward, !pending.landed else { return nil }
        let current = state.time(atHost: now)
        guard current.isNumeric, frame.pts > current else { return nil }
        let end = state.endTime
        if end.isNumeric, current >= end {
            if post(.endDue(generation: state.generation, host: now)) == .ended(true) { return now }
            return now + 0.005
        }
        tickWhileStepping(state, current, now: now, lastTick: &lastTick)
        let due = end.isNumeric ? min(frame.pts, end) : frame.pts
        let wait = (due - current).seconds / state.rate
        return now + min(max(wait, 0.001), Self.idleRecheckInterval)
    }
}
