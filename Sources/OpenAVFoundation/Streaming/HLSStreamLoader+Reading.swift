// Playhead: the demux thread's side of Playhead's HLS loader: the bytes of the fetched
// segments in order, section by section, a restart at another time (a seek), and parking (an
// audio rendition not listened to fetches nothing until it restarts).
//
// Concurrency: every method takes `condition` (the loader's NSCondition) around `state`;
// `read` waits on it while no chunk is there. `restart`, `park`, `leaveWhenStarved` and `close`
// may be called from any thread; none of them touches the network (`close` cancels the
// fetcher's request). A loader left while starved parks itself inside `read` or
// `leaveWhenStarved`, under `condition`.
import FFmpegBridge
import Foundation

extension HLSStreamLoader {
    /// The longest the demux thread may wait for bytes: every attempt at a segment (each may
    /// also fetch its key and initialisation section, each request bounded by `timeout`) and
    /// the pauses between them, after which the loader has failed the stream itself. A live
    /// stream may also wait at its edge for the playlist to grow: the loader ends the stream
    /// once the playlist has not changed for `deadAfterTargets` target durations (the last
    /// reload, half a target duration apart and bounded by `timeout`, included), so the read
    /// waits at least that long too. Either way a server that stops answering ends playback
    /// through the loader, and a stream that keeps listing segments none of which arrive
    /// still meets this bound.
    var longestWait: Double? {
        let tries = timeout * Double(Self.attempts * 3) + 2
        guard isLive else { return tries }
        condition.lock()
        let target = max(state.timeline.targetDuration, 1)
        condition.unlock()
        return max(tries, (Self.deadAfterTargets + 1) * target + timeout + 2)
    }

    func read(into buffer: UnsafeMutableRawBufferPointer, waiting wait: Double) -> StreamingRead {
        condition.lock()
        defer { condition.unlock() }
        if state.chunks.isEmpty {
            if let failure = state.failure { return .failure(failure) }
            // Parked, the stream ends here for its reader until it restarts.
            // So does a keyframe restart's keyframe (backward play).
            if state.loaderDone || state.closed || state.parked || state.keyframeServed { return .end }
            // Left while its server stalls it (a switch to another rendition): ends here.
            if leaveNowIfStarved() { return .end }
            // (A rendition fetching on demand fetches what its reader waits for.)
            state.readerWaiting = true
            condition.broadcast()
            _ = condition.wait(until: Date(timeIntervalSinceNow: wait))
            state.readerWaiting = false
            guard !state.chunks.isEmpty else {
                if state.starvedSince == nil { state.starvedSince = ThreadCondition.monotonicNow() }
                return .waiting
            }
        }
        state.starvedSince = nil
        let chunk = state.chunks[0]
        // The container reading this section stops at its end; `nextSection()` moves on.
        if let section = state.readSection, chunk.section != section { return .end }
        if state.readSection == nil { state.readSectionStart = placeFirstChunk() }
        state.readSection = chunk.section
        let count = min(buffer.count, chunk.data.count - state.readOffset)
        chunk.data.withUnsafeBytes { raw in
            buffer.baseAddress!.copyMemory(from: raw.baseAddress! + state.readOffset, byteCount: count)
        }
        state.readOffset += count
        state.playingVariant = chunk.variant
        let fraction = Double(state.readOffset) / Double(max(chunk.data.count, 1))
        state.readPosition = chunk.start + chunk.duration * fraction
        if state.readOffset >= chunk.data.count {
            state.chunks.removeFirst()
            state.readOffset = 0
            condition.broadcast()
        }
        return .bytes(count)
    }

    var declaredVariants: [StreamVariant] {
        // A media playlist played on its own states no rate: no variants to offer.
        guard rendition == nil, variants.contains(where: { $0.bandwidth > 0 }) else { return [] }
        return (listedVariants ?? variants).map {
            var variant = StreamVariant(
                peakBitRate: $0.bandwidth, averageBitRate: $0.averageBandwidth, width: $0.width, height: $0.height,
                codecs: $0.codecs, frameRate: $0.frameRate, videoRange: $0.videoRange, audioRenditions: $0.audioRenditions)
            variant.videoLayouts = $0.videoLayouts
            return variant
        }
    }

