// Playhead: the CLI's video sink: counts presented frames and enforces `--frames N`.
//
// Concurrency: `present` runs on the engine's presentation thread; counters are behind a lock.
// The limit callback is delivered on the main queue.
import FFmpegBridge
import Foundation
import OpenAVFoundation
import Synchronization

/// Counts frames for the report and stops playback after a frame limit.
final class FrameCountingSink: VideoSink {
    private struct State {
        var count = 0
        var limit: Int?
        var limitReported = false
        var onLimit: (@Sendable () -> Void)?
    }

    private let state = Locked(State())

    /// Starts counting from zero with an optional limit; `onLimit` runs on the main queue once.
    func reset(limit: Int?, onLimit: (@Sendable () -> Void)?) {
        state.withLock { $0 = State(limit: limit, onLimit: onLimit) }
    }

    /// Frames counted since the last reset (never more than the limit).
    var count: Int { state.withLock { $0.count } }

    func present(_ frame: VideoFrame, itemTime: CMTime) {
        let callback: (@Sendable () -> Void)? = state.withLock { state in
            if let limit = state.limit, state.count >= limit { return nil }
            state.count += 1
            guard let limit = state.limit, state.count >= limit, !state.limitReported else { return nil }
            state.limitReported = true
            return state.onLimit
        }
        if let callback { DispatchQueue.main.async(execute: callback) }
    }

    func clear() {}
}
