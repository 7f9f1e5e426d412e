// Playhead: holding an item's playback back while it prerolls as the next item of a queue.
//
// Concurrency: `setHeld` is a command (main queue); it changes `control` under its lock and
// wakes the presentation and video decode threads. The readiness queries may be called from any thread (the
// queues they read lock internally).
import FFmpegBridge
import Foundation

extension ItemPlayback {
    /// Holds (true) or releases (false) presentation. A held engine opens its media, demuxes
    /// and decodes until its queues are full, but shows no frame, plays no audio (its rate
    /// stays 0) and reports no time: the next item of a queue, ready to take over at once.
    func setHeld(_ held: Bool) {
        control.withLock { $0.isHeld = held }
        presenterWake.wake()
        videoWake.wake()
    }

    /// True once the media is open and the first video frame of the current generation (after
    /// any seek issued) is decoded and waiting (for an item with video), or once it is open
    /// (for audio only).
    var isFirstFrameReady: Bool {
        guard let pipeline = pipeline.withLock({ $0 }) else { return false }
        guard pipeline.videoStream != nil else { return true }
        let generation = control.withLock { $0.generation }
        return pipeline.videoFrames.peek()?.generation == generation
    }

    /// True when the opened media has a video stream (false before it opened).
    var hasVideoStream: Bool { pipeline.withLock { $0 }?.videoStream != nil }
}
