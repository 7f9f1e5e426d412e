// Playhead: the demux thread: reads packets into the per-stream queues, performs seeks and
// reports buffering.
//
// Concurrency: runs on its own thread, which owns the Demuxer. Reads `control` for seeks and
// stop; writes only buffering progress into it.
import FFmpegBridge
import Foundation

extension ItemPlayback {
    /// Starts the engine's threads, handing each its FFmpeg objects.
    func startThreads(demuxer: Demuxer, video: VideoDecoder?, audio: AudioDecoder?, pipeline: Pipeline) {
        let demux = UncheckedBox(demuxer), videoBox = UncheckedBox(video), audioBox = UncheckedBox(audio)
        spawn("demux") { self.runDemux(demux.value, pipeline) }
        if let decoder = videoBox.value {
            let box = UncheckedBox(decoder)
            spawn("video") { self.runVideoDecode(box.value, pipeline) }
        } else {
            pipeline.videoFrames.markEndOfStream()
        }
        if let decoder = audioBox.value {
            let box = UncheckedBox(decoder)
            spawn("audio") { self.runAudio(box.value, pipeline) }
        }
        spawn("show") { self.runPresenter(pipeline) }
        applyInitialLegibleSelection(pipeline)
        spawn("subs") { self.runSubtitles(pipeline) }
    }

    private func spawn(_ name: String, _ body: @escaping @Sendable () -> Void) {
        NamedThread.start(name, body)
    }

    func runDemux(_ demuxer: Demuxer, _ pipeline: Pipeline) {
        var buffering = BufferTracker(pipeline: pipeline, clock: environment.hostClock)
        var reachedEnd = false
        var router = StreamRouter(description: pipeline.description, audioStream: pipeline.audioStream)
        while true {
            let (stopped, seek, generation, selection) = control.withLock {
                control -> (Bool, PendingSeek?, Int, EngineSelection) in
                let seek = control.seek.flatMap { $0.generation > buffering.seekGeneration ? $0 : nil }
                return (control.stopped, seek, control.generation, control.selection)
            }
            if stopped { return }
            router.follow(selection, demuxer: demuxer, pipeline: pipeline) { self.currentTime() }
            if let seek {
                buffering.seekGeneration = seek.generation
                let request = seek.request
                let earliest = request.toleranceBefore.isNumeric ? request.target - request.toleranceBefore : .negativeInfinity
                let latest = request.toleranceAfter.isNumeric ? request.target + request.toleranceAfter : .positiveInfinity
                // Exact seeks start from the keyframe at or before the target.
                _ = demuxer.seek(
                    to: request.target, earliest: request.isExact ? .negativeInfinity : earliest,
                    latest: request.isExact ? request.target : latest)
                reachedEnd = false
                router.seeked(pipeline)
                buffering.restart(at: request.target)
                continue
            }
            if reachedEnd {
                report(buffering.update(position: currentTime(), endOfStream: true, force: false))
                _ = environment.hostClock.wait(until: environment.hostClock.now + 0.25, on: demuxWake)
                continue
            }
            switch demuxer.readPacket() {
            case .packet(let packet):
                let position = currentTime()
                guard let queue = router.route(packet, pipeline: pipeline, now: position, generation: generation) else { continue }
                buffering.note(packet)
                if let event = buffering.update(position: position, endOfStream: false, force: false) {
                    report(event)
                }
                _ = queue.put(
                    packet, cost: packet.byteCount, duration: packet.duration, generation: generation)
            case .endOfFile:
                reachedEnd = true
                guard markPacketsEnded(pipeline, generation: generation) else { continue }
                report(buffering.update(position: currentTime(), endOfStream: true, force: true))
            case .failure(let failure):
                if failure == .cancelled || isStopped { return }
                // A read error mid-file ends the stream; what was read still plays.
                reachedEnd = true
                markPacketsEnded(pipeline, generation: generation)
            }
        }
    }

    /// Ends both packet queues for `generation`; false when a seek already moved past it.
    @discardableResult
    private func markPacketsEnded(_ pipeline: Pipeline, generation: Int) -> Bool {
        markEndOfStream(generation: generation) { _ in
            pipeline.videoPackets.markEndOfStream()
            pipeline.audioPackets.markEndOfStream()
        }
    }

    private func report(_ event: BufferReport?) {
        if let event { report(.buffer(event)) }
    }
}