    var failure: MediaFailure? {
        condition.lock()
        defer { condition.unlock() }
        return state.failure
    }

    func nextSection() -> StreamingSection? {
        condition.lock()
        defer { condition.unlock() }
        guard let chunk = state.chunks.first, chunk.section != state.readSection else { return nil }
        state.readSection = chunk.section
        let timedStart = placeFirstChunk()
        state.readSectionStart = timedStart
        return StreamingSection(
            timeline: chunk.timeline, start: timedStart ?? chunk.start, mediaStart: chunk.mediaStart,
            end: chunk.sectionEnd, timesFromZero: packedAudio != nil)
    }

    func restart(at seconds: Double) -> StreamingSection? { restart(at: seconds, keyframe: nil) }

    func restart(at seconds: Double, keyframe step: KeyframeStep) -> StreamingSection? {
        restart(at: seconds, keyframe: Optional(step))
    }

    /// True for the variants' loader of a VOD stream with I-frame playlists, until the one read
    /// turned out unusable (encrypted, MPEG-TS ranges without their tables, not found).
    var servesKeyframesAlone: Bool {
        hasKeyframeVariants && condition.withLock { state.keyframeStarts?.isEmpty != true }
    }

    /// True for the variants' loader of a VOD stream with I-frame playlists (no lock taken).
    var hasKeyframeVariants: Bool { !keyframeSource.variants.isEmpty && rendition == nil && !isLive }

    private func restart(at seconds: Double, keyframe step: KeyframeStep?) -> StreamingSection? {
        condition.lock()
        defer { condition.unlock() }
        // A live stream starts no earlier than its window.
        guard let found = state.timeline.segmentIndex(at: seconds) else { return nil }
        var index = isLive ? max(found, state.timeline.windowFirst) : found
        state.readSection = nil
        state.readSectionStart = nil
        state.generation += 1
        state.chunks = []
        state.lastTag = nil
        state.readOffset = 0
        state.loaderDone = false
        state.failure = nil
        state.parked = false
        state.starvedSince = nil
        state.leavesWhenStarved = false
        state.keyframeServed = false
        state.keyframeRestart = nil
        moveNextSegment(to: index)
        leading.withLock { $0.restarted() }
        condition.broadcast()
        // A step of backward play or fast forward (HLSStreamLoader+Keyframes.swift): the
        // variants' loader of a VOD stream serves the keyframe alone from an I-frame playlist,
        // else the segment path serves it from its segment (backward: the segment before the
        // last step's when it comes to the same one; forward: the segment after `seconds`'s).
        // A keyframe on a timeline the demuxer has not anchored yet is read from its segment,
        // whose start anchors it (a keyframe's place would, and the segment path may serve it).
        var keyframe: (start: Double, timeline: Int)?
        if let step, rendition == nil, !isLive {
            if !keyframeSource.variants.isEmpty, awaitKeyframeTimes(),
                case let found = state.keyframeIndex(step, from: seconds), let starts = state.keyframeStarts,
                timelineOffsets?.origin(of: state.keyframeTimelines[found]) != nil
            {
                state.noteStep(found, step, asked: seconds, iFrames: true)
                keyframe = (starts[found], state.keyframeTimelines[found])
                state.keyframeRestart = found
                // (Its segment, should the keyframe not be had: a hair past its place, which
                // the playlists' rounding may put before the segment's start.)
                index = state.timeline.segmentIndex(at: starts[found] + 0.01) ?? index
            } else {
                index = state.stepSegment(step, from: index, asked: seconds)
            }
        } else {
            state.lastStep = nil
        }
        moveNextSegment(to: index)
        let segment = state.timeline.segments[index]
        return StreamingSection(
            timeline: keyframe?.timeline ?? segment.discontinuitySequence, start: keyframe?.start ?? segment.start,
            mediaStart: keyframe == nil ? segment.mediaStart : nil, end: segment.sectionEnd, timesFromZero: packedAudio != nil)
    }

