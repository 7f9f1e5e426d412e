// Playhead: the real-time consumer side of AudioRingBuffer: copy, gain, skip stale, publish clock.

// Concurrency: everything here runs on the output's real-time callback thread, one call at a
// time. It touches only the consumer-owned fields of `AudioRingBuffer`, preallocated storage and
// atomics: no locks, no allocation, no waiting. CMTime arithmetic is plain integer math.

extension AudioRingBuffer {
    /// Fills `buffer` from the ring and publishes the audio clock. See the type's documentation.
    ///
    /// - Chunks older than ``generation`` are skipped without being heard.
    /// - While ``isPaused``, renders silence and consumes nothing.
    /// - Frames with no data become silence; the call counts as an underrun once audio of the
    ///   current generation has played.
    /// - Frames heard before ``startGate`` are silence; the ring's audio starts right after.
    /// - Before the current generation's first frame plays, the call is silent and consumes
    ///   nothing until ``primeFrames`` frames of it wait (or its audio ended). The call that
    ///   starts with that first frame goes back over the silence rendered meanwhile, as far as
    ///   the output could overwrite (``takeRewindFrames()``).
    /// - When at least one frame was played and the output plays what it takes (see
    ///   ``isOutputPlaying``), publishes: the media time of the first frame, heard at
    ///   `hostTime + outputLatency` (plus any gated lead), advancing at that chunk's rate for
    ///   the frames delivered.
    /// - Important: Real-time thread only; one call at a time.
    package func render(into buffer: UnsafeMutableBufferPointer<Float>, hostTime: Double) {
        renderCountingFrames(into: buffer, hostTime: hostTime)
    }

