// Playhead: the HLS loader thread's schedule: which segment to fetch next and when, from the
// media fetched ahead of the playhead, the read-ahead the variant rule allows and a live
// playlist's reload times. A parked loader fetches no segment (a live one keeps reloading its
// playlist, so a restart finds the window where it is). The app's caps apply from the next
// segment on.
//
// Concurrency: `nextJob` runs on the loader thread and reads `state` under `condition`, waiting
// on it; `isCurrent`, `setCaps` and `playingBandwidth` may be called from any thread (the
// fetcher's progress callback, the engine) and take `condition`.
import Foundation

extension HLSStreamLoader {
    /// The bandwidth of the variant whose bytes the demuxer reads now.
    var playingBandwidth: Int? {
        condition.lock()
        defer { condition.unlock() }
        return state.playingVariant.map { variants[$0].bandwidth }
    }

    /// Applies the app's caps from the next segment on.
    func setCaps(_ caps: VariantAdaptation.Caps) {
        condition.lock()
        state.caps = caps
        condition.broadcast()
        condition.unlock()
    }

    struct Job {
        let segment: Int
        /// The timeline's segment at `segment` (nil: reload the live playlist instead).
        let piece: HLSSegment?
        let generation: Int
        let buffered: Double
        let caps: VariantAdaptation.Caps
        let activated: Bool
        /// The rate of play to choose the variant for (`VariantAdaptation.playbackRate`).
        var rate = 1.0
        /// For the first job after a restart for one keyframe: the keyframe it announced (an
        /// index into the I-frame playlist's keyframes).
        var keyframeRestart: Int?
        /// True for a job that only reads the I-frame playlist (the rate turned negative, or
        /// above `EngineState.keyframeFastForwardRate`).
        var readsKeyframes = false
    }

    /// Waits for room in the buffer and a segment to fetch; nil once closed. The buffer is
    /// measured from the playhead once an engine plays the stream (from what the demuxer read
    /// before), so the wait is re-checked every quarter second as the playhead moves. Once
    /// activated, `readAhead` turns the full buffer ahead and the caps into the seconds to
    /// fetch ahead (less below the top variant; see `VariantAdaptation.readAhead`), read that
    /// many times further ahead when playing faster than 1x (`VariantAdaptation.readAheadScale`).
    func nextJob(readAhead: (_ full: Double, _ caps: VariantAdaptation.Caps) -> Double) -> Job? {
        while true {
            condition.lock()
            let playhead = self.playhead
            let playbackRate = self.playbackRate
            condition.unlock()
            let playing = playhead?()
            let requestedRate = playbackRate?() ?? 1
            condition.lock()
            defer { condition.unlock() }
            // Fast forward through an I-frame playlist fetches keyframes alone: a segment
            // fetched before the first step is weighed for play at 1x, not at the trick rate.
            let stepsForward =
                requestedRate > EngineState.keyframeFastForwardRate && hasKeyframeVariants
                && state.keyframeStarts?.isEmpty != true
            let rate = VariantAdaptation.playbackRate(stepsForward ? 1 : requestedRate)
            // The loader thread asks for a job once the last one is over.
            state.segmentRequestSince = nil
            if state.closed { return nil }
            // Backward play and fast forward step from keyframe to keyframe: the I-frame
            // playlist is read at once.
            if requestedRate < 0 || requestedRate > EngineState.keyframeFastForwardRate, hasKeyframeVariants,
                state.keyframeStarts == nil
            {
                return Job(
                    segment: state.nextSegment, piece: nil, generation: state.generation, buffered: 0,
                    caps: state.caps, activated: state.activated, readsKeyframes: true)
            }
            if let reload = state.nextReload, reload <= Date() {
                return Job(
                    segment: state.nextSegment, piece: nil, generation: state.generation, buffered: 0,
                    caps: state.caps, activated: state.activated)
            }
            // Live playback that fell behind the window goes on at the live edge (the item
            // seeks there, or to the window's start after a pause, when it learns the window).
            if isLive, state.nextSegment < state.timeline.windowFirst {
                state.nextSegment = state.timeline.liveEdgeIndex
                state.fetchedEnd = state.timeline.segments[state.nextSegment].start
            }
            // The demuxer reads ahead of the playhead by at most its own forward buffer; a
            // playhead outside that (right after a seek, before it lands) is not used.
            let position = playing.flatMap { time in
                time <= state.readPosition + 0.5 && time >= state.readPosition - state.bufferAhead - 5 ? time : nil
            } ?? state.readPosition
            let buffered = state.fetchedEnd - position
            // Until an engine takes the stream, an audio rendition that does not play from the
            // start fetches only what its reader waits for: opening learns its format from its
            // first segment, and nothing is read ahead that playback would not use.
            let onDemand = !state.activated && rendition.map { !$0.isDefault } == true
            let wanted =
                onDemand
                ? state.chunks.isEmpty && (state.readerWaiting || !state.delivered)
                : buffered
                    < (state.activated
                        ? readAhead(state.bufferAhead, state.caps) * VariantAdaptation.readAheadScale(rate)
                        : state.timeline.targetDuration)
                        + (state.reachesAhead ? state.timeline.targetDuration : 0)
            if state.nextSegment >= state.timeline.segments.count {
                if (state.timeline.isEnded || isDead) && !state.loaderDone {
                    state.loaderDone = true
                    if !state.delivered, state.failure == nil, let reason = state.skipReason {
                        state.failure = .io(detail: "no segment could be loaded (\(reason))")
                    }
                    condition.broadcast()
                }
            } else if wanted, state.failure == nil, !state.parked, !state.keyframeServed, !state.keyframeRestartPending {
                state.reachesAhead = false
                state.segmentRequestSince = ThreadCondition.monotonicNow()
                defer { state.keyframeRestart = nil }
                return Job(
                    segment: state.nextSegment, piece: state.timeline.segments[state.nextSegment],
                    generation: state.generation, buffered: buffered, caps: state.caps,
                    activated: state.activated, rate: rate, keyframeRestart: state.keyframeRestart)
            }
            _ = condition.wait(until: min(Date(timeIntervalSinceNow: 0.25), state.nextReload ?? .distantFuture))
        }
    }

    func isCurrent(_ generation: Int) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        return !state.closed && state.generation == generation
    }
}
