// Playhead: the lock-free single-producer, single-consumer PCM ring feeding the audio device.
import Synchronization

// Concurrency contract:
// - Producer side (`write`, `flush`): one engine audio thread at a time. It owns the sample
//   region between `readFrame` and `capacityFrames` ahead of it, and the free marker slots.
// - Consumer side (`render`, `discardStale`, in AudioRingBuffer+Render.swift): the output's
//   real-time callback, one call at a time; `discardStale` also from whoever holds the output
//   stopped (no callback can run then). It never locks, allocates, awaits or decodes; it only reads preallocated
//   storage, moves `readFrame`/`markerRead`, and publishes the clock through `clockPublisher`.
//   Its own plain fields (`headOffset`, `played*`, `pendingRewind`, ...) are touched by it alone;
//   `takeRewindFrames()` belongs to it too (called right after a render).
// - Indices are `Atomic<Int>` frame/marker counters that only grow; a producer's release store
//   of `markerWrite` publishes the samples and marker written before it.
// - Settings (`volume`, `isMuted`, `isPaused`, output latency) and readers (`audioClock`,
//   statistics) are atomics, usable from any thread.
// - Splices (AudioRingBuffer+Splice.swift): the producer stores the splice point, then raises
//   `currentEpoch` (release); the consumer reads the epoch after `markerWrite`, so a chunk of
//   the new epoch is never seen without it, and publishes `renderedEndBits` (with its
//   generation) for the producer to choose the next splice point.
// - `reset()` touches consumer-owned state and must only run while neither side can run.