    /// ``render(into:hostTime:)``, returning how many leading frames it filled from the ring
    /// (the start gate's silence included); the rest of `buffer` is silence. Once
    /// ``hasPlayedToEnd`` holds, the frames after that count are the ones a shared device hands
    /// to the next item's ring. `primes: false` skips the ``primeFrames`` wait (a ring that
    /// continues another one mid-call, where waiting would be a gap). Real-time thread only;
    /// one call at a time.
    @discardableResult
    package func renderCountingFrames(
        into buffer: UnsafeMutableBufferPointer<Float>, hostTime: Double, primes: Bool = true
    ) -> Int {
        pendingRewind = 0
        // How far back the output could write this call: told before each call, for it alone
        // (an output that never tells, such as a lost server's stand-in, goes back over nothing).
        let rewritable = rewritableFrameCount.exchange(0, ordering: .relaxed)
        guard let destination = buffer.baseAddress else { return 0 }
        let channels = format.channelCount
        let frames = buffer.count / channels
        var current = currentGeneration.load(ordering: .acquiring)
        let available = markerWrite.load(ordering: .acquiring)
        // The rest of the request the output told of, or this call's frames.
        let request = noteRequest(frames: frames, waiting: playedGeneration < current)
        if primes, !isPrimed(generation: current, available: available, requested: request, rewritable: rewritable) {
            // Stale audio goes now, as it would below: it holds room the new audio needs.
            discardStale()
            destination.update(repeating: 0, count: buffer.count)
            lastCallEndedInGap = true
            silenceSincePlayed += frames
            requestLeft = request - frames
            return 0
        }
        // Loaded after `available`: a chunk written after a splice began is seen with it.
        let epoch = currentEpoch.load(ordering: .acquiring)
        let splice = Double(bitPattern: spliceBits.load(ordering: .relaxed))
        var markerIndex = markerRead.load(ordering: .relaxed)
        var readPosition = readFrame.load(ordering: .relaxed)
        let gain = muted.load(ordering: .relaxed) ? 0 : volume
        let isPaused = paused.load(ordering: .relaxed)
        // Frames heard before the start gate stay silent.
        // The user's audio delay moves when the picture takes each frame to be heard.
        let heardAt = hostTime + outputLatency - audioDelay
        let gate = Double(bitPattern: startGateBits.load(ordering: .relaxed))
        let lead = heardAt < gate ? min(frames, Int(((gate - heardAt) * Double(format.sampleRate) - 1e-6).rounded(.up))) : 0
        if lead > 0 { destination.update(repeating: 0, count: lead * channels) }

        var filled = lead
        let spliceArrived = completedEpoch.load(ordering: .acquiring) >= epoch
        var lastEpoch = playedEpoch
        var lastRate = playedRate
        var firstMedia = CMTime.invalid
        var firstRate = 0.0
        var firstGeneration = current
        var endMedia = Double.nan
        var overSilence = false
        while markerIndex < available {
            let marker = markers[markerIndex % markerCapacity]
            let remaining = marker.frameCount - headOffset
            if marker.generation > current { current = marker.generation }
            // Audio queued before a splice plays up to its point, then gives way, once the
            // re-made audio is all in (until then the old audio is better than silence: an
            // output that rewrites what it holds goes back over it).
            let playable = marker.epoch < epoch && spliceArrived
                ? framesBefore(splice, in: marker) - headOffset : remaining
            if marker.generation < current || playable <= 0 {
                readPosition += remaining
                markerIndex += 1
                headOffset = 0
                continue
            }
            if isPaused || filled == frames { break }
            let count = min(playable, frames - filled)
            if filled == lead {
                firstMedia = mediaTime(of: marker, offset: headOffset)
                firstRate = playbackRate(of: marker)
                firstGeneration = marker.generation
                if lead == 0 {
                    overSilence = marker.generation != playedGeneration
                    pendingRewind = overSilence
                        ? rewindOverSilence(rewritable: rewritable, heardAt: heardAt, gate: gate)
                        : rewind(toPlay: marker, from: firstMedia)
                }
            }
            lastEpoch = marker.epoch
            lastRate = playbackRate(of: marker)
            copyOut(from: readPosition, frames: count, to: destination + filled * channels, gain)
            filled += count
            readPosition += count
            headOffset += count
            endMedia = marker.media.seconds
                + marker.mediaDuration.seconds * Double(headOffset) / Double(max(1, marker.frameCount))
            if headOffset == marker.frameCount {
                markerIndex += 1
                headOffset = 0
            }
        }
        readFrame.store(readPosition, ordering: .releasing)
        markerRead.store(markerIndex, ordering: .releasing)
        if overSilence {
            // The output renders as much again as it goes back: only as far as the ring holds
            // audio beyond this call (a start's first call takes what was primed, and the
            // silence rendered after it would be a gap in the sound).
            pendingRewind = min(pendingRewind, max(0, writeFrame.load(ordering: .acquiring) - readPosition))
        }
        if !endMedia.isNaN {
            renderedEndBits.store(endMedia.bitPattern, ordering: .releasing)
            renderedEndGeneration.store(current, ordering: .releasing)
        }
        if filled < frames {
            (destination + filled * channels).update(
                repeating: 0, count: buffer.count - filled * channels)
        }
        if filled > lead {
            renderedFrames.wrappingAdd(filled - lead, ordering: .relaxed)
            (playedEpoch, playedRate, silenceSincePlayed) = (lastEpoch, lastRate, frames - filled)
            // Audio that goes back over queued audio is heard that much sooner.
            publishClock(
                media: firstMedia, rate: firstRate, frames: filled - lead, generation: firstGeneration,
                host: heardAt + Double(lead - pendingRewind) / Double(format.sampleRate))
        } else if !isPaused {
            // (A paused ring's silence is not queued audio: outputs stop for a pause.)
            silenceSincePlayed += frames
        }
        if filled < frames && !isPaused && lead < frames && playedGeneration == current
            && endedGeneration.load(ordering: .acquiring) != current
        {
            underruns.wrappingAdd(1, ordering: .relaxed)
        }
        lastCallEndedInGap = filled < frames
        // The output renders as much again as the call goes back over.
        requestLeft = request - frames + pendingRewind
        return filled
    }

    /// Frames the call goes back over when it starts with re-made audio (a newer splice
    /// epoch) whose media time is before the end of what the last calls rendered: the old
    /// audio from that time on, and the silence rendered after it. The output writes the call
    /// that far back if it can (``AudioOutput/rewritesQueuedAudio``); at most a second.
    private func rewind(toPlay marker: ChunkMarker, from start: CMTime) -> Int {
        guard marker.epoch > playedEpoch, marker.generation == playedGeneration, start.isNumeric,
            renderedEndGeneration.load(ordering: .relaxed) == marker.generation, playedRate > 0
        else { return 0 }
        let behind = Double(bitPattern: renderedEndBits.load(ordering: .relaxed)) - start.seconds
        guard behind > 1e-6 else { return 0 }
        let frames = Int((behind / playedRate * Double(format.sampleRate)).rounded()) + silenceSincePlayed
        return min(frames, format.sampleRate)
    }

