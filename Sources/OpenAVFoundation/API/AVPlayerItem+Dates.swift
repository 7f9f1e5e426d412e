// Playhead: the wall-clock dates of a stream: `currentDate()` and `seek(to: Date)`, from an HLS
// media playlist's `EXT-X-PROGRAM-DATE-TIME` tags or a live DASH manifest's availability times.
import Foundation

extension AVPlayerItem {
    /// The date of the moment playing now, when the stream dates its timeline (an HLS media
    /// playlist with `EXT-X-PROGRAM-DATE-TIME`, a live DASH manifest streamed by Playhead's
    /// loader); nil otherwise, and before the item is ready.
    nonisolated public func currentDate() -> Date? {
        guard let dates = state.withLock({ $0.programDates }) else { return nil }
        let time = currentTime()
        return time.isNumeric ? dates.date(at: time.seconds) : nil
    }

    /// Moves to the moment the stream dates `date`, exactly; returns false (and does not call
    /// `completionHandler`) when the item has no dates, no segment covers `date`, or that moment
    /// is outside `seekableTimeRanges` (a live stream read by libavformat has none). The handler
    /// runs on the main queue as for ``seek(to:completionHandler:)``.
    @discardableResult
    nonisolated public func seek(to date: Date, completionHandler: (@Sendable (Bool) -> Void)? = nil) -> Bool {
        let (dates, seekable) = state.withLock { ($0.programDates, $0.seekableTimeRanges) }
        guard let dates, let seconds = dates.time(for: date),
            seekable.contains(where: { $0.start.seconds <= seconds + 1e-6 && seconds <= $0.end.seconds + 1e-6 })
        else {
            return false
        }
        seek(
            to: CMTime(seconds: seconds, preferredTimescale: 1_000_000), toleranceBefore: .zero, toleranceAfter: .zero,
            completionHandler: completionHandler)
        return true
    }

    /// Moves to the moment the stream dates `date`; false when it has no such moment. Apple
    /// deprecated it for ``seek(to:completionHandler:)-(Date,_)``.
    @available(*, deprecated, message: "Use seek(to:completionHandler:) instead")
    nonisolated public func seek(to date: Date) -> Bool {
        seek(to: date, completionHandler: nil)
    }

    /// Moves to the moment the stream dates `date` and returns whether the seek finished
    /// uninterrupted (false at once when it has no such moment).
    nonisolated public func seek(to date: Date) async -> Bool {
        await withCheckedContinuation { continuation in
            let started = seek(to: date) { finished in continuation.resume(returning: finished) }
            if !started { continuation.resume(returning: false) }
        }
    }
}
