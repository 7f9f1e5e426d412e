// Playhead: keeps the item's buffer flags current from two threads: the demux thread notes
// what it read, and the presentation thread re-checks while time runs, so a demuxer stuck on a
// slow network still turns into "buffer empty" (and a stall) on time.
//
// Concurrency: the tracker lives in the coordinator's state; the demux and presentation
// threads post what they saw, and the coordinator sends the reports in the order it decided
// them.
import FFmpegBridge
import Foundation

extension ItemPlayback {
    /// The forward buffer used when the item asks for the automatic one
    /// (`preferredForwardBufferDuration` 0): a few seconds for files, more for the network,
    /// where reading ahead is what rides out slow patches. The packet queues' byte limit
    /// still applies.
    static func automaticForwardBuffer(isNetwork: Bool) -> Double { isNetwork ? 30 : 2 }

    /// Starts tracking buffering (demux thread, before its first read).
    func startBufferTracking() {
        post(.readingStarted)
    }

    /// Re-evaluates the buffer (after noting `packet`, when given) and reports what changed.
    ///
    /// - Parameters:
    ///   - packet: a packet the demuxer just read.
    ///   - endOfStream: the demuxer reached the end (sticky until `restartBuffer`).
    ///   - force: report even when nothing changed.
    func refreshBuffer(noting packet: Packet? = nil, endOfStream: Bool = false, force: Bool = false) {
        let host = environment.hostClock.now
        if let packet {
            post(.packetRead(packet, host: host))
        } else {
            post(.bufferCheck(endOfStream: endOfStream, force: force, host: host))
        }
    }

    /// A seek moved reading to `target`: the buffered range starts again there.
    func restartBuffer(at target: CMTime) {
        post(.readingRestarted(at: target))
    }
}