    /// Frames a generation's first audio (a start, a seek) goes back over: the silence rendered
    /// since the last audio played (while the new audio was awaited: a sound server asks for
    /// its whole queue as a seek's flush empties it), as far as the output could overwrite and
    /// never to before the start gate; at most a second. Every frame it goes back over is
    /// silence: the output's last frames are that silence.
    private func rewindOverSilence(rewritable: Int, heardAt: Double, gate: Double) -> Int {
        var frames = min(silenceSincePlayed, rewritable, format.sampleRate)
        if gate.isFinite {
            frames = min(frames, max(0, Int(((heardAt - gate) * Double(format.sampleRate) + 1e-6).rounded(.down))))
        }
        return max(0, frames)
    }

    /// Learns the output's requests (see ``AudioRingBuffer/largestRenderRequest``) and returns
    /// the frames this call's request has left, this call's included: what the output told
    /// (``AudioRenderSource/setRequestFrames(_:)``) or the call's own. A told value that is
    /// what the last call left continues that request; another starts a new one, which counts
    /// as the start's bite while the sound waits to start (a sound server asks for its whole
    /// queue after a flush: kept only until the sound starts) and as a usual request after.
    /// Consumer side.
    private func noteRequest(frames: Int, waiting: Bool) -> Int {
        let told = requestFrameCount.exchange(0, ordering: .relaxed)
        if told > 0, told != requestLeft {
            if waiting { noteStartBite(told) } else { noteOutputRequest(told) }
        }
        noteOutputRequest(frames)
        return max(frames, told)
    }

    /// What the last render call goes back over (see ``AudioRenderSource/takeRewindFrames()``);
    /// 0 once read. Consumer side, right after the call.
    package func takeRewindFrames() -> Int {
        defer { pendingRewind = 0 }
        return pendingRewind
    }

    /// True when the producer marked the end of the current generation and every frame of it
    /// has been rendered: what follows is the next item's, not a dropout. Consumer side.
    package var hasPlayedToEnd: Bool {
        guard isAtEnd else { return false }
        return markerRead.load(ordering: .relaxed) == markerWrite.load(ordering: .acquiring)
    }

    /// Skips every chunk older than ``generation`` without rendering anything, so the producer
    /// can write the new position's audio at once. Consumer side: call it from the render
    /// thread, or while the output is stopped (no render call running or starting until the
    /// next `start()`, which orders this call before the next render).
    package func discardStale() {
        let current = currentGeneration.load(ordering: .acquiring)
        let available = markerWrite.load(ordering: .acquiring)
        var markerIndex = markerRead.load(ordering: .relaxed)
        var readPosition = readFrame.load(ordering: .relaxed)
        while markerIndex < available {
            let marker = markers[markerIndex % markerCapacity]
            guard marker.generation < current else { break }
            readPosition += marker.frameCount - headOffset
            markerIndex += 1
            headOffset = 0
        }
        readFrame.store(readPosition, ordering: .releasing)
        markerRead.store(markerIndex, ordering: .releasing)
    }

    /// True when the current generation may play: its first frame already did, priming is
    /// off, its audio ended, or at least ``primeFrames`` frames of it (or newer) wait, and
    /// enough for the whole of this request; for a call that goes back over `rewritable`
    /// frames of queued silence, that many more and half ``fillAheadFrames`` beyond (the call
    /// raises ``fillTarget`` to hold that much until the sound starts). Never more than half
    /// ``fillAheadFrames`` short of ``fillTarget``: the producer, writing at most that much at
    /// a time, gets there. Consumer side; walks at most the queued markers, allocating
    /// nothing.
    private func isPrimed(generation current: Int, available: Int, requested: Int, rewritable: Int) -> Bool {
        let prime = primeFrameCount.load(ordering: .relaxed)
        if endedGeneration.load(ordering: .acquiring) >= current {
            // All of it waits (or none comes): the start's bite is not kept for it.
            startBite.store(0, ordering: .relaxed)
            return true
        }
        guard prime > 0, playedGeneration < current, !paused.load(ordering: .relaxed) else { return true }
        var needed = min(max(prime, requested), capacityFrames * 3 / 4)
        // What the producer surely reaches (a ring smaller than its fill margin is a test's,
        // and waits as before).
        if fillTarget > fillAheadFrames / 2 {
            if rewritable > 0 {
                // The call that starts takes as much again as it goes back over.
                noteStartBite(requested + rewritable)
                needed = max(needed, requested + rewritable + fillAheadFrames / 2)
            }
            needed = min(needed, fillTarget - fillAheadFrames / 2)
        }
        var waiting = 0  // nothing of this generation played, so no chunk of it is part-read
        var index = markerRead.load(ordering: .relaxed)
        while index < available {
            let marker = markers[index % markerCapacity]
            if marker.generation >= current {
                // A newer generation's chunk replaces what came before it.
                if marker.generation > current { return isPrimedAfterFlush(from: index, available: available, needed) }
                waiting += marker.frameCount
                if waiting >= needed { return true }
            }
            index += 1
        }
        return false
    }

