// Playhead: the video decode thread: packets in, frames out, exact seeks resolved here.
//
// Concurrency: runs on its own thread, which owns the VideoDecoder, its run since the last
// flush (`DecoderRun`), the keyframe-only gate of fast playback (`KeyframeOnlyGate`) and its
// per-generation state, and the caption feed (captions carried in the pictures, decoded here into the
// switchboard's caption backlog, which locks). Reads the exact target of a new generation and
// the rate from the coordinator's state and posts the landing, the end, and a skip for want
// of references after fast play (`videoAwaitsKeyframe`). Sleeps on `videoWake` while paused with the current generation's
// first frame delivered.
import FFmpegBridge
import Foundation

/// Per-generation state of the video decode thread.
private struct VideoSeekState {
    let generation: Int
    /// The exact seek this generation resolves (nil after opening and for inexact seeks):
    /// decides which packets before its target need no decoding.
    let exactSeek: ExactSeekFilter?
    /// The time an exact seek of this generation must land on: `exactSeek?.target`, kept as a
    /// stored copy on purpose. As a computed property over `exactSeek`, Swift 6.3.1's release
    /// optimiser aborts on `deliver(_:_:_:force:)` ("Found ownership error", CopyPropagation);
    /// `init` is the only place that sets both, so they cannot disagree.
    let exactTarget: CMTime?
    /// True once a frame of this generation was passed on.
    var delivered = false
    /// The last frame discarded before an exact target: shown if nothing reaches the target.
    var fallback: VideoFrame?
    /// The time of the first picture, shown ahead of the decoder (`previewFrame(of:)`): the
    /// decoder's own copy of it, and anything before it, is not passed on again.
    var previewedThrough: CMTime?
    /// When this generation goes on with the decoder's run (`DecoderRun`): the decode time of
    /// the last packet the decoder took before, so the demuxer's new reading of it and of
    /// everything before it is dropped.
    var takenThrough: CMTime?
    /// The thread's closed caption feed (the same object in every generation); nil without video.
    let captions: CaptionFeed?
    /// True once this generation asked for the exact seek that ends skipping for want of
    /// references (`videoAwaitsKeyframe`).
    var askedForPictureSeek = false

    /// The state at the start of `generation` (-1: none yet), resolving `exactSeek` if given.
    init(generation: Int = -1, exactSeek: ExactSeekFilter? = nil, captions: CaptionFeed?) {
        self.generation = generation
        self.exactSeek = exactSeek
        self.exactTarget = exactSeek?.target
        self.captions = captions
    }
}

extension ItemPlayback {
    func runVideoDecode(_ decoder: any VideoDecoding, _ pipeline: Pipeline) {
        var run = DecoderRun()
        var gate = KeyframeOnlyGate()
        var state = VideoSeekState(
            captions: pipeline.videoStream.map {
                CaptionFeed(videoStream: $0, backlog: pipeline.switchboard.captions)
            })
        while !isStopped {
            if state.delivered, isPausedAt(state) {
                // Paused with this generation's first frame out: decoding ahead would only keep
                // the decoder's threads busy when the next seek comes, which then waits for
                // them. Play, a seek or stop wakes this thread.
                sleep(until: .infinity, on: videoWake)
                continue
            }
            guard let item = pipeline.videoPackets.take() else {
                if isStopped || pipeline.videoPackets.statistics.isAborted { return }
                guard let ended = endOfStreamGeneration(of: pipeline.videoPackets) else { continue }
                _ = decoder.sendEndOfStream()
                drainFrames(decoder, pipeline, &state, &run)
                if !state.delivered, let fallback = state.fallback {
                    deliver(fallback, pipeline, &state, force: true)
                }
                post(.videoEnded(generation: ended))
                waitForNewGeneration(after: ended, on: videoWake)
                decoder.flush()
                run.flushed()
                gate.decoderFlushed()
                state = VideoSeekState(captions: state.captions)
                continue
            }
            if item.generation != state.generation {
                state.captions?.seeked()
                let (target, end, isNetwork) = coordinator.read {
                    ($0.exactTarget(of: item.generation), $0.duration, $0.isNetwork)
                }
                // A network stream's seek may read another variant's keyframe: always restart.
                let goesOn = !isNetwork && target.map { run.canGoOn(from: item.element, toExactTarget: $0) } == true
                if !goesOn {
                    decoder.flush()
                    run.flushed()
                }
                gate.decoderFlushed()
                state = VideoSeekState(
                    generation: item.generation,
                    exactSeek: target.map { ExactSeekFilter(target: $0, end: end) },
                    captions: state.captions)
                if goesOn {
                    state.takenThrough = run.lastTaken
                    state.fallback = run.latestPicture
                }
            }
            let packet = item.element
            if let through = state.takenThrough {
                // Read again from the keyframe; the decoder took it all before this seek.
                if !packet.dts.isNumeric || packet.dts <= through { continue }
                state.takenThrough = nil
            }
            // Fast playback decodes keyframes only once this generation's first picture is out
            // (an exact seek's target is decoded as usual).
            let keyframesOnly = state.delivered && coordinator.read { $0.decodesKeyframesOnly }
            let verdict = gate.verdict(for: packet, keyframesOnly: keyframesOnly)
            if verdict != .decode, !keyframesOnly, !state.askedForPictureSeek {
                // Fast play ended while pictures were being skipped: the engine decides on an
                // exact seek to where time stands rather than wait for the next keyframe.
                state.askedForPictureSeek = true
                _ = post(.videoAwaitsKeyframe(generation: state.generation, host: environment.hostClock.now))
            }
            switch verdict {
            case .decode: break
            case .skip: continue
            case .skipAfterDraining:
                // Nothing follows the keyframe into the decoder: let its picture out now.
                _ = decoder.sendEndOfStream()
                let pictures = drainFrames(decoder, pipeline, &state, &run)
                // (A drain a newer seek cut short says nothing of the stream.)
                if !isSuperseded(state) { gate.drained(letOut: pictures) }
                decoder.flush()
                run.flushed()
                continue
            }
            if !state.delivered, state.exactTarget == nil, let first = decoder.previewFrame(of: packet) {
                // The first picture after opening shows without waiting for the decoder's
                // threads to fill up and its reordering to let it out.
                deliver(first, pipeline, &state, force: false)
                state.previewedThrough = first.pts.isNumeric ? first.pts : nil
            }
            if let exactSeek = state.exactSeek, !state.delivered {
                // Frames that end before the target are never shown: skip decoding them when
                // nothing references them.
                decoder.skipsNonReferenceFrames = exactSeek.maySkipDecoding(of: packet)
            } else if decoder.skipsNonReferenceFrames {
                decoder.skipsNonReferenceFrames = false
            }
            var status = decoder.send(packet)
            while status == .outputFull {
                gate.noteLetOut(drainFrames(decoder, pipeline, &state, &run))
                // After a seek, frames of this generation are worthless: go flush for the new
                // one instead of waiting for the decoder to finish them one by one. A stopped
                // item takes no more frames (its decoder would stay full).
                if isSuperseded(state) || isStopped { break }
                status = decoder.send(packet)
            }
            switch status {
            case .accepted, .dropped:
                run.took(packet, skippingBefore: decoder.skipsNonReferenceFrames ? state.exactTarget : nil)
            case .failure:
                run.failed()
            case .outputFull:
                break  // not taken: superseded first
            }
            gate.noteLetOut(drainFrames(decoder, pipeline, &state, &run))
        }
    }

