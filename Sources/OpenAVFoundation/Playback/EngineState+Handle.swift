// Playhead: the engine's one decision point: each event changes the state and says what is to
// be done (EngineStateHandleTests check the rules with no FFmpeg and no threads).
//
// Concurrency: a value's method, called only by the item's coordinator, one event at a time.
import FFmpegBridge
import Foundation

extension EngineState {
    /// Applies `event` and returns what is to be done, in order. After a stop nothing more is
    /// reported.
    mutating func handle(_ event: EngineEvent) -> [EngineAction] {
        let actions = decide(event)
        guard stopped else { return actions }
        return actions.filter { if case .report = $0 { false } else { true } }
    }

    private mutating func decide(_ event: EngineEvent) -> [EngineAction] {
        switch event {
        case .setRate(let newRate, let host, let waiting):
            // (A pause during a wait for data changes no rate but may owe the picture a seek.)
            guard rate != newRate || scheduledStart != nil || waiting != isWaitingForData else { return [] }
            isWaitingForData = waiting
            let current = time(atHost: host)
            let wasKeyframesOnly = decodesKeyframesOnly
            rate = newRate
            if newRate != 0 { isOpening = false }
            // Time runs from now, or from the scheduled start where it will stand then.
            let anchor = scheduledStart.map { max($0, host) } ?? host
            if current.isNumeric { clock.set(media: current, host: anchor, generation: generation) }
            clock.setRate(newRate, host: anchor)
            audioClockTrustedAfter = anchor
            if newRate > 0 { reverseEndReported = false }
            if playsSound, let resumed = beginPlayAfterSteps(at: current) {
                // The queues and the ring hold what follows the last keyframe a step showed:
                // play with sound resumes from an exact seek to where time stands.
                return [.flushQueues(generation: resumed), .applyAudioOutput, .wake(.all)]
            }
            if let resumed = abandonStep(at: current) {
                // A step's keyframe of the other direction was still to come: time stands (or
                // runs on) where it is, so the picture is the one there.
                return [.flushQueues(generation: resumed), .applyAudioOutput, .wake(.all)]
            }
            if newRate == 0, !waiting, !endReported, seek?.isForwardStep == true,
                let resumed = beginPlayAfterSteps(at: current)
            {
                // Paused between fast forward's steps (the last one landed, the next not asked
                // for yet): the picture is the frame where time stands, not the keyframe
                // behind it.
                return [.flushQueues(generation: resumed), .applyAudioOutput, .wake(.all)]
            }
            // (Left during a seek, the seek's own pictures decode as usual until it lands.)
            if wasKeyframesOnly, !decodesKeyframesOnly, isSettled(generation: generation) { owesPictureSeek = true }
            if owesPictureSeek, !waiting, !decodesKeyframesOnly, !endReported, newRate >= 0,
                let resumed = beginOwnSeek(at: current)
            {
                // Only keyframes were decoded: the queues hold pictures that refer to ones
                // never decoded, so the picture where time stands needs an exact seek.
                return [.flushQueues(generation: resumed), .applyAudioOutput, .wake(.all)]
            }
            // Cue and metadata waits follow the rate too.
            return [.applyAudioOutput, .wake([.presenter, .video, .audio, .subtitles])]
        case .setGain(let newGain):
            gain = newGain
            return [.setVolume(newGain)]
        case .setAudioDelay(let delay):
            audioDelay = delay
            return [.applyAudioDelay(delay)]
        case .setUpcomingRate(let upcoming):
            guard upcoming > 0, upcoming != upcomingRate else { return [] }
            upcomingRate = upcoming
            return rate > 0 ? [] : [.wake(.audio)]
        case .seek(let request):
            let started = beginSeek(request)
            // Flushed before any thread can see the new generation (and put data of it, which
            // would move a queue there first).
            var actions: [EngineAction] = [.flushQueues(generation: started)]
            // A network read may be stuck on a stalled connection: cut it so the seek need not
            // wait for it, but never during the open (which a cut would fail) and only while
            // the demux thread has not picked the seek up (after that the cut would land on a
            // read made for the seek).
            if isNetwork, buffer != nil, demuxSeekGeneration < generation { actions.append(.kickStalledRead) }
            // Cues and timed metadata follow the jump.
            actions.append(.wake(.all))
            return actions
        case .stop(let clearsVideo):
            stopped = true
            var actions: [EngineAction] = [.abort, .wake(.all), .applyAudioOutput]
            // A held (prerolled) engine never showed anything and never clears.
            if clearsVideo && !isHeld { actions.append(.clearVideo) }
            return actions
        case .setHeld(let held):
            isHeld = held
            return [.wake([.presenter, .video])]
        case .selectAudio(let stream):
            guard selection.audioStream != stream else { return [] }
            selection.audioStream = stream
            return [.wake([.demux, .audio])]
        case .selectLegible(let source):
            selection.legible = source
            selection.legibleVersion += 1
            return [.loadLegible(source, version: selection.legibleVersion), .wake(.demux)]
        case .observersNeedTime(let time):
            nextTick = time
            return []
        case .scheduleStart(let start, let now):
            scheduledStart = start > now ? start : nil
            // The audio output runs ahead, silent until the start, so its sound begins on
            // time; the presentation thread wakes at the start.
            guard let scheduledStart else { return [.wake(.presenter)] }
            return [.gateAudio(at: scheduledStart), .wake(.presenter)]
        case .scheduledStartReached(let host):
            guard let start = scheduledStart, host >= start else { return [] }
            scheduledStart = nil
            return [.wake([.presenter, .video, .audio, .subtitles])]
        case .opened(let parts, let host):
            pipeline = parts.pipeline
            duration = parts.duration
            forwardEndTime = parts.forwardEndTime
            reverseEndTime = parts.reverseEndTime
            hasVideo = parts.pipeline.videoStream != nil
            hasAudio = parts.pipeline.audioStream != nil
            forwardStepsAbove = hasVideo ? parts.forwardStepsAbove : nil
            selection.audioStream = parts.audioStream
            clock.set(media: .zero, host: host, generation: generation)
            // Stopped while opening: what was just made is released at once.
            if stopped { return [.abort, .applyAudioOutput] }
            return [.setVolume(gain), .applyAudioDelay(audioDelay)] + (scheduledStart.map { [.gateAudio(at: $0)] } ?? [])
        case .variantChosen(let bitRate):
            variantBitRate = bitRate
            return []
        default:
            return decideForWorkers(event)
        }
    }

