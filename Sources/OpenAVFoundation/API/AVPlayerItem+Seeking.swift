// Playhead: seeking an AVPlayerItem.
import Foundation

extension AVPlayerItem {
    /// Moves to `time` (near it when faster); `completionHandler` runs on the main queue with
    /// `true` when the first frame at the new time is ready, `false` when interrupted.
    ///
    /// A seek before the item is ready waits until it is. A seek while paused shows the
    /// frame at the new time.
    nonisolated public func seek(to time: CMTime, completionHandler: (@Sendable (Bool) -> Void)? = nil) {
        seek(
            to: time, toleranceBefore: .positiveInfinity, toleranceAfter: .positiveInfinity,
            completionHandler: completionHandler)
    }

    /// Moves to a time within [`time` − `toleranceBefore`, `time` + `toleranceAfter`]; zero
    /// tolerances give a frame-exact seek. Invalid times or negative tolerances complete with
    /// `false` (Apple raises an exception instead), and so does seeking a failed item (or an
    /// item that fails before the seek lands).
    nonisolated public func seek(
        to time: CMTime, toleranceBefore: CMTime, toleranceAfter: CMTime,
        completionHandler: (@Sendable (Bool) -> Void)? = nil
    ) {
        let item = self
        MainQueue.perform {
            guard time.isNumeric || time.isPositiveInfinity || time.isNegativeInfinity,
                toleranceBefore.isValid, toleranceAfter.isValid,
                toleranceBefore >= .zero, toleranceAfter >= .zero, item.status != .failed
            else {
                completionHandler?(false)
                return
            }
            let player = item.state.withLock { $0.player }
            let id = SeekIDSource.shared.next()
            let clamped = time.isNegativeInfinity ? CMTime.zero : time
            let request = SeekRequest(
                id: id, target: clamped, toleranceBefore: toleranceBefore,
                toleranceAfter: toleranceAfter, completion: completionHandler)
            let previous = item.state.withLock { state in
                defer {
                    state.pendingSeek = request
                    state.pendingSeekIsRunning = false
                    state.hasBeenSought = true
                    if player == nil { state.lastTime = clamped.isNumeric ? clamped : .zero }
                }
                return state.pendingSeek
            }
            previous?.completion?(false)
            player?.startSeek(request, on: item)
        }
    }

    /// Moves to `time` and returns whether the seek finished uninterrupted.
    nonisolated public func seek(to time: CMTime) async -> Bool {
        await seek(to: time, toleranceBefore: .positiveInfinity, toleranceAfter: .positiveInfinity)
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

    /// Interrupts a pending seek; its completion handler gets `false`.
    nonisolated public func cancelPendingSeeks() {
        let item = self
        MainQueue.perform {
            let request = item.state.withLock { state in
                defer { state.pendingSeek = nil; state.pendingSeekIsRunning = false }
                return state.pendingSeek
            }
            request?.completion?(false)
        }
    }
}

/// Hands out seek identifiers, increasing across the whole process (every player and item
/// draws from `shared`), so an engine can use them as its generations; thread-safe.
final class SeekIDSource: Sendable {
    /// The one source seeks draw from.
    static let shared = SeekIDSource()
    private let counter = Locked(1)
    /// The next identifier.
    func next() -> Int { counter.withLock { value in defer { value += 1 }; return value } }
}
