// Playhead: the audio thread: decodes, converts (rate, format), trims after seeks and feeds
// the ring buffer the audio device reads. When another audio track is selected it takes that
// track's decoder and recent packets from the pipeline's switchboard and splices the new track
// in where the audio already in the ring ends (ItemPlayback+AudioSwitch.swift), so the clock
// runs on without a gap.
//
// Concurrency: runs on its own thread, which owns the AudioDecoder and AudioConverter and is
// the ring buffer's only producer. Asks the coordinator how each chunk meets a seek, posts what
// it wrote and the end, and waits for ring space by sleeping on `audioWake`.
import FFmpegBridge
import Foundation

extension ItemPlayback {
    /// The longest sleep of the audio thread while the ring is full and playing: the ring holds
    /// a quarter second beyond the output's largest bite, and an output that takes large bites
    /// (a device with long periods, a clock that moves in coarse steps) would drain it between
    /// longer sleeps.
    static let ringRefillCap = 0.02
    /// The shortest time between two re-makes of an output's queued audio for a new volume
    /// (seconds): a fade sets the volume many times a second.
    static let volumeRemakeInterval = 0.1
    /// How much audio the audio thread keeps in the ring ahead of the output once the output
    /// took its largest bite (seconds; ``AudioRingBuffer/fillTarget``); the ring's room beyond
    /// it is for audio re-made after a rate change.
    static let ringFillSeconds = 0.25

    func runAudio(_ firstDecoder: any AudioDecoding, _ pipeline: Pipeline) {
        guard let ring = pipeline.ring else { return }
        let converter = AudioConverter(sampleRate: ring.format.sampleRate, channels: ring.format.channelCount)
        var decoder = firstDecoder
        var splice = AudioSplice(stream: firstDecoder.streamIndex)
        var generation = -1
        var volumeChangesSeen = ring.volumeChanges
        var lastVolumeRemake = -Double.infinity
        while !isStopped {
            guard let item = pipeline.audioPackets.take() else {
                if isStopped || pipeline.audioPackets.statistics.isAborted { return }
                guard let ended = endOfStreamGeneration(of: pipeline.audioPackets) else { continue }
                _ = decoder.sendEndOfStream()
                decodeAvailable(decoder, converter, ring, generation, &splice)
                for chunk in converter.drain() { write(chunk, to: ring, generation: generation, &splice) }
                // What the ring lacks from here on is the end, not a dropout.
                ring.markEnd(generation: ended)
                post(.audioEnded(generation: ended))
                waitForNewGeneration(after: ended, on: audioWake)
                decoder.flush()
                converter.reset()
                generation = -1
                continue
            }
            if item.generation != generation {
                decoder.flush()
                converter.reset()
                generation = item.generation
                splice = AudioSplice(stream: decoder.streamIndex)
            }
            // Paused or held, the audio ahead is made at the rate play will run at. A new rate
            // re-makes what is queued from just ahead of what plays, so it is heard at once.
            let tempo = coordinator.read { $0.audioTempo }
            let volumeChanges = ring.volumeChanges
            if settings.keepsPitch, abs(tempo - converter.tempo) > 1e-9 {
                if !respliceAtTempo(tempo, converter, ring, generation: generation, &splice, pipeline) {
                    converter.setTempo(tempo)
                }
                volumeChangesSeen = volumeChanges
            } else if volumeChanges != volumeChangesSeen,
                environment.hostClock.now - lastVolumeRemake >= Self.volumeRemakeInterval
            {
                // A new volume (or mute): the output's queued audio is made again from just
                // ahead of what is heard and rendered at the new gain over what it holds. A fade
                // (many changes a second) re-makes it at most every `volumeRemakeInterval`.
                volumeChangesSeen = volumeChanges
                if outputRewritesQueuedAudio(pipeline),
                    respliceAtTempo(converter.tempo, converter, ring, generation: generation, &splice, pipeline)
                {
                    lastVolumeRemake = environment.hostClock.now
                }
            }
            splice.tempoChanged = false
            if let next = switchedDecoder(from: decoder, pipeline, generation: generation, splice: splice) {
                decoder = next.decoder
                converter.reset()
                // The buffer is the new track's from now on: the ring's audio and its packets.
                let through = next.backlog.map(StreamSwitchboard.end(of:)).filter(\.isNumeric).max()
                post(.audioSwitched(
                    stream: decoder.streamIndex,
                    bufferedThrough: [through, splice.writtenEnd].compactMap { $0 }.filter(\.isNumeric).max() ?? .invalid,
                    generation: generation, host: environment.hostClock.now))
                splice.begin(stream: decoder.streamIndex)
                for packet in next.backlog {
                    decode(packet, decoder, converter, ring, generation, &splice)
                }
            }
            // Packets of a track no longer selected are dropped.
            guard item.element.streamIndex == decoder.streamIndex else { continue }
            decode(item.element, decoder, converter, ring, generation, &splice)
        }
    }

