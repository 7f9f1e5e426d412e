// Playhead: the queues and outputs that connect an item's threads once its media is open.
//
// Concurrency: created by the open work, then shared read-only (its members are thread-safe:
// queues lock internally, the ring is single-producer/single-consumer, the audio output is
// thread-safe). `flush` and `abort` may be called from any thread.
import FFmpegBridge
import Foundation

/// The connecting parts of one item's playback.
final class Pipeline: Sendable {
    let description: MediaDescription
    let videoStream: Int?
    let audioStream: Int?
    let videoPackets: BoundedQueue<Packet>
    let audioPackets: BoundedQueue<Packet>
    let videoFrames: BoundedQueue<VideoFrame>
    /// nil when the item has no audio or audio is disabled.
    let ring: AudioRingBuffer?
    let audioOutput: (any AudioOutput)?
    /// Decoders handed from the demux thread to the audio thread, and the subtitle cues.
    let switchboard = StreamSwitchboard()

    init(
        description: MediaDescription, videoStream: Int?, audioStream: Int?, ring: AudioRingBuffer?,
        audioOutput: (any AudioOutput)?, forwardBuffer: Double
    ) {
        self.description = description
        self.videoStream = videoStream
        self.audioStream = audioStream
        let ahead = CMTime(seconds: max(forwardBuffer, 2), preferredTimescale: 1000)
        let packetLimits = BoundedQueue<Packet>.Limits(
            count: 2_000, cost: 64 << 20, duration: ahead, refillGap: Self.packetRefillGap)
        videoPackets = BoundedQueue(limits: packetLimits)
        audioPackets = BoundedQueue(limits: packetLimits)
        videoFrames = BoundedQueue(limits: .init(count: 3))
        self.ring = ring
        self.audioOutput = audioOutput
    }

    /// How much a full packet queue drains before the demux thread reads on: it reads in bursts
    /// of about this much media instead of one packet per packet taken (quiet while playing).
    static let packetRefillGap = CMTime(value: 1, timescale: 2)

    /// Drops everything queued and moves every stage to `generation`.
    func flush(generation: Int) {
        videoPackets.flush(newGeneration: generation)
        audioPackets.flush(newGeneration: generation)
        videoFrames.flush(newGeneration: generation)
        ring?.flush(newGeneration: generation)
    }

    /// Releases every thread blocked on a queue, for teardown.
    func abort() {
        videoPackets.abort()
        audioPackets.abort()
        videoFrames.abort()
        switchboard.cues.changed.wake()
    }
}
