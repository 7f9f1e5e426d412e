// Playhead: one audio device per player. Every item's engine plays through a lane of it
// (SharedAudioLane); the device's render source (AudioHandoff) goes from one item's ring to the
// next in the callback where the first plays its last frame, so a queue, a looper or a
// replaced item never opens a second device, and a join has no gap and no overlap.
//
// Concurrency contract:
// - `lock` guards `state`: the real output, the handoff, the lanes, the retained rings and
//   whether the device runs. Lanes call in from their engines' output queues and open threads
//   (never the main queue); device calls that can block (open, start, stop, close of a sound
//   server's stream) run under the lock, off the main queue.
// - `published` mirrors the open output and its handoff (set under `lock`, in the same
//   section that changes them): the getters any thread may call (the latency, the name, the
//   counts) read it and never wait for `lock`, which a hung device call may hold for seconds.
// - The render callback touches only the handoff (see AudioHandoff.swift).
// - `requestHandler` (the player's, for the sound server's requests) has a mutex of its own;
//   outputs call it on their background queues.
// - A device left playing out an ended item's last audio is stopped by a short-lived "drain"
//   thread, counted in `LingeringAudio` so a program about to exit lets it finish.
import Foundation

/// The audio device a player's items share, opened once and handed from item to item.
package final class SharedAudioDevice: @unchecked Sendable {
    /// Opens the real output: on the default device (nil) or a named one.
    package typealias OutputFactory = @Sendable (_ device: String?) throws -> any AudioOutput

    struct State {
        var output: (any AudioOutput)?
        var handoff: AudioHandoff?
        /// The device name the output was opened on (nil: the default).
        var device: String?
        /// The format the output was opened for (it may have answered with another).
        var openedFor: AudioOutputFormat?
        var running = false
        /// The rings of the lanes attached to the open output.
        var lanes: [AudioRingBuffer] = []
        /// The ring of the lane started last and not stopped since: the item playing.
        var playing: AudioRingBuffer?
        /// A held item's ring waiting to follow the playing one.
        var follower: AudioRingBuffer?
        /// Rings put in the handoff's slots, kept alive until the callback let go of them.
        var retained: [AudioRingBuffer] = []
        /// A drain thread is playing out the current ring's end.
        var draining = false
        /// A thread waits to arm the follower once the next slot is free.
        var arming = false
        /// Raised by every attach and idle moment: a pending idle close checks it is still current.
        var idleToken = 0
    }

    private let makeOutput: OutputFactory
    let clock: any HostClock
    /// Seconds an output with no lane stays open before it closes.
    private let idleCloseDelay: Double
    private let lock = NSLock()
    private var state = State()  // protected by lock
    /// protected by its mutex: `state.output` and `state.handoff`, for the any-thread getters
    private let published = Locked<(output: (any AudioOutput)?, handoff: AudioHandoff?)>((nil, nil))

    /// A device that opens its output with `makeOutput` when the first lane needs it, pacing
    /// its drain with `clock`, and closes it `idleCloseDelay` seconds (real time) after the
    /// last lane left.
    package init(clock: any HostClock, idleCloseDelay: Double = 1, makeOutput: @escaping OutputFactory) {
        self.clock = clock
        self.idleCloseDelay = idleCloseDelay
        self.makeOutput = makeOutput
    }

    /// protected by its mutex: who hears the sound server's requests to pause and resume
    let requestHandler = Locked<(@Sendable (SoundServerRequest) -> Void)?>(nil)

    /// A lane for one item, on `device` (nil: the default device).
    package func makeLane(device: String?) -> SharedAudioLane {
        SharedAudioLane(device: self, deviceName: device)
    }

    /// How many times the callback handed from one item's ring to the next (tests, reports).
    package var handOffCount: Int { published.withLock { $0.handoff }?.handOffCount ?? 0 }

    /// True while a drain thread plays out an ended item's last audio (tests).
    package var isPlayingOut: Bool { withLock { $0.draining } }

    /// True while the real output is open.
    package var isOpen: Bool { published.withLock { $0.output != nil } }

    deinit {
        // The last lane and the player are gone: nothing renders any more. Closing can block
        // (a sound server's stream), and the last reference may go on the main queue.
        guard let output = state.output else { return }
        DispatchQueue.global(qos: .utility).async { output.close() }
    }

    // MARK: - Lanes (called by SharedAudioLane)

    /// Attaches the lane of `ring`, whose engine wants `format` on `deviceName`, opening the
    /// output if needed. Returns the device's format and whether the lane is attached: it is
    /// when the ring has that format (else the engine makes a ring in it and asks again). Nil
    /// when the output is open on another device for other lanes (the lane then opens an
    /// output of its own).
    func attach(_ ring: AudioRingBuffer, wanted format: AudioOutputFormat, deviceName: String?) throws
        -> (format: AudioOutputFormat, attached: Bool)?
    {
        try withLock { state in
            let idle = state.lanes.isEmpty && !state.draining && state.handoff?.current == nil
                && state.handoff?.next == nil
            if state.output != nil, state.device != deviceName {
                guard idle else { return nil }
                closeOutput(&state)
            }
            // Idle, the device reopens for an item that wants another format (more channels,
            // another rate); while an item plays or plays out, the next one is converted to
            // the device's format so the two join without a gap.
            if state.output != nil, idle, state.openedFor != format { closeOutput(&state) }
            if state.output == nil {
                let output = try makeOutput(deviceName)
                forwardRequests(of: output)
                var handoff = AudioHandoff(format: format)
                let actual = try output.open(format: format, source: handoff)
                if actual != format {
                    output.close()
                    handoff = AudioHandoff(format: actual)
                    _ = try output.open(format: actual, source: handoff)
                }
                state.output = output
                state.handoff = handoff
                published.withLock { $0 = (output, handoff) }
                state.openedFor = format
                state.device = deviceName
            }
            guard let deviceFormat = state.handoff?.format else { return nil }
            guard ring.format == deviceFormat else { return (deviceFormat, false) }
            state.idleToken += 1
            state.lanes.append(ring)
            return (deviceFormat, true)
        }
    }

    /// The lane of `ring` starts playing: its ring becomes the current one, or the next one when
    /// the current ring is playing out an ended item (the callback joins them).
    func start(_ ring: AudioRingBuffer) {
        withLock { state in
            guard let handoff = state.handoff, let output = state.output, state.lanes.contains(where: { $0 === ring })
            else { return }
            retain(ring, &state)
            state.playing = ring
            if state.follower === ring { state.follower = nil }
            if handoff.current !== ring {
                if let current = handoff.current, current.isAtEnd, state.running {
                    handoff.setNext(ring)
                } else {
                    handoff.clearNext(ifItIs: ring)
                    handoff.setCurrent(ring)
                }
            }
            // A held next item waits behind whichever item plays.
            armFollower(&state)
            if !state.running {
                output.start()
                state.running = true
            }
        }
    }

    /// The lane of `ring` pauses: its ring is no longer rendered once this returns. With
    /// nothing left to render, the device stops.
    func stop(_ ring: AudioRingBuffer) {
        withLock { state in
            guard let handoff = state.handoff else { return }
            handoff.clearNext(ifItIs: ring)
            handoff.clearCurrent(ifItIs: ring)
            if state.playing === ring {
                state.playing = nil
                // What follows a paused item waits for it to play again.
                if let follower = state.follower { handoff.clearNext(ifItIs: follower) }
            }
            handoff.waitUntilReleased()
            promotePlaying(&state)
            if handoff.current == nil, state.running, !state.draining {
                state.output?.stop()
                state.running = false
            }
            prune(&state)
        }
    }

    /// A held item (the next of a queue) is ready to follow the current one: the callback
    /// goes on with `ring` when the current ring has played to its end.
    func follow(_ ring: AudioRingBuffer) {
        withLock { state in
            guard state.handoff != nil, state.lanes.contains(where: { $0 === ring }) else { return }
            state.follower = ring
            armFollower(&state)
        }
    }

    /// The lane of `ring` closes. A ring that is playing out its item's end stays current until
    /// its last frame is heard (or the next ring takes over); anything else stops at once.
    /// The output closes when no lane is left and nothing plays out.
    func detach(_ ring: AudioRingBuffer) {
        let drains = withLock { state -> Bool in
            guard let handoff = state.handoff else { return false }
            state.lanes.removeAll { $0 === ring }
            if state.follower === ring { state.follower = nil }
            if state.playing === ring { state.playing = nil }
            handoff.clearNext(ifItIs: ring)
            if handoff.current === ring, ring.isAtEnd, state.running {
                guard !state.draining else { return false }
                state.draining = true
                return true
            }
            // An item closed while it played (replaced, removed): what the device holds of it
            // is dropped, so the next item is not heard after a stretch of the old one.
            if handoff.clearCurrent(ifItIs: ring) { state.output?.discardBuffered() }
            handoff.waitUntilReleased()
            promotePlaying(&state)
            settle(&state)
            return false
        }
        if drains { drain(ring) }
    }

    /// A separate output on `deviceName`, for a lane the shared one cannot serve.
    func makeDedicatedOutput(_ deviceName: String?) throws -> any AudioOutput {
        let output = try makeOutput(deviceName)
        forwardRequests(of: output)
        return output
    }

    /// Drops the output's own queued audio when `ring` is the one rendered (after a seek).
    func discardBuffered(of ring: AudioRingBuffer) {
        withLock { state in
            guard state.handoff?.current === ring else { return }
            state.output?.discardBuffered()
        }
    }

    /// True when the callback may render `ring` although its lane is not started (it follows
    /// the current ring, or took over from it).
    /// Taken under `lock`, so the answer never sees a hand-over half made (its callers are the
    /// engine's audio thread and output queue, never the main queue).
    func isRendering(_ ring: AudioRingBuffer) -> Bool {
        withLock { $0.handoff?.holds(ring) ?? false }
    }

    /// The output's latency (0 while closed). Any thread; never waits for a device call.
    var outputLatency: Double { published.withLock { $0.output }?.outputLatency ?? 0 }

    /// True when the output can overwrite the audio it holds (see
    /// ``AudioOutput/rewritesQueuedAudio``); false while closed. Any thread.
    var rewritesQueuedAudio: Bool { published.withLock { $0.output }?.rewritesQueuedAudio ?? false }

    /// The output's name. Any thread.
    var outputName: String { published.withLock { $0.output }?.name ?? "closed" }

    /// The device's own underruns since it opened (over every item it played). Any thread.
    var deviceUnderruns: Int { published.withLock { $0.output }?.deviceUnderruns ?? 0 }

    // MARK: - Inside the lock

    func withLock<T>(_ body: (inout State) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&state)
    }

    private func retain(_ ring: AudioRingBuffer, _ state: inout State) {
        if !state.retained.contains(where: { $0 === ring }) { state.retained.append(ring) }
    }

    /// Puts the follower in the next slot, behind the playing item's ring, when that ring is
    /// the current one. When the playing ring itself still waits in the next slot (started
    /// before the ring ahead of it played out), a short-lived thread arms the follower once
    /// the callback went on to it.
    private func armFollower(_ state: inout State) {
        guard let handoff = state.handoff, let follower = state.follower, let playing = state.playing,
            playing !== follower, handoff.next !== follower
        else { return }
        if handoff.current === playing, handoff.next == nil {
            retain(follower, &state)
            handoff.setNext(follower)
        } else if handoff.next === playing, !state.arming {
            state.arming = true
            armFollowerWhenNextIsTaken()
        }
    }

    /// On a thread of its own: waits (in real time, at most two seconds) until the callback
    /// took the playing ring from the next slot, then arms the follower behind it. The wait is short:
    /// only a ring started before the callback reached it leaves the slot taken.
    private func armFollowerWhenNextIsTaken() {
        NamedThread.start("arm-next") { [self] in
            let deadline = Date().addingTimeInterval(2)
            while true {
                let done = withLock { state -> Bool in
                    guard let handoff = state.handoff, let playing = state.playing, state.follower != nil,
                        Date() < deadline
                    else {
                        state.arming = false
                        return true
                    }
                    // Still waiting for the callback to go on to the playing ring.
                    if handoff.next === playing { return false }
                    state.arming = false
                    armFollower(&state)
                    return true
                }
                if done { break }
                usleep(1_000)
            }
        }
    }

    /// After the current ring was taken out (the callback let go of it: every caller waited):
    /// the playing item's ring, started behind a ring that was playing out its end and still
    /// waiting in the next slot, becomes the current one. The callback takes it over as the
    /// ring ahead plays its last frame; a callback held up past the end of the play-out (a
    /// loaded machine) had not yet, and with nothing current the device would stop with the
    /// playing item's sound never heard, and its time waiting for it.
    func promotePlaying(_ state: inout State) {
        guard let handoff = state.handoff, let playing = state.playing, handoff.current == nil,
            handoff.next === playing, handoff.promoteNext()
        else { return }
        armFollower(&state)
    }

    /// Lets go of rings in neither slot (the callback let go of them: every caller waited).
    private func prune(_ state: inout State) {
        guard let handoff = state.handoff else { return }
        state.retained.removeAll { !handoff.holds($0) }
    }

    /// Stops the output when nothing is rendered and closes it when no lane is left.
    func settle(_ state: inout State) {
        guard let handoff = state.handoff else { return }
        if handoff.current == nil, state.running, !state.draining {
            state.output?.stop()
            state.running = false
        }
        prune(&state)
        guard state.lanes.isEmpty, handoff.current == nil, handoff.next == nil, !state.draining else { return }
        guard idleCloseDelay > 0 else { return closeOutput(&state) }
        // Idle: closed a moment later unless another item attaches meanwhile (a replaced
        // item's successor opens its media first), so it keeps the same device stream.
        state.idleToken += 1
        let token = state.idleToken
        DispatchQueue.global().asyncAfter(deadline: .now() + idleCloseDelay) { [weak self] in
            self?.withLock { state in
                guard state.idleToken == token, state.lanes.isEmpty, state.handoff?.current == nil,
                    state.handoff?.next == nil, !state.draining
                else { return }
                self?.closeOutput(&state)
            }
        }
    }

    private func closeOutput(_ state: inout State) {
        state.output?.stop()
        state.output?.close()
        state.output = nil
        state.handoff = nil
        published.withLock { $0 = (nil, nil) }
        state.running = false
        state.retained = []
        state.lanes = []
        state.follower = nil
    }
}
