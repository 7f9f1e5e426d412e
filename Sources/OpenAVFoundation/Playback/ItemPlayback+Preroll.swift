// Playhead: holding an item's playback back while it prerolls as the next item of a queue.
//
// Concurrency: `setHeld` is a command (main queue), posted to the coordinator, which wakes
// the presentation and video decode threads. The readiness queries may be called from any
// thread (they read the coordinator's state and the queues, which lock internally).
import FFmpegBridge
import Foundation

extension ItemPlayback {
    /// Holds (true) or releases (false) presentation. A held engine opens its media, demuxes
    /// and decodes until its queues are full, but shows no frame, plays no audio (its rate
    /// stays 0) and reports no time: the next item of a queue, ready to take over at once.
    func setHeld(_ held: Bool) {
        post(.setHeld(held))
    }

    /// True once the media is open and the first video frame of the current generation (after
    /// any seek issued) is decoded and waiting (for an item with video), or once it is open
    /// (for audio only).
    var isFirstFrameReady: Bool { coordinator.read { $0.isFirstFrameReady } }

    /// True when the opened media has a video stream (false before it opened).
    var hasVideoStream: Bool { pipeline?.videoStream != nil }

    /// False when this engine, held as a queue's next item, follows an item known to have no
    /// sound (opened without audio, or failed to open): the shared device's playing ring is
    /// then an older item's, still playing out its end or not yet let go of, and following it
    /// would start this item's sound (and its clock) while the silent or failed item is the
    /// current one. It starts when its item does instead. True otherwise, an item not yet
    /// opened included.
    var followsPredecessorsSound: Bool {
        guard let predecessor = settings.predecessor?.value else { return true }
        if predecessor.failedToOpen.load(ordering: .acquiring) { return false }
        guard let opened = predecessor.pipeline else { return true }
        return opened.audioStream != nil
    }
}
