// Playhead: end of stream, tied to the generation it belongs to.
//
// Concurrency: called from the demux, video decode and audio threads. A seek flushes every
// queue while holding `control`'s lock (see `ItemPlayback.seek`), so marking an end of stream
// under the same lock, after checking the generation, can never leak an old generation's end
// into the queues of a newer one.
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

    /// Runs `mark` under the control lock if `generation` is still current.
    /// - Returns: whether it ran.
    @discardableResult
    func markEndOfStream(generation: Int, _ mark: (inout PlaybackControl) -> Void) -> Bool {
        control.withLock { control in
            guard control.generation == generation, !control.stopped else { return false }
            mark(&control)
            return true
        }
    }
}
