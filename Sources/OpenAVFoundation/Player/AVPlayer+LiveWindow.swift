// Playhead: a live HLS item's window, as its loader reloads the playlist: `seekableTimeRanges`
// follows it, and playback that fell behind it moves on: to the live edge while playing, to
// the window's start as soon as a player paused meanwhile plays again. A configured offset from
// the live edge (`configuredTimeOffsetFromLive`) applies when the item opens and when it falls
// behind; `automaticallyPreservesTimeOffsetFromLive` brings playback that drifted back to it.
// Without one, an HLS item opens where its playlist's `EXT-X-START` asks.
//
// Concurrency: main queue (engine events are received there).
import Foundation

extension AVPlayer {
    /// Applies a live item's new `window` (engine event, main queue) with Playhead's
    /// `recommendedOffset` from its end.
    nonisolated func followLiveWindow(_ window: CMTimeRange, recommendedOffset: CMTime, item: AVPlayerItem) {
        item.publish(\AVPlayerItem.seekableTimeRanges) { $0.seekableTimeRanges = [window] }
        if item.state.withLock({ $0.recommendedLiveOffset }) != recommendedOffset {
            item.publish(\AVPlayerItem.recommendedTimeOffsetFromLive) { $0.recommendedLiveOffset = recommendedOffset }
        }
        let now = currentTime()
        guard now.isNumeric, item.state.withLock({ $0.pendingSeek == nil }) else { return }
        if now >= window.start {
            // Inside the window: back to the offset when drifted two target durations past it.
            let offset = item.liveOffset ?? recommendedOffset
            let target = recommendedOffset.seconds / HLSLiveTimeline.edgeTargets
            if rate != 0, item.automaticallyPreservesTimeOffsetFromLive,
                (window.end - now).seconds > offset.seconds + 2 * target
            {
                item.seek(
                    to: liveTarget(in: window, offset: offset), toleranceBefore: .zero,
                    toleranceAfter: .positiveInfinity, completionHandler: nil)
            }
            return
        }
        if rate == 0 {
            item.state.withLock { $0.fellBehindLiveWindowWhilePaused = true }
            return
        }
        let paused = item.state.withLock { state in
            defer { state.fellBehindLiveWindowWhilePaused = false }
            return state.fellBehindLiveWindowWhilePaused
        }
        let target = paused ? window.start : liveTarget(in: window, offset: item.liveOffset ?? recommendedOffset)
        item.seek(to: target, toleranceBefore: .zero, toleranceAfter: .positiveInfinity, completionHandler: nil)
    }

    /// `offset` before `window`'s end, never before its start.
    private nonisolated func liveTarget(in window: CMTimeRange, offset: CMTime) -> CMTime {
        max(window.start, window.end - offset)
    }

    /// When an item opens, unless the app asked for a time already: a live item moves to its
    /// configured offset from the live edge, when one is set; otherwise an HLS item moves to
    /// where its playlist asks playback to start (`EXT-X-START`, resolved by the loader: the
    /// point itself, or the start of its segment, where the keyframe that begins it is the
    /// first after) (main queue).
    nonisolated func startAtRequestedPoint(_ item: AVPlayerItem, playlistStart: (seconds: Double, precise: Bool)?) {
        // Every seek marks the item, one still pending included.
        guard !item.state.withLock({ $0.hasBeenSought }) else { return }
        if item.duration.isIndefinite, item.configuredTimeOffsetFromLive.isNumeric, let offset = item.liveOffset {
            guard let range = item.state.withLock({ $0.seekableTimeRanges.first }) else { return }
            item.seek(
                to: liveTarget(in: range, offset: offset), toleranceBefore: .zero, toleranceAfter: .positiveInfinity,
                completionHandler: nil)
            return
        }
        guard let playlistStart else { return }
        item.seek(
            to: CMTime(seconds: playlistStart.seconds, preferredTimescale: 1000), toleranceBefore: .zero,
            toleranceAfter: playlistStart.precise ? .zero : .positiveInfinity, completionHandler: nil)
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
