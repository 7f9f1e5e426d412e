// Playhead: `AVPlayer.seek(to: Date)`: the current item's wall-clock seek (AVPlayerItem+Dates.swift)
// from the player, as Apple's player offers it.
//
// Concurrency: any thread, as the item's seeks; handlers run on the main queue.
import Foundation

extension AVPlayer {
    /// Moves the current item to the moment its stream dates `date` (an HLS stream with
    /// `EXT-X-PROGRAM-DATE-TIME`, a live DASH stream); nothing happens when it has no such
    /// moment.
    nonisolated public func seek(to date: Date) {
        _ = currentItem?.seek(to: date, completionHandler: nil)
    }

    /// Moves the current item to the moment its stream dates `date`; `completionHandler` runs
    /// on the main queue with whether the seek finished uninterrupted (false at once when
    /// there is no item or no such moment).
    nonisolated public func seek(
        to date: Date, completionHandler: @escaping @Sendable (Bool) -> Void
    ) {
        guard let item = currentItem, item.seek(to: date, completionHandler: completionHandler)
        else {
            MainQueue.async { completionHandler(false) }
            return
        }
    }

    /// Moves the current item to the moment its stream dates `date` and returns whether the
    /// seek finished uninterrupted (false when there is no item or no such moment).
    nonisolated public func seek(to date: Date) async -> Bool {
        guard let item = currentItem else { return false }
        return await item.seek(to: date)
    }
}
