// Playhead: counters of what the current item's playback did, for the CLI and benchmarks.

extension AVPlayer {
    /// What playback of the current item has done so far (frames shown and dropped, audio
    /// played); zero with no item.
    package var playbackStatistics: PlaybackStatistics {
        state.withLock { $0.engine }?.statistics ?? PlaybackStatistics()
    }
}

extension AVPlayerItem {
    /// What playback of this item has done (frames shown and dropped, audio played): live
    /// while it is current, kept after it stops being current (a queue moved on).
    package var playbackStatistics: PlaybackStatistics {
        let (engine, last) = state.withLock { ($0.engine, $0.lastStatistics) }
        return engine?.statistics ?? last
    }
}
