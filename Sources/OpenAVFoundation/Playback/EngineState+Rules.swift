// Playhead: the engine's decisions about seeks, landings, time reports and the end, as pure
// functions of `EngineState` (each unit-tested without FFmpeg or threads:
// EngineStateRulesTests). `handle(_:)` applies them as events arrive.
//
// Concurrency: a value's methods, applied by the value's owner (the item's coordinator).
import FFmpegBridge
import Foundation

extension EngineState {
    /// Starts `request` as a new generation: earlier data is stale from now on, and the end
    /// and video end of stream are forgotten. The seek's id becomes the generation (seek ids
    /// come from one process-wide counter, so they only grow; an id that is not newer takes
    /// the next number). Returns the new generation.
    mutating func beginSeek(_ request: SeekRequest) -> Int {
        generation = max(generation + 1, request.id)
        seek = PendingSeek(request: request, generation: generation)
        owesPictureSeek = false
        owesPictureSeekAtLanding = false
        isOpening = false
        endReported = false
        reverseEndReported = false
        eosGeneration = -1
        return generation
    }

    /// The item time at `host`: the target while a seek is in flight, else the clock (the
    /// audio clock when trusted), kept within the item; the last time shown when the clock has
    /// no reading.
    func itemTime(atHost host: Double) -> CMTime {
        if let seek, !seek.landed, !seek.isKeyframeStep { return seek.request.target }
        // Once the end is reached the item is at its end, whatever an audio clock still says
        // while the player has not paused yet (one that lags after the sound server came back).
        // (Where a read failure cut it short: where its data ran out, `reachEnd`.)
        if endReported, readFailure != nil, lastPresented.isNumeric { return clamped(lastPresented) }
        if endReported, endTime.isNumeric { return clamped(endTime) }
        let time = time(atHost: host)
        return time.isNumeric ? clamped(time) : lastPresented
    }

    /// True when `generation` is current and its seek (if any) has landed.
    /// True when a time report of `generation` is current: settled, or made during the steps
    /// of trick play that followed it (time runs on through a step in flight: fast forward's
    /// keyframe waits for time to reach it), with no seek of the player's since.
    func acceptsTimeReport(of generation: Int) -> Bool {
        if isSettled(generation: generation) { return true }
        guard let seek, seek.isKeyframeStep, generation <= self.generation else { return false }
        return generation >= keyframeRunSince
    }

    func isSettled(generation: Int) -> Bool {
        guard self.generation == generation else { return false }
        if let seek, !seek.landed { return false }
        return true
    }

    /// The video decoder delivered its first frame of `generation`: the seek of that generation
    /// lands at `landing` unless something set its landing first.
    mutating func noteVideoLanding(generation: Int, at landing: CMTime) {
        guard var pending = seek, pending.generation == generation, pending.landing == nil else { return }
        pending.landing = landing.isNumeric ? landing : pending.request.target
        seek = pending
    }

    /// What the audio thread does with a chunk starting at `chunkStart` of `generation`.
    enum AudioLanding: Equatable {
        /// The chunk is stale (a newer generation or a stop): drop it.
        case drop
        /// No seek to trim for: write the chunk whole.
        case writeWhole
        /// Trim the chunk to start at this time.
        case trim(at: CMTime)
        /// A keyframe seek of an item with video lands where the first frame is: wait for it.
        case waitForVideo
    }

    /// Notes audio of `generation` starting at `start` while opening (`openingAudioStart`): when
    /// the first picture already set time later, time goes back to where the sound begins
    /// (before it has run: nothing was reported from the later time while playing).
    mutating func noteOpeningAudio(generation chunkGeneration: Int, start: CMTime) {
        guard isOpening, seek == nil, chunkGeneration == generation, rate == 0, start.isNumeric else { return }
        let begins = max(start, .zero)
        guard openingAudioStart.map({ begins < $0 }) ?? true else { return }
        openingAudioStart = begins
        if clock.anchorMedia.isNumeric, begins < clock.anchorMedia {
            clock.set(media: begins, host: clock.anchorHost, generation: generation)
        }
    }

