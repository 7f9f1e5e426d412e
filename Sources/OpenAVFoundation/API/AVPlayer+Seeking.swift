// Playhead: every way to move an AVPlayer's current item to another time.
import Foundation

extension AVPlayer {
    /// Moves to `time`, landing on a nearby keyframe when that is faster.
    nonisolated public func seek(to time: CMTime) {
        seek(to: time, toleranceBefore: .positiveInfinity, toleranceAfter: .positiveInfinity)
    }

    /// Moves to `time` (near it when faster) and calls `completionHandler` on the main queue with
    /// `true` once the first frame at the new time is ready, or `false` if a newer seek or an
    /// item change interrupted it.
    nonisolated public func seek(to time: CMTime, completionHandler: @escaping @Sendable (Bool) -> Void) {
        seek(
            to: time, toleranceBefore: .positiveInfinity, toleranceAfter: .positiveInfinity,
            completionHandler: completionHandler)
    }

    /// Moves to `time` and returns whether the seek finished uninterrupted.
    nonisolated public func seek(to time: CMTime) async -> Bool {
        await seek(to: time, toleranceBefore: .positiveInfinity, toleranceAfter: .positiveInfinity)
    }

    /// Moves to a time within [`time` − `toleranceBefore`, `time` + `toleranceAfter`]. Zero
    /// tolerances give a frame-exact seek.
    nonisolated public func seek(to time: CMTime, toleranceBefore: CMTime, toleranceAfter: CMTime) {
        currentItem?.seek(
            to: time, toleranceBefore: toleranceBefore, toleranceAfter: toleranceAfter,
            completionHandler: nil)
    }

    /// Moves within the tolerances and reports completion as `seek(to:completionHandler:)` does.
    nonisolated public func seek(
        to time: CMTime, toleranceBefore: CMTime, toleranceAfter: CMTime,
        completionHandler: @escaping @Sendable (Bool) -> Void
    ) {
        guard let item = currentItem else {
            MainQueue.async { completionHandler(false) }
            return
        }
        item.seek(
            to: time, toleranceBefore: toleranceBefore, toleranceAfter: toleranceAfter,
            completionHandler: completionHandler)
    }

    /// Moves within the tolerances and returns whether the seek finished uninterrupted.
    nonisolated public func seek(to time: CMTime, toleranceBefore: CMTime, toleranceAfter: CMTime)
        async -> Bool
    {
        await withCheckedContinuation { continuation in
            seek(to: time, toleranceBefore: toleranceBefore, toleranceAfter: toleranceAfter) {
                continuation.resume(returning: $0)
            }
        }
    }

    // MARK: - Internals (main queue)

    /// Starts `request`, which `item` already holds as its pending seek, on the item's engine
    /// when the item is this player's current one.
    nonisolated func startSeek(_ request: SeekRequest, on item: AVPlayerItem) {
        guard let engine = state.withLock({ $0.currentItem === item ? $0.engine : nil }) else { return }
        item.state.withLock { if $0.pendingSeek?.id == request.id { $0.pendingSeekIsRunning = true } }
        handle(.timeJumped)
        engine.seek(request)
    }

    /// Completes `item`'s pending seek `id` (engine event).
    nonisolated func finishSeek(id: Int, at time: CMTime, item: AVPlayerItem) {
        let request = item.state.withLock { state -> SeekRequest? in
            // A newer seek is in flight (or none is): this landing is already out of date.
            guard let pending = state.pendingSeek, pending.id == id else { return nil }
            state.pendingSeek = nil
            state.pendingSeekIsRunning = false
            return pending
        }
        guard let request else { return }
        handle(.seekFinished)
        item.post(AVPlayerItem.timeJumpedNotification)
        item.itemTimebase?.noteJump()
        timeObserversNoteTime(time, continuous: false)
        request.completion?(true)
    }
}