/// A preallocated ring of interleaved Float32 frames plus a parallel ring of chunk markers that
/// carry media timing, feeding an ``AudioOutput`` without locks.
///
/// The producer writes chunks tagged with the media time of their first frame, the media duration
/// they cover and a generation. The duration differs from `frames / sampleRate` when a tempo stage
/// upstream changed the playback rate: a 1 s chunk played at rate 2 covers 2 s of media. The
/// consumer (``render(into:hostTime:)``) copies frames out with the current gain, skips chunks
/// whose generation is older than ``generation`` (so a seek needs no lock and no drain: the
/// producer calls ``flush(newGeneration:)``), fills underruns with silence, and publishes the
/// audio clock, read anywhere through ``audioClock(atHost:)``.
package final class AudioRingBuffer: AudioRenderSource, @unchecked Sendable {
    /// Timing of one written chunk (stored in the marker ring).
    struct ChunkMarker {
        var startFrame: Int
        var frameCount: Int
        var media: CMTime
        var mediaDuration: CMTime
        var generation: Int
        /// The splice epoch it was written in (see ``beginSplice(atSeconds:)``).
        var epoch = 0
    }

    /// The sample layout of every frame in the ring.
    package let format: AudioOutputFormat
    /// How many frames the ring holds.
    package let capacityFrames: Int
    /// How many chunks can be queued at once.
    package let markerCapacity: Int

    let samples: UnsafeMutablePointer<Float>  // regions owned as described above
    let markers: UnsafeMutablePointer<ChunkMarker>  // slots owned as described above

    let writeFrame = Atomic<Int>(0)  // stored by the producer
    let readFrame = Atomic<Int>(0)  // stored by the consumer
    let markerWrite = Atomic<Int>(0)  // stored by the producer
    let markerRead = Atomic<Int>(0)  // stored by the consumer
    let currentGeneration: Atomic<Int>  // raised by the producer, read by everyone
    let volumeBits = Atomic<UInt32>(Float(1).bitPattern)  // any thread
    let volumeChangeCount = Atomic<Int>(0)  // any thread: raised with each new volume
    let muted = Atomic<Bool>(false)  // any thread
    let paused = Atomic<Bool>(false)  // any thread
    let startGateBits = Atomic<UInt64>((-Double.infinity).bitPattern)  // any thread
    let latencyBits = Atomic<UInt64>(Double(0).bitPattern)  // set by the output
    let delayBits = Atomic<UInt64>(Double(0).bitPattern)  // any thread: the user's audio delay
    let outputPlays = Atomic<Bool>(true)  // set by the output: what it renders is being played
    let underruns = Atomic<Int>(0)  // incremented by the consumer
    let endedGeneration = Atomic<Int>(Int.min)  // set by the producer: its audio reached the end
    let renderedFrames = Atomic<Int>(0)  // frames of real audio rendered, by the consumer
    let largestRequest = Atomic<Int>(0)  // consumer: the most frames one request asked for
    let requestFrameCount = Atomic<Int>(0)  // set by the output: its present request in all
    let startBite = Atomic<Int>(0)  // consumer: what the call that starts the sound would take
    let fillAheadCount: Atomic<Int>  // any thread: see `fillAheadFrames`
    let clockPublisher = AudioClockPublisher()  // written by the consumer only
    let currentEpoch = Atomic<Int>(0)  // raised by the producer: a splice began
    let spliceBits = Atomic<UInt64>(Double.infinity.bitPattern)  // producer: where the epoch takes over
    let completedEpoch = Atomic<Int>(0)  // producer: the newest epoch whose re-made audio is all in
    let renderedEndBits = Atomic<UInt64>(Double.nan.bitPattern)  // consumer: media after the last frame
    let renderedEndGeneration = Atomic<Int>(Int.min)  // consumer: the generation of that frame
    let epochFrames = Atomic<Int>(0)  // producer: frames written since the last splice began
    let primeFrameCount = Atomic<Int>(0)  // any thread: audio held back before a generation starts
    let rewritableFrameCount = Atomic<Int>(0)  // set by the output, cleared by each render: how far back

    var headOffset = 0  // owned by the consumer: frames already played from the head chunk
    var clockFloor = CMTime.invalid  // owned by the consumer: start of the current audible run
    var lastCallEndedInGap = true  // owned by the consumer: previous call inserted silence
    var playedGeneration = Int.min  // owned by the consumer: generation of the last played frame
    var playedEpoch = 0  // owned by the consumer: splice epoch of the last played frame
    var playedRate = 1.0  // owned by the consumer: media seconds per second of that frame's chunk
    var silenceSincePlayed = 0  // owned by the consumer: silent frames rendered after that frame
    var pendingRewind = 0  // owned by the consumer: what the last render call goes back over
    var requestLeft = 0  // owned by the consumer: frames of the output's told request still to come

    /// Allocates the ring. Nothing is allocated after this.
    /// - Parameters:
    ///   - format: the output format (as returned by ``AudioOutput/open(format:source:)``).
    ///   - capacityFrames: ring size in frames (the engine's: 5 s, filled to a quarter second
    ///     beyond the output's largest request).
    ///   - markerCapacity: how many chunks may be buffered at once.
    ///   - generation: the initial generation.
    package init(
        format: AudioOutputFormat, capacityFrames: Int, markerCapacity: Int = 256,
        generation: Int = 0
    ) {
        precondition(capacityFrames > 0 && markerCapacity > 0, "empty ring")
        self.format = format
        self.capacityFrames = capacityFrames
        self.markerCapacity = markerCapacity
        samples = .allocate(capacity: capacityFrames * format.channelCount)
        samples.initialize(repeating: 0, count: capacityFrames * format.channelCount)
        markers = .allocate(capacity: markerCapacity)
        let empty = ChunkMarker(
            startFrame: 0, frameCount: 0, media: .invalid, mediaDuration: .invalid, generation: 0)
        markers.initialize(repeating: empty, count: markerCapacity)
        currentGeneration = Atomic(generation)
        fillAheadCount = Atomic(format.sampleRate / 4)
    }

    deinit {
        samples.deallocate()
        markers.deallocate()
    }

    // MARK: - Producer

    /// Appends one chunk if it fits entirely.
    ///
    /// A chunk tagged with a generation older than ``generation`` is dropped (and reported as
    /// written); a newer one first acts as ``flush(newGeneration:)``.
    /// - Parameters:
    ///   - interleaved: whole frames in ``format``; at most ``capacityFrames`` frames.
    ///   - mediaTime: item-timeline time of the first frame.
    ///   - mediaDuration: media time the chunk covers (its host duration × playback rate).
    ///   - generation: the generation the audio was decoded under.
    /// - Returns: `false` when there is not room for the whole chunk (try again later).
    /// - Important: Producer thread only.
    package func write(
        _ interleaved: UnsafeBufferPointer<Float>, mediaTime: CMTime, mediaDuration: CMTime,
        generation: Int
    ) -> Bool {
        let channels = format.channelCount
        precondition(interleaved.count % channels == 0, "partial frame")
        let frames = interleaved.count / channels
        precondition(frames <= capacityFrames, "chunk larger than the ring")
        let current = currentGeneration.load(ordering: .acquiring)
        if generation < current { return true }
        if generation > current { flush(newGeneration: generation) }
        guard frames > 0, let base = interleaved.baseAddress else { return true }
        guard frames <= framesAvailableToWrite else { return false }

        let start = writeFrame.load(ordering: .relaxed)
        let slot = start % capacityFrames
        let firstPart = min(frames, capacityFrames - slot)
        (samples + slot * channels).update(from: base, count: firstPart * channels)
        if firstPart < frames {
            samples.update(
                from: base + firstPart * channels, count: (frames - firstPart) * channels)
        }
        let markerIndex = markerWrite.load(ordering: .relaxed)
        markers[markerIndex % markerCapacity] = ChunkMarker(
            startFrame: start, frameCount: frames, media: mediaTime,
            mediaDuration: mediaDuration, generation: generation, epoch: currentEpoch.load(ordering: .relaxed))
        writeFrame.store(start + frames, ordering: .releasing)
        markerWrite.store(markerIndex + 1, ordering: .releasing)
        epochFrames.add(frames, ordering: .relaxed)
        return true
    }

    /// Makes everything written so far stale: the consumer skips it on its next callback and the
    /// audio clock reads `nil` until audio of `newGeneration` has been rendered. Lock-free;
    /// callable from any thread. Lower values than the current generation are ignored.
    package func flush(newGeneration: Int) {
        var current = currentGeneration.load(ordering: .relaxed)
        while newGeneration > current {
            let (exchanged, original) = currentGeneration.compareExchange(
                expected: current, desired: newGeneration, ordering: .acquiringAndReleasing)
            if exchanged { return }
            current = original
        }
    }

    /// Frames a `write` can accept now (0 when every marker slot is in use).
    /// Exact on the producer thread; a lower bound elsewhere.
    package var framesAvailableToWrite: Int {
        let markersUsed =
            markerWrite.load(ordering: .relaxed) - markerRead.load(ordering: .acquiring)
        guard markersUsed < markerCapacity else { return 0 }
        return capacityFrames - bufferedFrames
    }

    // MARK: - Settings

    /// The generation whose audio is played; older chunks are skipped.
    package var generation: Int { currentGeneration.load(ordering: .acquiring) }

    /// Notes that the producer wrote the last audio of `generation`: running dry after it is
    /// the end, not an underrun. Producer side.
    package func markEnd(generation: Int) {
        endedGeneration.store(generation, ordering: .releasing)
    }

    /// True when the producer wrote the last audio of the current generation (some of it may
    /// still be waiting to play). Any thread.
    package var isAtEnd: Bool {
        endedGeneration.load(ordering: .acquiring) == currentGeneration.load(ordering: .acquiring)
    }

    /// The generation of the oldest chunk not yet played (nil when the ring is empty). Exact
    /// only while nothing renders (the output stopped); while it renders, the producer may
    /// read the generation of a chunk just played (never one it has not written).
    package var headGeneration: Int? {
        let index = markerRead.load(ordering: .acquiring)
        guard index < markerWrite.load(ordering: .acquiring) else { return nil }
        return markers[index % markerCapacity].generation
    }

    /// Linear gain applied while rendering (AVPlayer's `volume`). Any thread.
    package var volume: Float {
        get { Float(bitPattern: volumeBits.load(ordering: .relaxed)) }
        set {
            let bits = max(0, newValue).bitPattern
            // Released with the count: a producer that sees the new count renders the new gain.
            if volumeBits.exchange(bits, ordering: .relaxed) != bits { volumeChangeCount.add(1, ordering: .releasing) }
        }
    }

    /// How many times ``volume`` took a new value: the producer compares it with the count it
    /// last saw to re-make audio an output holds at the old volume. Any thread.
    package var volumeChanges: Int { volumeChangeCount.load(ordering: .acquiring) }

    /// The host time before which nothing is heard (−∞: none): frames the output would play
    /// earlier are silence, and the ring's audio starts exactly then, so an output started
    /// ahead of time begins its sound on time (`setRate(_:time:atHostTime:)`). Any thread.
    package var startGate: Double {
        get { Double(bitPattern: startGateBits.load(ordering: .relaxed)) }
        set { startGateBits.store(newValue.bitPattern, ordering: .relaxed) }
    }

    /// When `true` the output renders silence but keeps consuming (and the clock keeps running).
    package var isMuted: Bool {
        get { muted.load(ordering: .relaxed) }
        set { muted.store(newValue, ordering: .relaxed) }
    }

    /// When `true` the output renders silence without consuming; the clock stops where the
    /// audible audio ends.
    package var isPaused: Bool {
        get { paused.load(ordering: .relaxed) }
        set { paused.store(newValue, ordering: .relaxed) }
    }

    /// Frames of the current generation that must be waiting before its first frame is played
    /// (0: play whatever is there), and at least as many as the render call asks for; when the
    /// call would go back over silence the output queued meanwhile (a sound server's whole
    /// queue), as many as it takes that way and half ``fillAheadFrames`` beyond, so the start
    /// does not leave the ring empty (never more than the producer fills to). Until
    /// then a render is silent and consumes nothing (stale audio is dropped), so a
    /// start or a seek on a busy machine begins a little later instead of with a few
    /// milliseconds of sound and then a gap (the output's first request is often its whole
    /// buffer). A generation whose audio ended plays at once. Any thread.
    package var primeFrames: Int {
        get { primeFrameCount.load(ordering: .relaxed) }
        set { primeFrameCount.store(max(0, min(newValue, capacityFrames * 3 / 4)), ordering: .relaxed) }
    }

    /// How much audio the producer keeps ahead of the output once it took its largest bite
    /// (frames; a quarter second unless set). The producer writes at most half of it at a
    /// time. Any thread.
    package var fillAheadFrames: Int {
        get { fillAheadCount.load(ordering: .relaxed) }
        set { fillAheadCount.store(max(0, newValue), ordering: .relaxed) }
    }

    /// Seconds from a callback's host time until its first frame is heard.
    package var outputLatency: Double {
        Double(bitPattern: latencyBits.load(ordering: .relaxed))
    }

    /// The user's audio delay in seconds: positive plays the sound later than the picture,
    /// negative the picture later than the sound (a Bluetooth headset's own delay). The audio
    /// clock, which the picture follows, is shifted by it. Any thread.
    package var audioDelay: Double {
        get { Double(bitPattern: delayBits.load(ordering: .relaxed)) }
        set { delayBits.store((newValue.isFinite ? newValue : 0).bitPattern, ordering: .relaxed) }
    }

    /// Records the output's latency (see ``AudioRenderSource/setOutputLatency(_:)``).
    package func setOutputLatency(_ seconds: Double) {
        latencyBits.store(max(0, seconds).bitPattern, ordering: .relaxed)
    }

    /// Records whether the output plays what is rendered (see
    /// ``AudioRenderSource/setOutputPlaying(_:)``).
    package func setOutputPlaying(_ playing: Bool) {
        outputPlays.store(playing, ordering: .relaxed)
    }

    /// Records how far back the output could write the next call, for that call alone (see
    /// ``AudioRenderSource/setRewritableFrames(_:)``).
    package func setRewritableFrames(_ frames: Int) {
        rewritableFrameCount.store(max(0, frames), ordering: .relaxed)
    }

    /// Records what is left of the output's present request, for the next call (see
    /// ``AudioRenderSource/setRequestFrames(_:)``).
    package func setRequestFrames(_ frames: Int) {
        requestFrameCount.store(max(0, frames), ordering: .relaxed)
    }

    /// True unless the output said it has not started playing what it takes.
    package var isOutputPlaying: Bool { outputPlays.load(ordering: .relaxed) }

    // MARK: - Statistics and clock

    /// Frames written but not yet rendered (including stale ones not yet skipped).
    package var bufferedFrames: Int {
        writeFrame.load(ordering: .acquiring) - readFrame.load(ordering: .acquiring)
    }

    /// Playback (host) duration of ``bufferedFrames`` at the output's sample rate.
    package var bufferedDuration: CMTime {
        CMTime(value: Int64(bufferedFrames), timescale: Int32(format.sampleRate))
    }

    /// How many render calls had to insert silence after audio of the current generation had
    /// started playing (stream starvation, or the natural end of the audio).
    package var underrunCount: Int { underruns.load(ordering: .relaxed) }

    /// Frames of real (non-silent-fill) audio rendered since creation or ``reset()``.
    package var renderedFrameCount: Int { renderedFrames.load(ordering: .relaxed) }

    /// The latest clock publication, whatever its generation.
    package var clockSnapshot: AudioClockSnapshot? { clockPublisher.read() }

    /// The media time heard at host time `host`, or `nil` before the first render of the current
    /// generation. Lock-free; any thread.
    package func audioClock(atHost host: Double) -> CMTime? {
        guard let snapshot = clockPublisher.read(), snapshot.generation == generation else {
            return nil
        }
        return snapshot.time(atHost: host)
    }

    /// Empties the ring and clears the clock and statistics, keeping the generation and
    /// settings.
    /// - Important: Only while the output is stopped and the producer is idle.
    package func reset() {
        writeFrame.store(0, ordering: .relaxed)
        readFrame.store(0, ordering: .relaxed)
        markerWrite.store(0, ordering: .relaxed)
        markerRead.store(0, ordering: .relaxed)
        underruns.store(0, ordering: .relaxed)
        renderedFrames.store(0, ordering: .relaxed)
        headOffset = 0
        clockFloor = .invalid
        lastCallEndedInGap = true
        playedGeneration = .min
        startBite.store(0, ordering: .relaxed)
        playedEpoch = currentEpoch.load(ordering: .relaxed)
        playedRate = 1
        silenceSincePlayed = 0
        pendingRewind = 0
        clockPublisher.publish(nil)
        atomicMemoryFence(ordering: .sequentiallyConsistent)
    }
}