    /// Decides how audio of `generation` starting at `chunkStart` meets the pending seek. An
    /// exact seek lands at its target; a keyframe seek of an audio-only item lands at its first
    /// chunk (`landsHere` true: the caller wakes the presentation thread to finish it).
    mutating func audioLanding(generation: Int, chunkStart: CMTime) -> (AudioLanding, landsHere: Bool) {
        if stopped || self.generation != generation { return (.drop, false) }
        guard let pending = seek, pending.generation == generation, !pending.landed || pending.landing != nil
        else { return (.writeWhole, false) }
        if let landing = pending.landing { return (.trim(at: landing), false) }
        guard !hasVideo || pending.request.isExact else { return (.waitForVideo, false) }
        let landing = pending.request.isExact ? pending.request.target : chunkStart
        seek?.landing = landing
        return (.trim(at: landing), true)
    }

    /// Completes the pending seek of `generation` at `time` as its first frame is shown at
    /// `host`, anchoring the clock there (also while paused: the first frame after opening
    /// restarts time, which must not jump back once it runs). Returns the finished request.
    mutating func finishSeek(generation: Int, at time: CMTime, host: Double) -> SeekRequest? {
        let landing = seek.map { $0.generation == generation && !$0.landed } ?? false
        // A step's picture shows while the clock runs on (backward, or fast): no new anchor.
        let stepsBack = (seek?.isReverseStep == true && rate < 0) || (seek?.isForwardStep == true && stepsForward)
        if (landing && !stepsBack) || rate == 0 {
            // A scheduled start keeps its host time: the landing is where time starts then.
            let anchor = scheduledStart ?? host
            // The first picture after opening: time stands where the sound begins, if earlier.
            let start = isOpening && !landing ? min(time, openingAudioStart ?? time) : time
            clock.set(media: start, host: anchor, generation: self.generation)
            audioClockTrustedAfter = anchor
            lastPresented = time
        }
        guard landing, var pending = seek else { return nil }
        if stepsBack { lastPresented = time }
        pending.landed = true
        pending.landing = pending.landing ?? time
        seek = pending
        return pending.request
    }

    /// Where a pending seek of `generation` lands when no video frame will complete it
    /// (audio-only items once the audio found its landing; seeks past the end), or nil.
    /// `videoEnded` says the video frame queue reached its end.
    func landingWithoutFrame(generation: Int, hasVideoStream: Bool, hasAudioStream: Bool, videoEnded: Bool)
        -> CMTime?
    {
        guard let pending = seek, pending.generation == generation, !pending.landed else { return nil }
        if hasVideoStream {
            guard eosGeneration == generation, videoEnded else { return nil }
            return pending.landing ?? pending.request.target
        }
        if let landing = pending.landing { return landing }
        // Nothing left to decode at the target (past the end): land on the target.
        return audioEOSGeneration == generation || !hasAudioStream ? pending.request.target : nil
    }

    /// The time to report to the player's observers for `time` of `generation`, or nil when
    /// it is stale or a seek is in flight (crossing toward the target is a jump, not play);
    /// trick play's steps are no such seek (`acceptsTimeReport(of:)`).
    mutating func timeReport(_ time: CMTime, generation: Int) -> CMTime? {
        guard acceptsTimeReport(of: generation) else { return nil }
        statistics.timeReports += 1
        return clamped(time)
    }

    /// Reaches the end of `generation` while playing, once: the playhead moves to the end
    /// time. False when it was reported already, is stale, paused, stopped, or a seek is in
    /// flight (other than fast forward's step, whose keyframe is then never shown).
    mutating func reachEnd(generation: Int, host: Double) -> Bool {
        // The end is reached by playing into it, never while paused.
        guard !endReported, !stopped, self.generation == generation, rate > 0 else { return false }
        if let pending = seek, pending.generation == generation, !pending.landed {
            // Fast forward's step in flight when time reaches the end: its keyframe (if any)
            // lies at or past the end and is never shown.
            guard pending.isForwardStep, stepsForward else { return false }
            seek?.landed = true
        }
        endReported = true
        // A network stream cut short by a read failure stops where its data ran out (the item
        // fails there); time does not jump to the end it never reached.
        let reached = readFailure == nil ? endTime : time(atHost: host)
        let end = reached.isNumeric && endTime.isNumeric ? min(reached, endTime) : reached
        if end.isNumeric {
            lastPresented = end
            clock.set(media: end, host: host, generation: generation)
        }
        return true
    }

