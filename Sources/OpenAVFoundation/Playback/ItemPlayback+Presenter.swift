// Playhead: the presentation thread: shows video frames on the master clock, completes seeks,
// reports time and detects the end.
//
// Concurrency: runs on its own thread; the only consumer of `videoFrames` and the only caller of
// the video sinks. Reads the audio clock lock-free from the ring buffer.
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
        let clock = environment.hostClock
        while !isStopped {
            refreshBuffer()
            let now = clock.now
            if control.withLock({ $0.isHeld }) {
                // Prerolled for a queue: frames wait in the queue until the item becomes current
                // (`setHeld(false)` wakes this thread).
                sleep(until: .infinity, on: presenterWake)
                continue
            }
            let (generation, rate, seek) = control.withLock { ($0.generation, $0.rate, $0.seek) }
            if pipeline.videoStream != nil, let item = pipeline.videoFrames.peek(), item.generation == generation {
                let frame = item.element
                if shownGeneration != generation {
                    // The first frame after opening or seeking shows at once, even when paused.
                    _ = pipeline.videoFrames.tryTake()
                    shownGeneration = generation
                    let landing = seek.flatMap { $0.generation == generation ? $0.landing : nil }
                    let time = landing ?? (frame.pts.isNumeric ? frame.pts : .zero)
                    present(frame, at: time, pipeline)
                    // Time restarts when this frame is shown, not when the loop began: the
                    // frame may have arrived long after `now` was read (a slow thread, a
                    // seek that landed meanwhile), and an older anchor would run time ahead.
                    let shownAt = clock.now
                    lastPresentHost = shownAt
                    finishSeekIfNeeded(generation: generation, at: time, host: shownAt)
                    continue
                }
                guard rate > 0 else {
                    sleep(until: now + pausedRecheck(pipeline), on: presenterWake)
                    continue
                }
                if reachesForwardEnd(frame) {
                    // A frame at or past forwardPlaybackEndTime is never shown: the end is
                    // reached when it falls due (a looper's next pass starts there).
                    let current = environment.untimed ? frame.pts : control.withLock { $0.time(atHost: now, audio: pipeline.ring) }
                    if current >= frame.pts { checkForwardEnd(frame.pts) }
                    sleep(until: now + 0.005, on: presenterWake)
                    continue
                }
                if environment.untimed {
                    _ = pipeline.videoFrames.tryTake()
                    present(frame, at: frame.pts, pipeline)
                    control.withLock { $0.clock.set(media: frame.pts, host: now, generation: $0.generation) }
                    tick(frame.pts, generation: generation, host: now, last: &lastTickHost, force: false)
                    continue
                }
                let current = control.withLock { $0.time(atHost: now, audio: pipeline.ring) }
                if !frame.pts.isNumeric || frame.pts <= current {
                    _ = pipeline.videoFrames.tryTake()
                    if let next = pipeline.videoFrames.peek(), next.generation == generation,
                        next.element.pts.isNumeric, next.element.pts <= current,
                        now - lastPresentHost < Self.lateFrameTolerance
                    {
                        control.withLock { $0.statistics.videoFramesDropped += 1 }
                        continue
                    }
                    let time = frame.pts.isNumeric ? frame.pts : current
                    present(frame, at: time, pipeline, measuresSync: true)
                    lastPresentHost = now
                    tick(current, generation: generation, host: now, last: &lastTickHost, force: true)
                    checkForwardEnd(current)
                } else {
                    let wait = (frame.pts - current).seconds / rate
                    sleep(until: now + min(max(wait, 0.001), 0.05), on: presenterWake)
                }
                continue
            }
            // No frame to show now: audio-only, decoding behind, or the end.
            finishSeekWithoutFrame(generation: generation, host: clock.now, pipeline)
            if rate > 0 && checkEnd(generation: generation, pipeline) { continue }
            if rate > 0 {
                let current = currentTime()
                tick(current, generation: generation, host: now, last: &lastTickHost, force: false)
                checkForwardEnd(current)
            }
            let wake = rate > 0
                ? min(Self.idleRecheckInterval, untilAudioDrains(generation: generation, pipeline),
                    untilObserversNeedTime(rate: rate))
                : pausedRecheck(pipeline)
            sleep(until: now + wake, on: presenterWake)
        }
    }

    /// How long the presentation thread sleeps while paused: until a command wakes it for a
    /// file (nothing changes on its own), a slow recheck of the buffer for network media (the
    /// demux thread's rate-limited reports may leave the last read unreported).
    private func pausedRecheck(_ pipeline: Pipeline) -> Double {
        asset.sourceURL.isFileURL ? .infinity : 1
    }

    /// Hands `frame` to the video sinks. With `measuresSync` (frames shown on the clock), also
    /// records how far its time is from the audio heard as it is handed over, when the audio
    /// clock is trusted.
    private func present(
        _ frame: VideoFrame, at time: CMTime, _ pipeline: Pipeline, measuresSync: Bool = false
    ) {
        let host = measuresSync && frame.pts.isNumeric ? environment.hostClock.now : nil
        let audio = host.flatMap { host in
            control.withLock { $0.trustedAudioClock(atHost: host, audio: pipeline.ring) }
        }
        environment.videoSinks.present(frame, itemTime: time)
        control.withLock { control in
            control.statistics.videoFramesPresented += 1
            control.lastPresented = time
            if let audio { control.statistics.syncErrors.record((frame.pts - audio).seconds) }
        }
    }

    /// Completes a pending seek of `generation`, anchoring the clock at `time`.
    private func finishSeekIfNeeded(generation: Int, at time: CMTime, host: Double) {
        let finished = control.withLock { $0.finishSeek(generation: generation, at: time, host: host) }
        guard let finished else { return }
        demuxWake.wake()  // the read-ahead waits for the landing (`LandingReadAhead`)
        report(.seekFinished(id: finished.id, time: time))
    }

    /// Completes a pending seek that no video frame will complete: audio-only items (once the
    /// audio found its landing), and seeks with no frame left to show (past the end).
    private func finishSeekWithoutFrame(generation: Int, host: Double, _ pipeline: Pipeline) {
        let videoEnded = pipeline.videoStream != nil && pipeline.videoFrames.statistics.endOfStreamReached
        let landing = control.withLock {
            $0.landingWithoutFrame(
                generation: generation, hasVideoStream: pipeline.videoStream != nil,
                hasAudioStream: pipeline.audioStream != nil, videoEnded: videoEnded)
        }
        if let landing { finishSeekIfNeeded(generation: generation, at: landing, host: host) }
    }

    /// Reports the item time once a time observer needs it (not while a seek is in flight: the
    /// time is the target then, and crossing toward it is a jump, not playback).
    private func tick(_ time: CMTime, generation: Int, host: Double, last: inout Double, force: Bool) {
        guard time.isNumeric, force || host - last >= Self.tickInterval, observersAwait(time) else { return }
        let clamped = control.withLock { $0.timeReport(time, generation: generation) }
        guard let clamped else { return }
        last = host
        report(.timeAdvanced(clamped, generation: generation))
    }

    /// Reports the end once both streams are exhausted; true when it did.
    private func checkEnd(generation: Int, _ pipeline: Pipeline) -> Bool {
        let videoDone = pipeline.videoStream == nil
            || (control.withLock { $0.eosGeneration } == generation
                && pipeline.videoFrames.statistics.endOfStreamReached)
        let audioDone = pipeline.audioStream == nil
            || (control.withLock { $0.audioEOSGeneration } == generation
                && (pipeline.ring?.bufferedFrames ?? 0) == 0)
        guard videoDone && audioDone else { return false }
        return reportEnd(generation: generation)
    }

    /// Host seconds until the ring's last frames are rendered, once the audio decoder reached
    /// the end of `generation` (infinity before that): the end is then noticed as the sound
    /// stops, so a queue's next item starts its audio without a tick's worth of silence.
    private func untilAudioDrains(generation: Int, _ pipeline: Pipeline) -> Double {
        guard let ring = pipeline.ring, control.withLock({ $0.audioEOSGeneration }) == generation else {
            return .infinity
        }
        return max(Double(ring.bufferedFrames) / Double(ring.format.sampleRate), 0.001)
    }

    /// Host seconds until the item time reaches the player's next observer time at `rate`
    /// (infinity without one), so ticks land on their times whatever the clock.
    private func untilObserversNeedTime(rate: Double) -> Double {
        let due = nextTickTime
        guard due.isNumeric, rate > 0 else { return .infinity }
        let current = currentTime()
        guard current.isNumeric else { return .infinity }
        return max((due - current).seconds / rate, 0.001)
    }

    /// True when `frame` starts at or after the forward end time.
    private func reachesForwardEnd(_ frame: VideoFrame) -> Bool {
        let end = control.withLock { $0.forwardEndTime }
        return end.isNumeric && frame.pts.isNumeric && frame.pts >= end
    }

    private func checkForwardEnd(_ time: CMTime) {
        let (end, generation) = control.withLock { ($0.forwardEndTime, $0.generation) }
        if end.isNumeric && time >= end { _ = reportEnd(generation: generation) }
    }

    private func reportEnd(generation: Int) -> Bool {
        let host = environment.hostClock.now
        let first = control.withLock { $0.reachEnd(generation: generation, host: host) }
        guard first else { return false }
        if let failure = control.withLock({ $0.readFailure }) {
            report(.failed(failure, duringPlayback: true))
        } else {
            report(.reachedEnd)
        }
        return true
    }
}
