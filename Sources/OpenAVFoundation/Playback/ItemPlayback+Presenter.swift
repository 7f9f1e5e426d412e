// Playhead: the presentation thread: shows video frames on the master clock, completes seeks,
// reports time and detects the end.
//
// Concurrency: runs on its own thread; the only consumer of `videoFrames` and the only caller of
// the video sinks. Reads a copy of the coordinator's state each time round and posts what it
// showed; the coordinator decides landings, time reports and the end.
import FFmpegBridge
import Foundation

extension ItemPlayback {
    /// Frames later than this behind the clock are dropped when a newer frame is also due.
    static let lateFrameTolerance = 0.1
    /// The shortest gap between two time reports that no frame forces.
    static let tickInterval = 0.02
    /// The longest sleep while playing without a frame to show (audio only, or decoding
    /// behind): the buffer flags and the forward end are rechecked this often. Time observers
    /// and the end of the audio wake the thread at their own times.
    static let idleRecheckInterval = 0.05

    func runPresenter(_ pipeline: Pipeline) {
        var shownGeneration = -1
        var lastTickHost = -Double.infinity
        var lastPresentHost = -Double.infinity
        // The item time of the picture up, and what reverse play remembers.
        var shownTime = CMTime.invalid
        var reverse = ReverseProgress()
        var forward = ForwardStepProgress()
        var lead = DisplayLead()
        let clock = environment.hostClock
        while !isStopped {
            refreshBuffer()
            let now = clock.now
            var state = coordinator.state
            if let start = state.scheduledStart, now >= start {
                post(.scheduledStartReached(host: now))
                state = coordinator.state
            }
            if state.isHeld {
                // Prerolled for a queue: frames wait in the queue until the item becomes current
                // (`setHeld(false)` wakes this thread).
                nap(until: .infinity, state)
                continue
            }
            let (generation, rate) = (state.generation, state.rate)
            if rate < 0, pipeline.videoStream != nil, shownGeneration == generation, state.hasLanded(generation) {
                reverseTurn(state, now: now, shown: shownTime, &reverse, lastTick: &lastTickHost)
                continue
            }
            if state.stepsForward, pipeline.videoStream != nil, shownGeneration == generation, state.hasLanded(generation) {
                forwardStepTurn(state, now: now, shown: shownTime, &forward, lastTick: &lastTickHost)
                continue
            }
            if pipeline.videoStream != nil, let item = pipeline.videoFrames.peek(), item.generation == generation {
                let frame = item.element
                if shownGeneration != generation {
                    // The first frame after opening or seeking shows at once, even when paused;
                    // fast forward's step shows its keyframe when time reaches it.
                    if let wake = forwardStepWait(for: frame, state, now: now, lastTick: &lastTickHost) {
                        nap(until: wake, state)
                        continue
                    }
                    let isForwardStep = state.seek.map { $0.generation == generation && $0.isForwardStep } ?? false
                    _ = pipeline.videoFrames.tryTake()
                    shownGeneration = generation
                    let time = state.landing(of: generation) ?? (frame.pts.isNumeric ? frame.pts : .zero)
                    // Time restarts when this frame is handed over, not when the loop began:
                    // the frame may have arrived long after `now` was read (a slow thread, a
                    // seek that landed meanwhile), and an older anchor would run time ahead.
                    // The clock is read before the sinks see the frame: whoever reacts to the
                    // picture (a test moving a manual clock) finds time already restarted.
                    let shownAt = clock.now
                    if !(isForwardStep && forward.repeatsPicture(at: time)) { present(frame, at: time, pipeline) }
                    shownTime = time
                    reverse.noteShown(time)
                    forward.noteShown(time, isStep: isForwardStep)
                    lastPresentHost = shownAt
                    post(.firstFrameShown(generation: generation, time: time, host: shownAt))
                    continue
                }
                guard rate > 0 else {
                    nap(until: now + pausedRecheck(pipeline), state)
                    continue
                }
                if state.forwardEndTime.isNumeric, frame.pts.isNumeric, frame.pts >= state.forwardEndTime {
                    // A frame at or past forwardPlaybackEndTime is never shown: the end is
                    // reached when it falls due (a looper's next pass starts there).
                    let current = environment.untimed ? frame.pts : state.time(atHost: now)
                    if current >= frame.pts { post(.playedTo(frame.pts, host: clock.now)) }
                    nap(until: now + 0.005, state)
                    continue
                }
                if environment.untimed {
                    _ = pipeline.videoFrames.tryTake()
                    present(frame, at: frame.pts, pipeline)
                    post(.untimedFrameShown(pts: frame.pts, host: now))
                    tick(frame.pts, generation: generation, host: now, last: &lastTickHost, force: false)
                    continue
                }
                // A sink that takes a while to put a picture on screen (a window) gets it that
                // much early, so it is seen at its time, with its sound.
                let current = state.time(atHost: now)
                // (The audio clock reads no further than the audio rendered: the lead is added
                // to the time now rather than asked of the clock.)
                lead.follow(displayLead())
                let early = lead.seconds * rate
                let due = current.isNumeric && early > 0 ? current + CMTime(seconds: early, preferredTimescale: 1_000_000) : current
                if !frame.pts.isNumeric || frame.pts <= due {
                    _ = pipeline.videoFrames.tryTake()
                    if let next = pipeline.videoFrames.peek(), next.generation == generation,
                        next.element.pts.isNumeric, next.element.pts <= due,
                        now - lastPresentHost < Self.lateFrameTolerance
                    {
                        post(.frameDropped)
                        continue
                    }
                    let time = frame.pts.isNumeric ? frame.pts : due
                    present(frame, at: time, pipeline, measuresSync: true)
                    lead.notePresented()
                    shownTime = time
                    lastPresentHost = now
                    tick(current, generation: generation, host: now, last: &lastTickHost, force: true)
                    post(.playedTo(current, host: clock.now))
                } else {
                    let wait = (frame.pts - due).seconds / rate
                    nap(until: now + min(max(wait, 0.001), 0.05), state)
                }
                continue
            }
            // No frame to show now: audio-only, decoding behind, or the end.
            let videoEnded = pipeline.videoStream != nil && pipeline.videoFrames.statistics.endOfStreamReached
            post(.noFrameWaiting(generation: generation, host: clock.now, videoEnded: videoEnded))
            if forwardStepEndCheck(coordinator.state, now: clock.now) {
                // (Fast forward's step in flight or empty: the end comes with time.)
                let current = coordinator.state.time(atHost: clock.now)
                tick(current, generation: generation, host: now, last: &lastTickHost, force: false)
                nap(until: now + Self.idleRecheckInterval / 5, state)
                continue
            }
            if rate > 0 && checkEnd(generation: generation, pipeline) { continue }
            if rate > 0 {
                let current = currentTime()
                tick(current, generation: generation, host: now, last: &lastTickHost, force: false)
                post(.playedTo(current, host: clock.now))
            }
            let wake = rate > 0
                ? min(Self.idleRecheckInterval, untilAudioDrains(generation: generation, pipeline),
                    untilObserversNeedTime(rate: rate))
                : pausedRecheck(pipeline)
            nap(until: now + wake, state)
        }
    }

