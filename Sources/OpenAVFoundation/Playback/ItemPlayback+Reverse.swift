// Playhead: reverse playback on the presentation thread: the clock runs backward and the
// picture steps from keyframe to keyframe (I-frame stepping), each step a keyframe seek of the
// engine's own.
//
// Concurrency: runs on the presentation thread only; `ReverseProgress` is that thread's local
// value. Steps and the reverse end are decided by the coordinator (`reverseStepDue`,
// `reverseEndDue`); this side only notices when they fall due.
import FFmpegBridge
import Foundation

/// What the presentation thread remembers while playing backward.
struct ReverseProgress {
    /// The time the last step asked for the keyframe at or before.
    var askedFor: CMTime?
    /// A picture no step can go below (a step landed on it above the time it asked for:
    /// nothing earlier can be decoded); time runs on down to the reverse end without steps.
    var floor: CMTime?

    /// Notes that the picture at `shown` came from a step asked for at `askedFor`.
    mutating func noteShown(_ shown: CMTime) {
        if let asked = askedFor, shown > asked { floor = shown }
        askedFor = nil
    }
}

extension ItemPlayback {
    /// One turn of the presentation thread while playing backward with the picture at
    /// `shown` up: asks for the next keyframe once time goes below it, reaches the reverse
    /// end, reports time to observers, and sleeps until the next of these is due.
    func reverseTurn(
        _ state: EngineState, now: Double, shown: CMTime, _ progress: inout ReverseProgress,
        lastTick: inout Double
    ) {
        let wakeAtCommand = { self.sleep(until: .infinity, on: self.presenterWake) }
        // At the end time stands: a rate change, a seek or stop wakes the thread.
        guard !state.reverseEndReported else { return wakeAtCommand() }
        let current = state.time(atHost: now)
        guard current.isNumeric, state.rate < 0 else { return wakeAtCommand() }
        let end = state.reverseEnd
        if current <= end {
            post(.reverseEndDue(host: now))
            return
        }
        tickWhileStepping(state, current, now: now, lastTick: &lastTick)
        let canStep = progress.floor.map { shown > $0 } ?? true
        if canStep, shown.isNumeric, current < shown {
            progress.askedFor = current
            post(.reverseStepDue(to: current))
            return
        }
        // Sleep until time goes below the picture (or reaches the end), at most a tick.
        let next = canStep && shown.isNumeric ? max(shown, end) : end
        let wait = (current - next).seconds / -state.rate
        sleep(until: now + min(max(wait, 0.001), Self.idleRecheckInterval), on: presenterWake)
    }

    /// Reports `current` to time observers while stepping through keyframes, at most once a
    /// tick.
    func tickWhileStepping(_ state: EngineState, _ current: CMTime, now: Double, lastTick: inout Double) {
        guard now - lastTick >= Self.tickInterval else { return }
        if post(.timeDue(state.clamped(current), generation: state.generation)) == .reported(true) {
            lastTick = now
        }
    }
}
