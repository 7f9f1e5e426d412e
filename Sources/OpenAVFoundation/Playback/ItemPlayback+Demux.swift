// Playhead: the demux thread: reads packets into the per-stream queues, performs seeks (from
// the packet cache when network media already holds the target), loads HLS audio renditions
// only while they play, and reports buffering.
//
// Concurrency: runs on its own thread, which owns the Demuxer, the PacketCache and the
// StreamRouter (selected audio and subtitle tracks). Each time round its loop it asks the
// coordinator for its orders (stop, a seek to carry out, the generation and selection), reads
// which audio track the switchboard routes, and it posts what it read (packets for the buffer
// tracker, read failures, the end); it takes the audio queue's end back itself when a rendition
// read on demand starts after everything was read (ItemPlayback+EndOfStream.swift).
import FFmpegBridge
import Foundation

extension ItemPlayback {
    /// Starts the engine's threads, handing each its FFmpeg objects.
    func startThreads(
        demuxer: any PacketSource, video: (any VideoDecoding)?, audio: (any AudioDecoding)?, pipeline: Pipeline
    ) {
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

    func runDemux(_ demuxer: any PacketSource, _ pipeline: Pipeline) {
        startBufferTracking()
        // Network input keeps what it read, so seeks inside it need no new request.
        var cache = demuxer.isNetwork
            ? PacketCache(byteLimit: Self.packetCacheBytes, videoStream: pipeline.videoStream) : nil
        var seekGeneration = 0
        var demuxerAtEnd = false
        var reachedEnd = false
        var router = StreamRouter(description: pipeline.description, audioStream: pipeline.audioStream)
        // After a kept run is reopened, what the demuxer re-reads up to the run's last packets
        // (last decode time per stream) is already queued and is dropped.
        var skipThrough: [Int: CMTime] = [:]
        // A read interrupted for a seek may have left the demuxer mid-packet: the next seek
        // goes through the demuxer, never the cache.
        var readInterrupted = false
        // Until an exact seek (or a fast forward step) lands, reading stays close to its target
        // (`LandingReadAhead`).
        var landingReadAhead = LandingReadAhead()
        // Shoutcast/Icecast titles come inside the HTTP body; libavformat keeps the last one.
        var packetsSinceICYCheck = 0
        // Audio read on demand (HLS audio renditions): the selected and the routed stream the
        // companions were last loaded for.
        let onDemand = pipeline.audioStream == nil ? [:] : demuxer.companionInputs
        var companionsLoaded: AudioOnDemandKey?
        while true {
            guard case .demuxOrders(let orders) = post(.demuxAsks(pickedUpTo: seekGeneration)), !orders.stopped
            else { return }
            let (seek, generation, selection) = (orders.seek, orders.generation, orders.selection)
            router.follow(selection, demuxer: demuxer, pipeline: pipeline) { self.currentTime() }
            if !onDemand.isEmpty, loadAudioOnDemand(demuxer, pipeline, selection, loaded: &companionsLoaded) {
                // Its packets from before the read position follow, even when all else was read.
                cache?.lacksNewAudio()
                demuxerAtEnd = false
                // When all else was read, the audio queue ends after the new track's packets
                // instead (unless the audio thread may have met the end already: the old
                // track then plays to the end).
                if reachedEnd, pipeline.audioPackets.reopenEnd() {
                    reachedEnd = false
                    // A late segment of the new track is then a stall, as before the end.
                    post(.packetsReopened)
                }
            }
            // The audio track read on demand that is to take over, until the audio thread has it.
            let awaited = companionsLoaded.flatMap { $0.selected != $0.routed ? $0.selected : nil }
            if let seek {
                seekGeneration = seek.generation
                reachedEnd = false
                if interrupt.consumeKick() == .cutRead { readInterrupted = true }
                // Served from memory even after a cut read (a seek back into what a stalled
                // stream already delivered): the demuxer then reopens just before the run's
                // last packets (`PacketCache.resumption`), as it does after a reopened run.
                // (Kept packets start at a keyframe at or before a time: never a fast forward
                // step's keyframe after it.)
                if !seek.isForwardStep, replayFromCache(&cache, for: seek.request, afterCutRead: readInterrupted) {
                    readInterrupted = false
                    router.seeked(pipeline)
                    continue
                }
                readInterrupted = false
                let request = seek.request
                // (A forward step needs its keyframe's first pictures, not the seconds after.)
                landingReadAhead.start(exactTarget: request.isExact || seek.isForwardStep ? request.target : nil)
                let earliest = request.toleranceBefore.isNumeric ? request.target - request.toleranceBefore : .negativeInfinity
                let latest = request.toleranceAfter.isNumeric ? request.target + request.toleranceAfter : .positiveInfinity
                // Exact seeks start from the keyframe at or before the target. A step of
                // backward play wants that keyframe alone, one of fast forward the first
                // keyframe after the target (a stream with I-frame playlists fetches just its
                // bytes), and what a streamed input then reads is not kept for later seeks.
                let step: KeyframeStep? = seek.isReverseStep ? .atOrBefore : seek.isForwardStep ? .after : nil
                let moved = demuxer.seek(
                    to: request.target, earliest: request.isExact ? .negativeInfinity : earliest,
                    latest: request.isExact ? request.target : latest, keyframe: step)
                router.seeked(pipeline)
                // An I-frame playlist found unusable (the restart read it), or a local file's
                // listed keyframe it could not seek to: fast forward plays every frame
                // instead, with sound.
                if step == .after, demuxer.isStreamed ? !demuxer.servesKeyframesAlone : !moved {
                    post(.keyframesUnavailable(host: environment.hostClock.now))
                }
                let closedEnd = coordinator.read { $0.buffer?.currentEnd } ?? .zero
                cache?.startRun(at: request.target, closingAt: closedEnd, keeping: !(step != nil && demuxer.isStreamed))
                publishKeptRanges(cache)
                skipThrough = [:]
                demuxerAtEnd = false
                post(.readResumed)
                restartBuffer(at: request.target)
                continue
            }
            if let step = cache?.nextReplayed() {
                switch step {
                case .packet(let packet):
                    put(packet, pipeline, router: &router, generation: generation, notes: false, awaited: awaited)
                case .resume(let point, let lastDecodeTimes):
                    _ = demuxer.seekToResume(at: point)
                    skipThrough = lastDecodeTimes
                    demuxerAtEnd = false
                    post(.readResumed)
                }
                continue
            }
            if demuxerAtEnd {
                if !reachedEnd {
                    reachedEnd = true
                    // Both packet queues end, and the buffer reports it at once, unless a seek
                    // moved past `generation` meanwhile.
                    post(.packetsEnded(generation: generation, host: environment.hostClock.now))
                }
                refreshBuffer(endOfStream: true)
                // Everything is read: a seek, a selection change or stop wakes the thread (the
                // presentation thread keeps the buffer flags current meanwhile).
                sleep(until: .infinity, on: demuxWake)
                continue
            }
            if landingReadAhead.isWatching, holdsForLanding(&landingReadAhead, generation: generation) {
                // The landing wakes the thread (`.firstFrameShown` wakes the demux thread).
                sleep(until: environment.hostClock.now + 0.05, on: demuxWake)
                continue
            }
            switch demuxer.readPacket() {
            case .packet(let packet):
                landingReadAhead.note(packet, videoStream: pipeline.videoStream)
                if let last = skipThrough[packet.streamIndex] {
                    let time = packet.dts.isNumeric ? packet.dts : packet.pts
                    if time.isNumeric && time <= last { continue }
                    skipThrough[packet.streamIndex] = nil
                }
                let keptRuns = cache?.closedRuns.count
                if let start = cache?.append(packet) { post(.bufferDropped(before: start)) }
                if cache?.closedRuns.count != keptRuns { publishKeptRanges(cache) }
                put(packet, pipeline, router: &router, generation: generation, notes: true, awaited: awaited)
                if demuxer.isNetwork {
                    packetsSinceICYCheck += 1
                    if packetsSinceICYCheck >= Self.icyCheckInterval {
                        packetsSinceICYCheck = 0
                        router.noteICY(demuxer.icyMetadataPacket, at: packet.pts, pipeline: pipeline)
                        // Packed audio's segment tags (the song a station plays), from the loader.
                        for tag in streamLoader.withLock({ $0 })?.takeTimedMetadata() ?? [] {
                            pipeline.switchboard.metadata.add(tag.items, at: tag.time)
                        }
                    }
                }
            case .endOfFile:
                demuxerAtEnd = true
            case .failure(let failure):
                if failure == .cancelled || isStopped { return }
                if interrupt.consumeKick() != .none {
                    // Interrupted for a seek not picked up yet (see `interruptReadForSeek`, which
                    // never kicks once the demux thread has it), not a failure.
                    readInterrupted = true
                    continue
                }
                // A read error mid-file ends the stream; what was read still plays. Over the
                // network the item then fails where the data ran out (see `reportEnd`), as
                // does any item whose samples are encrypted.
                post(.readFailed(demuxer.isNetwork || failure == .protectedContent ? failure : nil))
                demuxerAtEnd = true
            }
        }
    }

    /// Keeps loading only the audio inputs read on demand (HLS audio renditions) that hold
    /// the selected track or the one still playing until the switch; a newly selected one
    /// starts at the playhead, just before it (`switchLeadIn`), as does a wanted one the audio
    /// thread parked when it switched away (it parks under the switchboard's lock, together
    /// with the routing change this sees). Looks only when the selection or the routing
    /// changed. True when one started again.
    private func loadAudioOnDemand(
        _ demuxer: any PacketSource, _ pipeline: Pipeline, _ selection: EngineSelection,
        loaded: inout AudioOnDemandKey?
    ) -> Bool {
        let key = AudioOnDemandKey(
            selected: selection.audioStream ?? pipeline.audioStream, routed: pipeline.switchboard.routedAudio)
        guard key != loaded else { return false }
        loaded = key
        let from = currentTime() - CMTime(seconds: Self.switchLeadIn, preferredTimescale: 1000)
        // The playing track left starving when another was selected is not read again; chosen
        // again before the other took over, every source starts again where time stands (an
        // exact seek of the engine's own), its input with them.
        let routedLeft = pipeline.switchboard.routedInputIsParked
        let routed = routedLeft && key.selected != key.routed ? nil : key.routed
        if routedLeft, routed != nil, key.selected == routed {
            post(.resyncAudioDue(host: environment.hostClock.now))
        }
        return demuxer.loadCompanions(holding: Set([key.selected, routed].compactMap { $0 }), from: from)
    }

    /// True while the read-ahead waits for the exact seek of `generation` to land (the
    /// presenter wakes `demuxWake` when it does).
    private func holdsForLanding(_ readAhead: inout LandingReadAhead, generation: Int) -> Bool {
        let landed = coordinator.read { $0.hasLanded(generation) }
        return readAhead.holds(landed: landed, now: environment.hostClock.now)
    }

    /// Packets read between looks for a new ICY title (each look copies a string).
    static let icyCheckInterval = 8

    /// The most bytes of packets a network item keeps for seeking back (and ahead) without
    /// new requests.
    static let packetCacheBytes = 64 << 20

    /// Serves a seek from packets already read when `request`'s target lies in the current
    /// buffered range or in a run kept from before; true when it did. After a read was cut
    /// short (`afterCutRead`) the demuxer may have stopped mid-packet and its container may
    /// have dropped what it was assembling, so a replay of the current run ends with the
    /// demuxer seeking back to just before the run's last packets.
    private func replayFromCache(_ cache: inout PacketCache?, for request: SeekRequest, afterCutRead: Bool) -> Bool {
        guard var kept = cache else { return false }
        let target = request.target
        let earliest = request.isExact || !request.toleranceBefore.isNumeric
            ? .negativeInfinity : target - request.toleranceBefore
        let latest = request.isExact ? target
            : request.toleranceAfter.isNumeric ? target + request.toleranceAfter : .positiveInfinity
        let (inCurrent, currentEnd) = coordinator.read {
            ($0.buffer?.contains(target) ?? false, $0.buffer?.currentEnd ?? .zero)
        }
        var served = inCurrent
            && kept.beginReplay(
                of: nil, target: target, earliest: earliest, latest: latest, currentEnd: currentEnd,
                resumesReading: afterCutRead)
        if !served, let run = kept.closedRun(containing: target),
            kept.beginReplay(of: run, target: target, earliest: earliest, latest: latest, currentEnd: currentEnd)
        {
            served = true
            let range = kept.currentRange
            post(.bufferResumed(range))
            publishKeptRanges(kept)
        }
        cache = kept
        return served
    }

    /// Tells the buffer tracker which runs are kept besides the current one.
    private func publishKeptRanges(_ cache: PacketCache?) {
        guard let ranges = cache?.closedRuns.map(\.range) else { return }
        post(.bufferKeptRanges(ranges))
    }

    /// Queues `packet` for its decoder (noting it for buffering when it was just read).
    /// Packets of unselected audio and subtitle tracks go where the router says and are not
    /// noted. A packet of the `awaited` audio track (selected, read on demand, not playing
    /// yet) wakes the audio thread, which may be asleep (paused, or its ring full on a clock
    /// that stands still) and switches once the new track's packets reach what it wrote.
    private func put(
        _ packet: Packet, _ pipeline: Pipeline, router: inout StreamRouter, generation: Int, notes: Bool,
        awaited: Int? = nil
    ) {
        guard let queue = router.route(packet, pipeline: pipeline, now: currentTime(), generation: generation)
        else {
            if packet.streamIndex == awaited { audioWake.wake() }
            return
        }
        if notes { refreshBuffer(noting: packet) }
        _ = queue.put(packet, cost: packet.byteCount, duration: packet.duration, generation: generation)
    }
}

/// The audio streams read on demand were last loaded for: the selected one and the one the
/// audio thread plays (they differ until a switch lands).
struct AudioOnDemandKey: Equatable {
    var selected: Int?
    var routed: Int?
}
