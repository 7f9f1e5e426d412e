// Playhead: keeps the item's buffer flags current from two threads: the demux thread notes
// what it read, and the presentation thread re-checks while time runs, so a demuxer stuck on a
// slow network still turns into "buffer empty" (and a stall) on time.
//
// Concurrency: `buffering` (a lock) holds the tracker; the demux thread creates it and both
// the demux and presentation threads update it. Reports are sent while the lock is held, so
// they reach the player in the order they were made.
import FFmpegBridge
import Foundation

extension ItemPlayback {
    /// The forward buffer used when the item asks for the automatic one
    /// (`preferredForwardBufferDuration` 0): a few seconds for files, more for the network,
    /// where reading ahead is what rides out slow patches. The packet queues' byte limit
    /// still applies.
    static func automaticForwardBuffer(isNetwork: Bool) -> Double { isNetwork ? 30 : 2 }

    /// Starts tracking buffering for `pipeline` (demux thread, before its first read).
    func startBufferTracking(_ pipeline: Pipeline) {
        buffering.withLock { $0 = BufferTracker(pipeline: pipeline, clock: environment.hostClock) }
    }

    /// Re-evaluates the buffer (after noting `packet`, when given) and reports what changed.
    ///
    /// - Parameters:
    ///   - packet: a packet the demuxer just read.
    ///   - endOfStream: the demuxer reached the end (sticky until `restartBuffer`).
    ///   - force: report even when nothing changed.
    func refreshBuffer(noting packet: Packet? = nil, endOfStream: Bool = false, force: Bool = false) {
        let position = currentTime()
        buffering.withLock { tracker in
            if let packet { tracker?.note(packet) }
            guard let report = tracker?.update(position: position, endOfStream: endOfStream, force: force)
            else { return }
            self.report(.buffer(report))
        }
    }

    /// A seek moved reading to `target`: the buffered range starts again there.
    func restartBuffer(at target: CMTime) {
        buffering.withLock { $0?.restart(at: target) }
    }

    /// Makes a network read that may be stuck on a stalled connection give up, so the seek
    /// does not wait for it: the demux thread then serves the seek from memory when the target
    /// is buffered, else seeks the demuxer. Main queue, from `seek`.
    func interruptReadForSeek(to target: CMTime) {
        guard !asset.sourceURL.isFileURL else { return }
        // Never during the open (which a kick would fail): only once reading started.
        guard buffering.withLock({ $0 != nil }) else { return }
        // Kicked under the control lock, and only while the demux thread has not picked the
        // seek up: once it has (and cleared any earlier kick), a kick would cut a read made
        // after the seek instead of the stuck one before it.
        control.withLock { control in
            if control.demuxSeekGeneration < control.generation { interrupt.kick() }
        }
    }
}
