// Playhead: one word for where playback stands, derived from a `PlaybackState` (what the
// reference players call the player state: playing, paused, buffering, ended, failed).
//
// Concurrency: plain values.

extension PlaybackState {
    /// Where playback stands, in one word.
    public enum Status: Equatable, Sendable {
        /// No item, or the item is still opening.
        case loading
        /// Ready and not playing.
        case paused
        /// Playing.
        case playing
        /// Asked to play but waiting for data.
        case buffering
        /// Stopped at the end of the item.
        case ended
        /// The item failed.
        case failed
    }

    /// The status this state shows.
    public var status: Status {
        switch phase {
        case .failed: return .failed
        case .loading: return .loading
        case .ready:
            if isAtEnd { return .ended }
            if isPlaying { return isWaiting ? .buffering : .playing }
            return .paused
        }
    }
}
