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
    }

    private func spawn(_ name: String, _ body: @escaping @Sendable () -> Void) {
        NamedThread.start(name, body)
    }

    func runDemux(_ demuxer: Demuxer, _ pipeline: Pipeline) {
        startBufferTracking(pipeline)
        var seekGeneration = 0
        var reachedEnd = false
        while true {
            let (stopped, seek, generation) = control.withLock { control -> (Bool, PendingSeek?, Int) in
                let seek = control.seek.flatMap { $0.generation > seekGeneration ? $0 : nil }
                return (control.stopped, seek, control.generation)
            }
            if stopped { return }
            if let seek {
                seekGeneration = seek.generation
                let request = seek.request
                let earliest = request.toleranceBefore.isNumeric ? request.target - request.toleranceBefore : .negativeInfinity
                let latest = request.toleranceAfter.isNumeric ? request.target + request.toleranceAfter : .positiveInfinity
                // Exact seeks start from the keyframe at or before the target.
                _ = demuxer.seek(
                    to: request.target, earliest: request.isExact ? .negativeInfinity : earliest,
                    latest: request.isExact ? request.target : latest)
                reachedEnd = false
                control.withLock { $0.readFailure = nil }
                restartBuffer(at: request.target)
                continue
            }
            if reachedEnd {
                refreshBuffer(endOfStream: true)
                _ = environment.hostClock.wait(until: environment.hostClock.now + 0.25, on: demuxWake)
                continue
            }
            switch demuxer.readPacket() {
            case .packet(let packet):
                let queue = packet.streamIndex == pipeline.videoStream ? pipeline.videoPackets
                    : packet.streamIndex == pipeline.audioStream ? pipeline.audioPackets : nil
                guard let queue else { continue }
                refreshBuffer(noting: packet)
                _ = queue.put(
                    packet, cost: packet.byteCount, duration: packet.duration, generation: generation)
            case .endOfFile:
                reachedEnd = true
                guard markPacketsEnded(pipeline, generation: generation) else { continue }
                refreshBuffer(endOfStream: true, force: true)
            case .failure(let failure):
                if failure == .cancelled || isStopped { return }
                // A read error mid-file ends the stream; what was read still plays. Over the
                // network the item then fails where the data ran out (see `reportEnd`).
                if demuxer.isNetwork { control.withLock { $0.readFailure = failure } }
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
}