    /// Starts a step of reverse playback: a keyframe seek of the engine's own to the keyframe at
    /// or before `time`, as a new generation. Nil (nothing starts) unless playing backward,
    /// settled (a seek of the player's in flight comes first) and above the reverse end.
    mutating func beginReverseStep(to time: CMTime) -> Int? {
        guard rate < 0, !stopped, isSettled(generation: generation), time.isNumeric, time > reverseEnd else {
            return nil
        }
        return startKeyframeStep(.atOrBefore, from: time)
    }

    /// Starts a step of fast forward: a keyframe seek of the engine's own to the first
    /// keyframe after `time`, as a new generation, shown when time reaches it. Nil (nothing
    /// starts) unless stepping forward and settled (a seek of the player's in flight comes
    /// first).
    mutating func beginForwardStep(after time: CMTime) -> Int? {
        guard stepsForward, !stopped, isSettled(generation: generation), time.isNumeric else { return nil }
        return startKeyframeStep(.after, from: time)
    }

    /// Starts a step of trick play from `time` (the keyframe at or before it, or the first
    /// after it) as a keyframe seek of the engine's own and a new generation, which it returns.
    private mutating func startKeyframeStep(_ step: KeyframeStep, from time: CMTime) -> Int {
        if seek?.isKeyframeStep != true { keyframeRunSince = generation }
        let forward = step == .after
        let request = SeekRequest(
            id: generation + 1, target: time, toleranceBefore: forward ? .zero : .positiveInfinity,
            toleranceAfter: forward ? .positiveInfinity : .zero, completion: nil)
        let started = beginSeek(request)
        seek?.isReverseStep = !forward
        seek?.isForwardStep = forward
        seek?.isEngineOwn = true
        return started
    }

    /// Starts an exact seek of the engine's own to `time` in place of a step still in flight
    /// whose direction the rate left: fast forward's (paused, slower, backward: its keyframe
    /// lies ahead of where time now stands or runs from), or backward play's once fast forward
    /// steps (its keyframe lies behind). Nil without such a step.
    mutating func abandonStep(at time: CMTime) -> Int? {
        guard let pending = seek, !pending.landed, !stopped, time.isNumeric,
            (pending.isForwardStep && !stepsForward) || (pending.isReverseStep && stepsForward)
        else { return nil }
        return startOwnExactSeek(at: time)
    }

    /// Starts the exact seek of the engine's own to `time` that play with sound needs after
    /// steps through keyframes (their queues hold what follows a keyframe, not `time`); nil
    /// when the last seek was no step.
    mutating func beginPlayAfterSteps(at time: CMTime) -> Int? {
        guard let last = seek, last.isKeyframeStep, !stopped, time.isNumeric else { return nil }
        return startOwnExactSeek(at: time)
    }

    /// Starts an exact seek of the engine's own to `time` (every source read again from there,
    /// the queues and the ring with them; the player hears nothing of it); nil while playing
    /// backward, stopped or unsettled.
    mutating func beginOwnSeek(at time: CMTime) -> Int? {
        guard rate >= 0, !stopped, isSettled(generation: generation), time.isNumeric else { return nil }
        return startOwnExactSeek(at: time)
    }

    /// Starts an exact seek of the engine's own to `time` (clamped to the item) as a new
    /// generation, which it returns.
    private mutating func startOwnExactSeek(at time: CMTime) -> Int {
        let request = SeekRequest(
            id: generation + 1, target: clamped(time), toleranceBefore: .zero, toleranceAfter: .zero,
            completion: nil)
        let started = beginSeek(request)
        seek?.isEngineOwn = true
        return started
    }

    /// Reaches the reverse end while playing backward, once: time stands there. False when
    /// already reported, not playing backward, stopped or a seek is in flight.
    mutating func reachReverseEnd(host: Double) -> Bool {
        guard rate < 0, !reverseEndReported, !stopped, isSettled(generation: generation) else { return false }
        reverseEndReported = true
        lastPresented = reverseEnd
        clock.set(media: reverseEnd, host: host, generation: generation)
        clock.setRate(0, host: host)
        return true
    }
}