    /// Makes segment `index` the next to fetch and read (under `condition`).
    private func moveNextSegment(to index: Int) {
        state.nextSegment = index
        state.readPosition = state.timeline.segments[index].start
        state.fetchedEnd = state.readPosition
    }

    /// Waits briefly (under `condition`) for the loader thread to read the I-frame playlist,
    /// which it starts as the rate turns to trick play, fetching no segment meanwhile; true when its
    /// keyframes can serve the restart.
    private func awaitKeyframeTimes() -> Bool {
        state.keyframeRestartPending = true
        let deadline = Date(timeIntervalSinceNow: min(timeout, keyframePlaylistWait))
        while state.keyframeStarts == nil, !state.closed, condition.wait(until: deadline) {}
        state.keyframeRestartPending = false
        condition.broadcast()
        return state.keyframeStarts?.isEmpty == false
    }

    /// Packed audio: the item time the first chunk's timestamp places it at, worked out (once)
    /// as its section begins to be read; nil without a timestamp. Under `condition`.
    private func placeFirstChunk() -> Double? {
        guard packedAudio != nil, let chunk = state.chunks.first else { return nil }
        if let placed = chunk.timedStart { return placed }
        let placed = state.packedStart(of: chunk, videoOrigin: timelineOffsets?.origin(of: chunk.timeline))
        state.chunks[0].timedStart = placed
        return placed
    }

    var readingSectionStart: Double? {
        condition.lock()
        defer { condition.unlock() }
        return state.readSectionStart
    }

    var isParked: Bool {
        condition.lock()
        defer { condition.unlock() }
        return state.parked
    }

    /// Fetches the next segment now, even past the forward buffer (once), here and in the
    /// audio renditions that are loading: a reader waiting at the read frontier (the demux
    /// thread, which starts a newly selected rendition only between reads) then gets its bytes
    /// in a request's time instead of when playback frees room, up to a segment later. Any
    /// thread; never touches the network itself.
    func fetchNextSegmentNow() {
        condition.lock()
        if !state.parked { state.reachesAhead = true }
        let renditions = renditionLoaders
        condition.broadcast()
        condition.unlock()
        for loader in renditions { loader.fetchNextSegmentNow() }
    }

    /// How long a segment request may take, while the reader waits for it, before a rendition
    /// being left stops being waited for (`leaveWhenStarved`): longer than a request takes on
    /// a working link. (A reader that waits while nothing is fetched, its forward buffer full,
    /// is not starved by its server.)
    static let starvedAfter = 1.0

    func leaveWhenStarved(_ leave: Bool) {
        condition.lock()
        state.leavesWhenStarved = leave
        _ = leaveNowIfStarved()
        condition.unlock()
    }

    /// Parks when asked to leave once starved, the reader waits, and the segment request it
    /// waits for has taken long enough; true when it did. Under `condition`.
    private func leaveNowIfStarved() -> Bool {
        guard state.leavesWhenStarved, !state.parked, state.chunks.isEmpty, state.starvedSince != nil,
            let request = state.segmentRequestSince, ThreadCondition.monotonicNow() - request >= Self.starvedAfter
        else { return false }
        parkLocked()
        return true
    }

    func park() {
        condition.lock()
        parkLocked()
        condition.unlock()
    }

    /// `park()` with `condition` held.
    private func parkLocked() {
        state.starvedSince = nil
        state.leavesWhenStarved = false
        state.parked = true
        // A new generation: the request in flight is cancelled, and nothing it brings is kept.
        state.generation += 1
        state.chunks = []
        state.readOffset = 0
        state.readSection = nil
        state.readSectionStart = nil
        condition.broadcast()
    }

    func close() {
        condition.lock()
        state.closed = true
        let renditions = renditionLoaders
        let steering = steering
        condition.broadcast()
        condition.unlock()
        fetcher.close()
        steering?.close()
        for loader in renditions { loader.close() }
    }
}
