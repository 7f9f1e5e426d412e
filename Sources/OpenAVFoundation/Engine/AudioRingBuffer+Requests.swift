// Playhead: how far ahead the audio ring is filled, from what its output asks for at a time:
// the largest request a sound server makes, and what the call that starts a sound takes.
//
// Concurrency: as AudioRingBuffer.swift says. `largestRequest` and `startBite` are stored only
// by the consumer (the output's render thread; a shared device's render thread also tells the
// ring waiting to follow the current one); `fillTarget` is read by the producer (and anyone).
// `isWaitingToStart` reads consumer-owned state: consumer side only.
import Synchronization

extension AudioRingBuffer {
    /// The frames the producer fills the ring to: ``fillAheadFrames`` beyond the output's
    /// ``largestRenderRequest``, or, while a sound waits to start on an output that will go
    /// back over the silence it queued meanwhile, beyond what that start takes (at most a
    /// second of either), within half the ring. A sound server playing a 450 ms queue on a
    /// null sink asks for 205 ms at a time, and its call that starts the sound goes back over
    /// its whole queue of silence: a ring filled to a quarter second was left 20-40 ms, or
    /// nothing, and a producer held up longer than the next bite (a busy machine) left a gap.
    /// Any thread.
    package var fillTarget: Int {
        let bite = max(largestRenderRequest, startBite.load(ordering: .relaxed))
        return min(capacityFrames / 2, fillAheadFrames + min(bite, format.sampleRate))
    }

    /// The most frames one request of the output has asked for since the ring was made (a
    /// render call, or the calls of one request the output told of): a sound server that
    /// plays a long queue asks for it in large bites (a 450 ms queue on a null sink in 205 ms
    /// ones). Any thread.
    package var largestRenderRequest: Int { largestRequest.load(ordering: .relaxed) }

    /// Keeps the most frames one request asked for (``largestRenderRequest``); also how a
    /// shared device tells the ring that follows the current one what the output asks for.
    /// Consumer side (the output's render thread).
    package func noteOutputRequest(_ frames: Int) {
        Self.keepLarger(frames, in: largestRequest)
    }

    /// Keeps the most frames the call that starts the current generation's sound could take
    /// (the output's whole request after a flush, and what it goes back over), until that
    /// sound starts. Consumer side.
    func noteStartBite(_ frames: Int) {
        Self.keepLarger(frames, in: startBite)
    }

    /// True while the current generation's sound waits to start: none of it played yet.
    /// Consumer side.
    package var isWaitingToStart: Bool {
        playedGeneration < currentGeneration.load(ordering: .acquiring)
    }

    /// Stores `frames` in `counter` when larger. Only the consumer stores these counters (a
    /// shared device's render thread is the consumer of the ring it tells), so a plain load
    /// and store is enough.
    private static func keepLarger(_ frames: Int, in counter: borrowing Atomic<Int>) {
        if frames > counter.load(ordering: .relaxed) { counter.store(frames, ordering: .relaxed) }
    }
}