    private mutating func decideForWorkers(_ event: EngineEvent) -> [EngineAction] {
        switch event {
        case .readingStarted:
            if let pipeline { buffer = BufferTracker(pipeline: pipeline) }
            return []
        case .demuxAsks(let pickedUpTo):
            let newSeek = seek.flatMap { $0.generation > pickedUpTo ? $0 : nil }
            if let newSeek { demuxSeekGeneration = newSeek.generation }
            let orders = DemuxOrders(stopped: stopped, seek: newSeek, generation: generation, selection: selection)
            return [.reply(.demuxOrders(orders))]
        case .packetRead(let packet, let host):
            buffer?.note(packet)
            return bufferReport(endOfStream: false, force: false, host: host)
        case .bufferCheck(let endOfStream, let force, let host):
            return bufferReport(endOfStream: endOfStream, force: force, host: host)
        case .readingRestarted(let target):
            buffer?.restart(at: target)
            return []
        case .bufferDropped(let time):
            buffer?.dropBefore(time)
            return []
        case .bufferResumed(let range):
            buffer?.resume(range)
            return []
        case .bufferKeptRanges(let ranges):
            buffer?.setOtherRanges(ranges)
            return []
        case .readResumed:
            readFailure = nil
            return []
        case .packetsReopened:
            buffer?.reopenEnd()
            return []
        case .resyncAudioDue(let host):
            guard let started = beginOwnSeek(at: time(atHost: host)) else { return [] }
            return [.flushQueues(generation: started), .wake(.all)]
        case .readFailed(let failure):
            if let failure { readFailure = failure }
            buffer?.markReadFailed()
            return []
        case .packetsEnded(let ended, let host):
            guard generation == ended, !stopped else { return [] }
            return [.endPacketQueues] + bufferReport(endOfStream: true, force: true, host: host)
        case .videoLanding(let landed, let time):
            noteVideoLanding(generation: landed, at: time)
            // The audio of a keyframe seek waits for where the first frame is.
            return [.wake(.audio)]
        case .videoAwaitsKeyframe(let waiting, let host):
            guard waiting == generation, !decodesKeyframesOnly, !stopped else { return [] }
            guard isSettled(generation: waiting) else {
                owesPictureSeekAtLanding = true
                return []
            }
            // (While waiting for data, the next change that is not a wait makes the seek.)
            owesPictureSeek = true
            guard !isWaitingForData, !endReported, let resumed = beginOwnSeek(at: time(atHost: host)) else { return [] }
            return [.flushQueues(generation: resumed), .applyAudioOutput, .wake(.all)]
        case .videoEnded(let ended):
            guard generation == ended, !stopped else { return [.wake(.presenter)] }
            eosGeneration = ended
            return [.endFrameQueue, .wake(.presenter)]
        case .audioChunk(let chunkGeneration, let start):
            noteOpeningAudio(generation: chunkGeneration, start: start)
            let (decision, landsHere) = audioLanding(generation: chunkGeneration, chunkStart: start)
            // An audio-only seek completes on the presentation thread once it lands.
            return landsHere ? [.wake(.presenter), .reply(.audio(decision))] : [.reply(.audio(decision))]
        case .audioWritten(let seconds, let written, let host):
            statistics.audioSeconds += seconds
            if audioQueued?.generation != written { audioQueued = QueuedAudio(generation: written, since: host) }
            return []
        case .audioSwitched(let stream, let through, let switched, let host):
            guard generation == switched else { return [] }
            buffer?.switchAudio(to: stream, bufferedThrough: through)
            return bufferReport(endOfStream: false, force: false, host: host)
        case .audioEnded(let ended):
            guard generation == ended, !stopped else { return [.wake(.presenter)] }
            audioEOSGeneration = ended
            return [.wake(.presenter)]
        default:
            return decideForPresentation(event)
        }
    }