    /// Priming counted from the first chunk of a generation newer than the current one.
    private func isPrimedAfterFlush(from start: Int, available: Int, _ needed: Int) -> Bool {
        let newest = markers[start % markerCapacity].generation
        if endedGeneration.load(ordering: .acquiring) >= newest { return true }
        var waiting = 0
        for index in start..<available where markers[index % markerCapacity].generation >= newest {
            waiting += markers[index % markerCapacity].frameCount
            if waiting >= needed { return true }
        }
        return false
    }

    private func publishClock(
        media: CMTime, rate: Double, frames: Int, generation: Int, host: Double
    ) {
        // A new run of audible audio starts after silence or a flush; the clock must not read
        // earlier than its first frame while that frame is still on its way to the listener.
        if lastCallEndedInGap || playedGeneration != generation || !clockFloor.isNumeric {
            clockFloor = media
        }
        // Started: the producer goes back to keeping ahead of the output's usual requests.
        if playedGeneration != generation { startBite.store(0, ordering: .relaxed) }
        playedGeneration = generation
        // Audio a device holds before it starts playing is heard at a time nobody knows yet.
        guard media.isNumeric, outputPlays.load(ordering: .relaxed) else { return }
        clockPublisher.publish(
            AudioClockSnapshot(
                media: media, host: host, rate: rate,
                // A picture set to run ahead of the sound (a positive audio delay) may run
                // that much past the audio rendered so far.
                span: Double(frames) / Double(format.sampleRate) + max(0, audioDelay), floor: clockFloor,
                generation: generation))
    }

    /// Media time of the frame `offset` frames into `marker`.
    private func mediaTime(of marker: ChunkMarker, offset: Int) -> CMTime {
        guard offset > 0, marker.mediaDuration.isNumeric else { return marker.media }
        return marker.media
            + CMTimeMultiplyByRatio(
                marker.mediaDuration, multiplier: Int32(clamping: offset),
                divisor: Int32(clamping: marker.frameCount))
    }

    /// Media seconds per host second in `marker` (its media duration over its play duration).
    private func playbackRate(of marker: ChunkMarker) -> Double {
        guard marker.mediaDuration.isNumeric, marker.frameCount > 0 else { return 1 }
        return marker.mediaDuration.seconds * Double(format.sampleRate) / Double(marker.frameCount)
    }

    /// Copies `frames` frames starting at absolute frame `start` to `destination`, scaled by
    /// `gain`, handling wrap-around.
    private func copyOut(
        from start: Int, frames: Int, to destination: UnsafeMutablePointer<Float>, _ gain: Float
    ) {
        let channels = format.channelCount
        let slot = start % capacityFrames
        let firstPart = min(frames, capacityFrames - slot)
        copySamples(
            from: samples + slot * channels, to: destination, count: firstPart * channels, gain)
        if firstPart < frames {
            copySamples(
                from: samples, to: destination + firstPart * channels,
                count: (frames - firstPart) * channels, gain)
        }
    }

    private func copySamples(
        from source: UnsafeMutablePointer<Float>, to destination: UnsafeMutablePointer<Float>,
        count: Int, _ gain: Float
    ) {
        if gain == 1 {
            destination.update(from: source, count: count)
        } else {
            for index in 0..<count { destination[index] = source[index] * gain }
        }
    }
}