    /// How early frames are handed to the sinks: their display delay, at most
    /// `maximumDisplayLead` (a stalled window must not make frames run far ahead).
    private func displayLead() -> Double {
        min(max(environment.videoSinks.displayDelay, 0), Self.maximumDisplayLead)
    }

    /// The most a sink's display delay moves frames earlier.
    static let maximumDisplayLead = 0.05

    /// Sleeps the presentation thread until `deadline`, or until a scheduled start's host time
    /// when that comes first (time starts to run then, and the audio output with it).
    private func nap(until deadline: Double, _ state: EngineState) {
        sleep(until: min(deadline, state.scheduledStart ?? .infinity), on: presenterWake)
    }

    /// How long the presentation thread sleeps while paused: until a command wakes it for a
    /// file (nothing changes on its own), a slow recheck of the buffer for network media (the
    /// demux thread's rate-limited reports may leave the last read unreported).
    private func pausedRecheck(_ pipeline: Pipeline) -> Double {
        asset.sourceURL.isFileURL ? .infinity : 1
    }

    /// Hands `frame` to the video sinks. With `measuresSync` (frames shown on the clock), also
    /// records how far its time is from the audio heard as it is seen (handed over, plus the
    /// sinks' display delay), when the audio clock is trusted.
    private func present(
        _ frame: VideoFrame, at time: CMTime, _ pipeline: Pipeline, measuresSync: Bool = false
    ) {
        let host = measuresSync && frame.pts.isNumeric ? environment.hostClock.now + displayLead() : nil
        environment.videoSinks.present(frame, itemTime: time)
        post(.frameShown(time: time, pts: frame.pts, measuredAt: host))
    }