    private mutating func decideForPresentation(_ event: EngineEvent) -> [EngineAction] {
        switch event {
        case .firstFrameShown(let shown, let time, let host):
            return land(generation: shown, at: time, host: host)
        case .frameShown(let time, let pts, let measuredAt):
            statistics.videoFramesPresented += 1
            lastPresented = time
            if let measuredAt, let audio = trustedAudioClock(atHost: measuredAt) {
                statistics.syncErrors.record((pts - audio).seconds)
            }
            return []
        case .frameDropped:
            statistics.videoFramesDropped += 1
            return []
        case .untimedFrameShown(let pts, let host):
            clock.set(media: pts, host: host, generation: generation)
            return []
        case .noFrameWaiting(let waiting, let host, let videoEnded):
            guard
                let landing = landingWithoutFrame(
                    generation: waiting, hasVideoStream: pipeline?.videoStream != nil,
                    hasAudioStream: pipeline?.audioStream != nil, videoEnded: videoEnded)
            else { return [] }
            return land(generation: waiting, at: landing, host: host)
        case .timeDue(let time, let due):
            // Backward, every report the presentation thread paces is due while observers
            // need time (their next time is computed forward).
            let isDue = rate < 0 ? nextTick != .positiveInfinity : time >= nextTick
            guard time.isNumeric, isDue, let report = timeReport(time, generation: due) else {
                return [.reply(.reported(false))]
            }
            return [.report(.timeAdvanced(report, generation: due)), .reply(.reported(true))]
        case .endDue(let ending, let host):
            return end(generation: ending, host: host)
        case .playedTo(let time, let host):
            guard forwardEndTime.isNumeric, time >= forwardEndTime else { return [.reply(.ended(false))] }
            return end(generation: generation, host: host)
        case .reverseStepDue(let time):
            guard let started = beginReverseStep(to: time) else { return [] }
            return [.flushQueues(generation: started), .wake(.all)]
        case .forwardStepDue(let time):
            guard let started = beginForwardStep(after: time) else { return [] }
            return [.flushQueues(generation: started), .wake(.all)]
        case .keyframesUnavailable(let host):
            return stopSteppingForward(host: host)
        case .reverseEndDue(let host):
            guard reachReverseEnd(host: host) else { return [] }
            return [.report(.reachedReverseEnd)]
        default:
            return []
        }
    }

