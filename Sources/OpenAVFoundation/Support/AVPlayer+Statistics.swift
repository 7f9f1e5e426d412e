// Playhead: counters of what the current item's playback did, for the CLI and benchmarks.

extension AVPlayer {
    /// What playback of the current item has done so far (frames shown and dropped, audio
    /// played); zero with no item.
    package var playbackStatistics: PlaybackStatistics {
        state.withLock { $0.engine }?.statistics ?? PlaybackStatistics()
    }
}
