// Playhead: where a live HLS item plays relative to its live edge (the end of the window its
// playlist lists), for streams of Playhead's own loader.
//
// Concurrency: like the rest of AVPlayerItem: read and written under the item's state lock
// from any thread.
import Foundation

extension AVPlayerItem {
    /// How far behind the end of a live stream's window playback should be: where it moves when
    /// the item becomes ready and where playback that fell behind the window lands. `.invalid`
    /// (the default) uses `recommendedTimeOffsetFromLive`. Set it before the item is ready; a
    /// value beyond the window lands at the window's start.
    nonisolated public var configuredTimeOffsetFromLive: CMTime {
        get { state.withLock { $0.configuredLiveOffset } }
        set { state.withLock { $0.configuredLiveOffset = newValue.isNumeric && newValue >= .zero ? newValue : .invalid } }
    }

    /// The offset behind a live stream's window end Playhead plays at by default: the HOLD-BACK
    /// its playlist's `EXT-X-SERVER-CONTROL` asks for (a DASH manifest's
    /// `suggestedPresentationDelay`), else three target durations of its playlist (RFC 8216
    /// §6.3.3). `.invalid` for items that are not live streams of Playhead's loader, and before
    /// the item is ready. Observable.
    nonisolated public var recommendedTimeOffsetFromLive: CMTime {
        read(\AVPlayerItem.recommendedTimeOffsetFromLive) { $0.recommendedLiveOffset }
    }

    /// When true, live playback that drifted behind its offset from the live edge (stalls, a
    /// slow rate) by more than two target durations moves back to it at the next reload of the
    /// playlist. Default false.
    nonisolated public var automaticallyPreservesTimeOffsetFromLive: Bool {
        get { state.withLock { $0.preservesLiveOffset } }
        set { state.withLock { $0.preservesLiveOffset = newValue } }
    }

    /// The offset in effect: the configured one, else the recommended one; nil when not live.
    nonisolated var liveOffset: CMTime? {
        state.withLock { state in
            if state.configuredLiveOffset.isNumeric { return state.recommendedLiveOffset.isNumeric ? state.configuredLiveOffset : nil }
            return state.recommendedLiveOffset.isNumeric ? state.recommendedLiveOffset : nil
        }
    }
}