    /// Fast forward no longer steps (the source cannot fetch keyframes alone): while stepping,
    /// an exact seek of the engine's own where time stands (at `host`) replaces the step, and
    /// play goes on with sound from there.
    private mutating func stopSteppingForward(host: Double) -> [EngineAction] {
        guard canStepForward else { return [] }
        let (wasStepping, current) = (stepsForward, time(atHost: host))
        forwardStepsAbove = nil
        guard wasStepping else { return [] }
        // Time runs on from where the steps took it, the sound's clock trusted from now on.
        if current.isNumeric { clock.set(media: current, host: host, generation: generation) }
        audioClockTrustedAfter = host
        guard let resumed = abandonStep(at: current) ?? beginPlayAfterSteps(at: current) else {
            return [.applyAudioOutput, .wake(.all)]
        }
        return [.flushQueues(generation: resumed), .applyAudioOutput, .wake(.all)]
    }

    /// Lands the seek of `generation` at `time` (shown at `host`), if it waits to.
    private mutating func land(generation landed: Int, at time: CMTime, host: Double) -> [EngineAction] {
        let isEngineOwn = seek?.isEngineOwn ?? false
        guard let finished = finishSeek(generation: landed, at: time, host: host) else { return [] }
        // The read-ahead waits for the landing (`LandingReadAhead`). The player hears nothing
        // of the engine's own seeks.
        var actions: [EngineAction] = [.wake(.demux)]
        if !isEngineOwn { actions.append(.report(.seekFinished(id: finished.id, time: time))) }
        if owesPictureSeekAtLanding {
            // Pictures after the landing were skipped for want of their references: the
            // picture where time stands comes from an exact seek.
            owesPictureSeekAtLanding = false
            if !decodesKeyframesOnly, !isWaitingForData, !endReported, let resumed = beginOwnSeek(at: time) {
                actions += [.flushQueues(generation: resumed), .applyAudioOutput, .wake(.all)]
            } else if isWaitingForData {
                // Landed during a wait for data: the next change that is not a wait seeks.
                owesPictureSeek = true
            }
        }
        return actions
    }

    /// Reaches the end of `generation` once: a read failure left behind fails the item there.
    private mutating func end(generation ending: Int, host: Double) -> [EngineAction] {
        guard reachEnd(generation: ending, host: host) else { return [.reply(.ended(false))] }
        let news: PlaybackEvent = readFailure.map { .failed($0, duringPlayback: true) } ?? .reachedEnd
        return [.report(news), .reply(.ended(true))]
    }

    /// The buffer's report at `host`, if one is due.
    private mutating func bufferReport(endOfStream: Bool, force: Bool, host: Double) -> [EngineAction] {
        // The engine's own seeks empty the queues on purpose: that is no stall. Stepping
        // through keyframes (backward, or fast forward) needs one picture per step, not the
        // buffer the flags measure (the tracker keeps its last report, so play with sound
        // reports afresh).
        if let seek, seek.isEngineOwn, !seek.landed { return [] }
        if stepsThroughKeyframes { return [] }
        let position = itemTime(atHost: host)
        guard let report = buffer?.update(position: position, endOfStream: endOfStream, force: force, now: host)
        else { return [] }
        return [.report(.buffer(report))]
    }
}
