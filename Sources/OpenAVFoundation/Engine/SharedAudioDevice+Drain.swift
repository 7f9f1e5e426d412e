// Playhead: playing out an ended item's last audio on the shared device before it stops.
//
// Concurrency: `drain` starts a short-lived thread of its own (counted in `LingeringAudio`)
// that reads and changes the device's state only under its lock (`withLock`).
import Foundation

extension SharedAudioDevice {
    /// On a thread of its own: waits until `ring` has played its last frame and the device's
    /// latency has passed (or another ring took over), then lets the device stop or close.
    func drain(_ ring: AudioRingBuffer) {
        LingeringAudio.begin()
        let clock = self.clock
        NamedThread.start("drain") { [self] in
            let signal = WakeupSignal()
            var heardEnd: Double?
            while true {
                let (stillCurrent, latency) = withLock { ($0.handoff?.current === ring, $0.output?.outputLatency ?? 0) }
                guard stillCurrent else { break }
                let now = clock.now
                if heardEnd == nil, ring.hasPlayedToEnd {
                    // The last frame is heard where the ring's clock says its last audio ends
                    // (the latency measured when it was written: a sound server's varies as
                    // its buffer fills), and never before one latency from now.
                    let snapshotEnd = ring.clockSnapshot.map { $0.host + $0.span } ?? now
                    heardEnd = max(now + latency, snapshotEnd)
                }
                // A little more covers the time since the callback took the last frame.
                if let heardEnd, now >= heardEnd + 0.02 { break }
                _ = clock.wait(until: now + 0.01, on: signal)
            }
            withLock { state in
                state.draining = false
                if let handoff = state.handoff {
                    handoff.clearCurrent(ifItIs: ring)
                    handoff.waitUntilReleased()
                    promotePlaying(&state)
                    // Nothing follows: the device plays out what it holds before it stops.
                    if handoff.current == nil, state.running {
                        state.output?.stopAfterPlayingOut(timeout: 0.5)
                        state.running = false
                    }
                }
                settle(&state)
            }
            LingeringAudio.end()
        }
    }
}