    private func decode(
        _ packet: Packet, _ decoder: any AudioDecoding, _ converter: AudioConverter, _ ring: AudioRingBuffer,
        _ generation: Int, _ splice: inout AudioSplice
    ) {
        var status = decoder.send(packet)
        // A stopped item takes no more frames, so its decoder stays full: stop sending (this
        // once spun the audio thread of a released item forever).
        while status == .outputFull, !isStopped {
            decodeAvailable(decoder, converter, ring, generation, &splice)
            status = decoder.send(packet)
        }
        decodeAvailable(decoder, converter, ring, generation, &splice)
    }

    private func decodeAvailable(
        _ decoder: any AudioDecoding, _ converter: AudioConverter, _ ring: AudioRingBuffer, _ generation: Int,
        _ splice: inout AudioSplice
    ) {
        while !isStopped, case .frame(let frame) = decoder.receiveFrame() {
            splice.keep(frame, played: ring.renderedEndSeconds(ofGeneration: generation))
            // After a rate change the frames wait to be made at the new tempo with the rest.
            if splice.tempoChanged { continue }
            for chunk in converter.convert(frame) where !splice.tempoChanged {
                write(chunk, to: ring, generation: generation, &splice)
            }
        }
    }

    /// Trims `chunk` to the seek's landing time (and a track switch's splice point) and writes
    /// it, waiting for space: the ring is filled to half its size, the other half kept for
    /// audio re-made after a rate change (which may use it). Gives up, marking
    /// `splice.tempoChanged`, when the rate changes while it waits.
    func write(_ chunk: PCMChunk, to ring: AudioRingBuffer, generation: Int, _ splice: inout AudioSplice) {
        guard let seekTrimmed = trimForSeek(chunk, generation: generation),
            let trimmed = splice.trim(seekTrimmed), trimmed.frameCount > 0
        else {
            return
        }
        // A hole in the timestamps before it plays as silence (see `AudioSplice.silence`).
        if let silence = splice.silence(before: trimmed) {
            guard put(silence, to: ring, generation: generation, &splice) else { return }
        }
        guard put(trimmed, to: ring, generation: generation, &splice) else { return }
        post(.audioWritten(seconds: trimmed.mediaDuration.seconds, generation: generation, host: environment.hostClock.now))
    }