    /// True while playback is paused and no seek moved past `state`'s generation. A held
    /// engine (prerolled for a queue or a looper) is not paused in this sense: its frames
    /// should be ready to go on the moment it becomes current.
    private func isPausedAt(_ state: VideoSeekState) -> Bool {
        coordinator.read { $0.isPaused(at: state.generation) }
    }

    /// True when a seek issued since `state`'s generation makes its frames worthless.
    private func isSuperseded(_ state: VideoSeekState) -> Bool {
        coordinator.read { $0.generation } != state.generation
    }

    /// Passes on every picture the decoder lets out now; returns how many it let out.
    @discardableResult
    private func drainFrames(
        _ decoder: any VideoDecoding, _ pipeline: Pipeline, _ state: inout VideoSeekState, _ run: inout DecoderRun
    ) -> Int {
        var count = 0
        while !isStopped, !isSuperseded(state) {
            switch decoder.receiveFrame() {
            case .frame(let frame):
                count += 1
                run.letOut(frame)
                deliver(frame, pipeline, &state, force: false)
            case .needsInput, .endOfStream, .failure:
                return count
            }
        }
        return count
    }

    private func deliver(
        _ frame: VideoFrame, _ pipeline: Pipeline, _ state: inout VideoSeekState, force: Bool
    ) {
        if let previewed = state.previewedThrough, frame.pts.isNumeric {
            if frame.pts <= previewed { return }
            state.previewedThrough = nil
        }
        // Every picture's captions, once each and in order, even those an exact seek skips.
        state.captions?.take(frame)
        if let target = state.exactTarget, !state.delivered, !force,
            ExactSeekFilter.verdict(pts: frame.pts, duration: frame.duration, target: target) == .discard
        {
            state.fallback = frame
            return
        }
        if !state.delivered {
            state.delivered = true
            state.fallback = nil
            let landing = state.exactTarget.map { max($0, .zero) } ?? frame.pts
            let generation = state.generation
            post(.videoLanding(generation: generation, at: landing))
        }
        _ = pipeline.videoFrames.put(
            frame, cost: 1, duration: frame.duration.isNumeric ? frame.duration : .zero,
            generation: state.generation)
        presenterWake.wake()
    }

    /// Sleeps until a seek moves past `generation` or playback stops.
    func waitForNewGeneration(after generation: Int, on signal: WakeupSignal) {
        // Seeks and stop wake `signal`; nothing else can end the wait.
        while coordinator.read({ !$0.stopped && $0.generation <= max(generation, 0) }) {
            sleep(until: .infinity, on: signal)
        }
    }
}