    /// Reports the item time once a time observer needs it (not while a seek is in flight: the
    /// time is the target then, and crossing toward it is a jump, not playback).
    private func tick(_ time: CMTime, generation: Int, host: Double, last: inout Double, force: Bool) {
        guard time.isNumeric, force || host - last >= Self.tickInterval else { return }
        if post(.timeDue(time, generation: generation)) == .reported(true) { last = host }
    }

    /// Reports the end once both streams are exhausted (and, showing keyframes only without
    /// sound, once time reached the end); true when it did.
    private func checkEnd(generation: Int, _ pipeline: Pipeline) -> Bool {
        let (videoEOS, audioEOS, playsSound, keyframesOnly, current, end) = coordinator.read {
            ($0.eosGeneration, $0.audioEOSGeneration, $0.playsSound, $0.decodesKeyframesOnly,
                $0.time(atHost: environment.hostClock.now), $0.endTime)
        }
        // (Showing keyframes only without sound, the last picture is no sign of the end: time
        // is. With sound, the sound's end is; its clock stops where the sound does.)
        let silent = pipeline.audioStream == nil || !playsSound
        let videoDone = pipeline.videoStream == nil
            || (videoEOS == generation && pipeline.videoFrames.statistics.endOfStreamReached
                && (!keyframesOnly || !silent || !end.isNumeric || !current.isNumeric || current >= end))
        // (Fast forward through keyframes plays no sound: none is waited for.)
        let audioDone = pipeline.audioStream == nil || !playsSound
            || (audioEOS == generation && (pipeline.ring?.bufferedFrames ?? 0) == 0)
        guard videoDone && audioDone else { return false }
        return post(.endDue(generation: generation, host: environment.hostClock.now)) == .ended(true)
    }

    /// Host seconds until the ring's last frames are rendered, once the audio decoder reached
    /// the end of `generation` (infinity before that): the end is then noticed as the sound
    /// stops, so a queue's next item starts its audio without a tick's worth of silence.
    private func untilAudioDrains(generation: Int, _ pipeline: Pipeline) -> Double {
        guard let ring = pipeline.ring, coordinator.read({ $0.audioEOSGeneration }) == generation else {
            return .infinity
        }
        return max(Double(ring.bufferedFrames) / Double(ring.format.sampleRate), 0.001)
    }

    /// Host seconds until the item time reaches the player's next observer time at `rate`
    /// (infinity without one), so ticks land on their times whatever the clock.
    private func untilObserversNeedTime(rate: Double) -> Double {
        let (due, current) = coordinator.read { ($0.nextTick, $0.itemTime(atHost: environment.hostClock.now)) }
        guard due.isNumeric, rate > 0 else { return .infinity }
        guard current.isNumeric else { return .infinity }
        return max((due - current).seconds / rate, 0.001)
    }
}

/// How early the presentation thread hands frames over, following the sinks' measured display
/// delay. A longer delay is taken on a step per frame shown, never at once: a window's first
/// measurements jump from 0 to tens of milliseconds, and moving every due time that much at once
/// would make two frames due together and drop one. A shorter delay applies at once (frames
/// then wait a little longer, which drops nothing).
///
/// Owned by the presentation thread (a local of its loop).
struct DisplayLead {
    /// The most the lead grows per frame shown: a small part of a frame even at 120 fps, so
    /// the frame after the one just shown is never due before its turn.
    static let stepPerFrame = 0.002
    /// Seconds frames are handed over early.
    private(set) var seconds = 0.0
    /// The lead measured last (what `seconds` moves toward).
    private var target = 0.0

    /// Takes the sinks' current display delay: a smaller one applies now, a larger one is
    /// approached as frames are shown.
    mutating func follow(_ measured: Double) {
        target = max(measured, 0)
        if target < seconds { seconds = target }
    }

    /// A frame was shown at the current lead: the lead may grow one step toward the target.
    mutating func notePresented() {
        seconds = min(target, seconds + Self.stepPerFrame)
    }
}