    /// Writes `trimmed` into the ring in steps, waiting for space; false when it gave up (the
    /// generation, the track or the rate changed while it waited, or the item stopped).
    private func put(_ trimmed: PCMChunk, to ring: AudioRingBuffer, generation: Int, _ splice: inout AudioSplice) -> Bool {
        // In parts of at most an eighth of a second: a long chunk (silence over a hole, a
        // decoder's large frame) goes in as the ring drains instead of waiting until the ring
        // has room for all of it (a quarter second written at once needed the ring empty).
        let step = max(1, min(trimmed.frameCount, ring.fillAheadFrames / 2))
        let chunkTempo = trimmed.mediaDuration.seconds / max(trimmed.playbackDuration.seconds, 1e-9)
        var offset = 0
        while offset < trimmed.frameCount {
            let count = min(step, trimmed.frameCount - offset)
            let part = trimmed.slice(from: offset, count: count)
            while !isStopped {
                // The ring and the clock read together: a sleep below ends when the ring has
                // drained from this reading, even if this thread is held up before it sleeps
                // (a later clock reading would oversleep by the delay, and an output that
                // takes the audio only as it is topped up would wait for it forever).
                let (checked, buffered) = (environment.hostClock.now, ring.bufferedFrames)
                // Read each time: the output's bites are learnt as it plays.
                let target = ring.fillTarget
                // Audio of an older generation (a seek just made it stale) waits only for the
                // output to skip it at its next callback: it takes no part of the target, or
                // the new audio would wait for the clock to move first.
                let stale = (ring.headGeneration ?? generation) < generation
                let fits = splice.isRemaking || buffered + count <= target
                    || (stale && splice.framesWritten + count <= target)
                let written = fits && part.samples.withUnsafeBufferPointer {
                    ring.write($0, mediaTime: part.mediaTime, mediaDuration: part.mediaDuration, generation: generation)
                }
                if written { break }
                let (current, wanted, playsSound, tempo) = coordinator.read {
                    ($0.generation, $0.selection.audioStream, $0.playsSound, $0.audioTempo)
                }
                if current != generation { return false }
                // Another track was selected (and can take over): stop waiting to write this
                // one's audio.
                if let wanted, wanted != splice.stream,
                    self.pipeline?.switchboard.canSwitchAudio(to: wanted, through: splice.writtenEnd) ?? true
                {
                    return false
                }
                // Another rate: this audio is re-made at its tempo with the rest.
                if settings.keepsPitch, !splice.isRemaking, abs(tempo - chunkTempo) > 1e-3 {
                    splice.tempoChanged = true
                    return false
                }
                // The ring is full: sleep until about half of it has played, at most
                // `ringRefillCap`. Seeks, selection changes and stop wake the thread early.
                let ahead = Double(buffered) / Double(ring.format.sampleRate)
                let filled = Double(target) / Double(ring.format.sampleRate)
                let pause = min(Self.ringRefillCap, max(0.005, ahead - filled / 2))
                // Paused, nothing drains the ring: sleep until play, a seek, a switch or stop
                // wakes the thread. A held item the shared device already plays (it follows
                // the current one) is drained although its rate is still 0.
                let drained = playsSound || self.pipeline?.audioOutput?.isRenderingWhileStopped == true
                let until = drained ? checked + pause : .infinity
                sleep(until: until, on: audioWake)
            }
            splice.wrote(part)
            offset += count
        }
        return !isStopped
    }

    /// Drops audio before the seek's landing time (and before zero); nil when the chunk is stale
    /// or all before it.
    private func trimForSeek(_ chunk: PCMChunk, generation: Int) -> PCMChunk? {
        while true {
            guard case .audio(let decision) = post(.audioChunk(generation: generation, start: chunk.mediaTime))
            else { return nil }
            let landing: CMTime
            switch decision {
            case .drop: return nil
            case .writeWhole:
                // Nothing plays before the item's start: audio stamped before zero (an HLS
                // rendition's first frame, read apart from the video that sets zero) is cut
                // there, so time runs from the start with the clock instead of behind it.
                guard chunk.mediaTime < .zero else { return chunk }
                landing = .zero
            case .trim(let at): landing = at
            case .waitForVideo:
                // A keyframe seek lands where the first video frame is: wait for it.
                sleep(until: environment.hostClock.now + 0.01, on: audioWake)
                continue
            }
            let end = chunk.mediaTime + chunk.mediaDuration
            if end <= landing { return nil }
            guard chunk.mediaTime < landing else { return chunk }
            let skipSeconds = (landing - chunk.mediaTime).seconds
            let tempo = chunk.mediaDuration.seconds / max(chunk.playbackDuration.seconds, 1e-9)
            let skipFrames = Int((skipSeconds / tempo * Double(chunk.sampleRate)).rounded())
            return chunk.slice(from: min(skipFrames, chunk.frameCount), count: max(0, chunk.frameCount - skipFrames))
        }
    }
}

extension PCMChunk {
    /// Frames `offset..<offset+count` as their own chunk, with times adjusted.
    func slice(from offset: Int, count: Int) -> PCMChunk {
        if offset == 0 && count == frameCount { return self }
        let tempo = mediaDuration.seconds / max(playbackDuration.seconds, 1e-9)
        let start = mediaTime + CMTime(seconds: Double(offset) / Double(sampleRate) * tempo, preferredTimescale: 1_000_000)
        let length = CMTime(seconds: Double(count) / Double(sampleRate) * tempo, preferredTimescale: 1_000_000)
        let values = Array(samples[(offset * channels)..<((offset + count) * channels)])
        return PCMChunk(
            samples: values, frameCount: count, channels: channels, sampleRate: sampleRate,
            mediaTime: start, mediaDuration: length)
    }
}
