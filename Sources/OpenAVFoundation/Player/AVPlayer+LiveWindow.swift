// Playhead: a live HLS item's window, as its loader reloads the playlist: `seekableTimeRanges`
// follows it, and playback that fell behind it moves on: to the live edge while playing, to
// the window's start as soon as a player paused meanwhile plays again.
//
// Concurrency: main queue (engine events are received there).
import Foundation

extension AVPlayer {
    /// Applies a live item's new `window` (engine event, main queue); `edge` is where live
    /// playback starts.
    nonisolated func followLiveWindow(_ window: CMTimeRange, edge: CMTime, item: AVPlayerItem) {
        item.publish(\AVPlayerItem.seekableTimeRanges) { $0.seekableTimeRanges = [window] }
        let now = currentTime()
        guard now.isNumeric, now < window.start,
            item.state.withLock({ $0.pendingSeek == nil })
        else { return }
        if rate == 0 {
            item.state.withLock { $0.fellBehindLiveWindowWhilePaused = true }
            return
        }
        let paused = item.state.withLock { state in
            defer { state.fellBehindLiveWindowWhilePaused = false }
            return state.fellBehindLiveWindowWhilePaused
        }
        let target = paused ? window.start : max(edge, window.start)
        item.seek(to: target, toleranceBefore: .zero, toleranceAfter: .positiveInfinity, completionHandler: nil)
    }

    /// Before playing again: a live item whose time fell out of its window while paused moves
    /// to the window's start (main queue).
    nonisolated func resumeLiveAtWindowStart() {
        guard let item = state.withLock({ $0.currentItem }),
            let window = item.state.withLock({ state -> CMTimeRange? in
                guard state.fellBehindLiveWindowWhilePaused else { return nil }
                state.fellBehindLiveWindowWhilePaused = false
                return state.seekableTimeRanges.first
            })
        else { return }
        item.seek(to: window.start, toleranceBefore: .zero, toleranceAfter: .positiveInfinity, completionHandler: nil)
    }
}
