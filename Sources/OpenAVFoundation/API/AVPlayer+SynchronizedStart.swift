// Playhead: starting playback at a given host time, so several players start together (the
// video-wall case).
//
// Concurrency: the work runs on the main queue, like every other transport command.
import Foundation

extension AVPlayer {
    /// Plays at `rate` so that the item is at `itemTime` when the host clock
    /// (`CMClockGetHostTimeClock()`, `CACurrentMediaTime()`) reads `hostClockTime`: players
    /// given the same times start in step. An invalid `itemTime` starts from the current time;
    /// an invalid `hostClockTime` starts as soon as the item is at `itemTime`. Until the host
    /// time comes the item shows the picture at `itemTime` and plays no sound.
    ///
    /// As on Apple platforms this needs `automaticallyWaitsToMinimizeStalling` to be false
    /// (Apple raises an exception otherwise); Playhead prints a one-line warning and starts
    /// without waiting.
    nonisolated public func setRate(_ rate: Float, time itemTime: CMTime, atHostTime hostClockTime: CMTime) {
        let player = self
        MainQueue.perform { player.startSynchronized(rate: rate, itemTime: itemTime, hostTime: hostClockTime) }
    }

    /// `setRate(_:time:atHostTime:)` on the main queue.
    private nonisolated func startSynchronized(rate: Float, itemTime: CMTime, hostTime: CMTime) {
        if automaticallyWaitsToMinimizeStalling {
            FileHandle.standardError.write(
                Data("playhead: setRate(_:time:atHostTime:) needs automaticallyWaitsToMinimizeStalling = false; starting without waiting\n".utf8))
        }
        let (item, engine) = state.withLock { ($0.currentItem, $0.engine) }
        guard let item else { return }
        if itemTime.isNumeric {
            item.seek(to: itemTime, toleranceBefore: .zero, toleranceAfter: .zero, completionHandler: nil)
        }
        if rate > 0, hostTime.isNumeric { engine?.scheduleStart(atHost: hostTime.seconds) }
        applyRate(rate, immediately: true)
    }
}
