// Playhead: the render source of a player's one audio device. It plays the current item's
// ring and, in the same callback as that ring plays its last frame, goes on with the next
// item's ring: a queue's join is sample-exact, with no second device starting or stopping.
//
// Concurrency contract:
// - `render` runs on the device's real-time thread, one call at a time. It reads the two slots
//   (atomics holding unretained ring pointers), may move `next` into `current` (compare and
//   exchange, so a change the control side made meanwhile wins), and keeps `renderCalls` odd
//   while it runs. It never locks, allocates or waits. `rewind` is its own: written by a
//   call, read and cleared by `takeRewindFrames()` on the same thread right after it.
// - The control side (`SharedAudioDevice`, under its lock) stores rings in the slots and keeps
//   a strong reference to each ring it stored until `waitUntilReleased(_:)` shows the callback
//   cannot be using it any more.
// - `setOutputLatency`, `setOutputPlaying`, `setRewritableFrames` and `setRequestFrames` come
//   from the output's thread and only store atomics; the callback passes the values on to the
//   ring it renders (and the output's request to the ring waiting to follow it, whose consumer
//   is this same thread).
import Foundation
import Synchronization

/// Plays a current ring and, gaplessly, the next one when the current has played to its end.
package final class AudioHandoff: AudioRenderSource, @unchecked Sendable {
    /// The device's format: every ring put in a slot has it.
    package let format: AudioOutputFormat
    private let currentBits = Atomic<UInt>(0)
    private let nextBits = Atomic<UInt>(0)
    /// Even between render calls, odd during one.
    private let renderCalls = Atomic<Int>(0)
    private let handOffs = Atomic<Int>(0)
    private let latencyBits = Atomic<UInt64>(Double(0).bitPattern)
    private let outputPlays = Atomic<Bool>(true)
    private let rewritable = Atomic<Int>(0)
    private let requestFrames = Atomic<Int>(0)
    /// Owned by the render thread: what the last call goes back over (its first ring's rewind).
    private var rewind = 0

    /// A source with both slots empty (it renders silence).
    package init(format: AudioOutputFormat) {
        self.format = format
    }

    // MARK: - Real-time side

    /// Fills `buffer` from the current ring, then from the next one once the current has
    /// played to its end; silence where neither has audio.
    package func render(into buffer: UnsafeMutableBufferPointer<Float>, hostTime: Double) {
        renderCalls.add(1, ordering: .acquiringAndReleasing)
        defer { renderCalls.add(1, ordering: .releasing) }
        let channels = format.channelCount
        let frames = buffer.count / channels
        let latency = Double(bitPattern: latencyBits.load(ordering: .relaxed))
        let plays = outputPlays.load(ordering: .relaxed)
        rewind = 0
        // For this call alone (a stand-in output that never tells goes back over nothing).
        let rewritableNow = rewritable.exchange(0, ordering: .relaxed)
        let told = requestFrames.exchange(0, ordering: .relaxed)
        // The ring that follows learns the output's requests while it waits: it takes over
        // with as much ahead as the current one keeps. Not the whole queue a server asks for
        // while the current sound waits to start (after a flush): the next ring takes over
        // mid-stream, where requests are the usual ones.
        if let next = Self.ring(nextBits.load(ordering: .acquiring)) {
            let starting = Self.ring(currentBits.load(ordering: .acquiring))?.isWaitingToStart ?? false
            next.noteOutputRequest(starting ? frames : max(frames, told))
        }
        var offset = 0
        // At most one hand-over per ring per call; the bound keeps a pathological queue of
        // empty, ended rings from spinning.
        for _ in 0..<4 {
            let bits = currentBits.load(ordering: .acquiring)
            guard let ring = Self.ring(bits) else { break }
            if ring.outputLatency != latency { ring.setOutputLatency(latency) }
            if ring.isOutputPlaying != plays { ring.setOutputPlaying(plays) }
            // Only the call's first ring may go back over what the output holds, or is told
            // the whole request.
            ring.setRewritableFrames(offset == 0 ? rewritableNow : 0)
            if offset == 0, told > 0 { ring.setRequestFrames(told) }
            let part = UnsafeMutableBufferPointer(rebasing: buffer[(offset * channels)...])
            // (A call written back over what the output held is heard that much sooner, the
            // next ring's part too.)
            let seconds = Double(offset - rewind) / Double(format.sampleRate)
            // A ring taking over mid-call plays at once: waiting to prime it would be a gap.
            let filled = ring.renderCountingFrames(into: part, hostTime: hostTime + seconds, primes: offset == 0)
            // Only a call that starts with re-made audio goes back (a ring taking over mid-call
            // follows what came before it).
            let back = ring.takeRewindFrames()
            if offset == 0 { rewind = back }
            offset += filled
            guard offset < frames, ring.hasPlayedToEnd else { return }
            let next = nextBits.exchange(0, ordering: .acquiringAndReleasing)
            guard next != 0 else { return }
            guard currentBits.compareExchange(expected: bits, desired: next, ordering: .acquiringAndReleasing).exchanged
            else {
                // The control side changed the current ring meanwhile: its word stands.
                _ = nextBits.compareExchange(expected: 0, desired: next, ordering: .acquiringAndReleasing)
                return
            }
            handOffs.add(1, ordering: .relaxed)
        }
        if offset < frames, let base = buffer.baseAddress {
            (base + offset * channels).update(repeating: 0, count: (frames - offset) * channels)
        }
    }

    /// What the last call goes back over: the rewind of the ring it started with. Render
    /// thread, right after the call.
    package func takeRewindFrames() -> Int {
        defer { rewind = 0 }
        return rewind
    }

    /// Remembers the output's latency; each ring learns it as it is rendered.
    package func setOutputLatency(_ seconds: Double) {
        latencyBits.store(max(0, seconds).bitPattern, ordering: .relaxed)
    }

    /// Remembers how far back the output could write the next call (for it alone); the
    /// call's first ring learns it.
    package func setRewritableFrames(_ frames: Int) {
        rewritable.store(max(0, frames), ordering: .relaxed)
    }

    /// Remembers what is left of the output's present request; the call's first ring learns it.
    package func setRequestFrames(_ frames: Int) {
        requestFrames.store(max(0, frames), ordering: .relaxed)
    }

    /// Remembers whether the output plays what it takes; each ring learns it as it is rendered.
    package func setOutputPlaying(_ playing: Bool) {
        outputPlays.store(playing, ordering: .relaxed)
    }

    // MARK: - Control side (SharedAudioDevice, under its lock)

    /// The ring rendered now, if any.
    package var current: AudioRingBuffer? { Self.ring(currentBits.load(ordering: .acquiring)) }

    /// The ring that follows when the current one has played to its end, if any.
    package var next: AudioRingBuffer? { Self.ring(nextBits.load(ordering: .acquiring)) }

    /// How many times the callback went on from one ring to the next.
    package var handOffCount: Int { handOffs.load(ordering: .relaxed) }

    /// Makes `ring` the one rendered (nil: silence). The caller keeps it alive.
    package func setCurrent(_ ring: AudioRingBuffer?) {
        ring?.setOutputLatency(Double(bitPattern: latencyBits.load(ordering: .relaxed)))
        currentBits.store(Self.bits(ring), ordering: .releasing)
    }

    /// Makes `ring` the one that follows the current (nil: none). The caller keeps it alive.
    package func setNext(_ ring: AudioRingBuffer?) {
        ring?.setOutputLatency(Double(bitPattern: latencyBits.load(ordering: .relaxed)))
        nextBits.store(Self.bits(ring), ordering: .releasing)
    }

    /// Empties the next slot if it holds `ring`.
    package func clearNext(ifItIs ring: AudioRingBuffer) {
        _ = nextBits.compareExchange(expected: Self.bits(ring), desired: 0, ordering: .acquiringAndReleasing)
    }

    /// Empties the current slot if it holds `ring`; true when it did.
    @discardableResult
    package func clearCurrent(ifItIs ring: AudioRingBuffer) -> Bool {
        currentBits.compareExchange(expected: Self.bits(ring), desired: 0, ordering: .acquiringAndReleasing).exchanged
    }

    /// Moves the ring in the next slot into the current slot when that is empty; true when it
    /// did. The callback changes no slot while the current one is empty, so the control side
    /// may do this once `waitUntilReleased()` returned after it emptied the current slot.
    @discardableResult
    package func promoteNext() -> Bool {
        guard currentBits.load(ordering: .acquiring) == 0 else { return false }
        let next = nextBits.exchange(0, ordering: .acquiringAndReleasing)
        guard next != 0 else { return false }
        currentBits.store(next, ordering: .releasing)
        return true
    }

    /// True when `ring` is in either slot.
    package func holds(_ ring: AudioRingBuffer) -> Bool {
        let bits = Self.bits(ring)
        return currentBits.load(ordering: .acquiring) == bits || nextBits.load(ordering: .acquiring) == bits
    }

    /// Waits until no render call that could have seen a ring taken out of the slots is still
    /// running: returns at once between calls, else when the running call ends (a callback
    /// lasts well under a millisecond). Never call it on the render thread.
    package func waitUntilReleased() {
        let seen = renderCalls.load(ordering: .acquiring)
        guard seen % 2 == 1 else { return }
        while renderCalls.load(ordering: .acquiring) == seen { usleep(200) }
    }

    private static func bits(_ ring: AudioRingBuffer?) -> UInt {
        guard let ring else { return 0 }
        return UInt(bitPattern: Unmanaged.passUnretained(ring).toOpaque())
    }

    private static func ring(_ bits: UInt) -> AudioRingBuffer? {
        guard let pointer = UnsafeRawPointer(bitPattern: bits) else { return nil }
        return Unmanaged<AudioRingBuffer>.fromOpaque(pointer).takeUnretainedValue()
    }
}
