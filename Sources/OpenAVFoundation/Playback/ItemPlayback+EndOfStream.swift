// Playhead: end of stream, tied to the generation it belongs to.
//
// Concurrency: called from the demux, video decode and audio threads. Ends are posted to the
// coordinator (`.packetsEnded`, `.videoEnded`, `.audioEnded`), which marks a queue ended only
// when the end's generation is still current: a seek flushes the queues in the same serial
// section, so an old generation's end can never leak into the queues of a newer one. The
// demux thread alone takes the audio queue's end back (`BoundedQueue.reopenEnd`, when an audio
// rendition starts after everything was read): only while packets are still queued, so the
// audio thread has not met it, and a seek's flush clears it anyway.
import FFmpegBridge
import Foundation

extension ItemPlayback {
    /// After `take()` on `queue` returned nil: the generation whose end of stream was reached,
    /// or nil when the queue was aborted or a seek flushed it meanwhile (take again).
    func endOfStreamGeneration<Element>(of queue: BoundedQueue<Element>) -> Int? {
        let statistics = queue.statistics
        guard statistics.endOfStreamReached, !statistics.isAborted else { return nil }
        return statistics.generation
    }
}
