// Playhead: attaching video sinks (player layers, front ends) to a player after creation.
//
// Concurrency: thread-safe; the sink set is behind a lock. A sink added while an item plays
// receives frames from the next presentation on.

extension AVPlayer {
    /// Starts sending presented video frames to `sink` (a player layer, a front end's view).
    ///
    /// - Important: Thread-safe. `sink.present` is called on the presentation thread.
    nonisolated package func addVideoSink(_ sink: any VideoSink) {
        environment.videoSinks.add(sink)
    }

    /// Stops sending video frames to `sink`.
    ///
    /// - Important: Thread-safe. A presentation already under way may still reach `sink` once.
    nonisolated package func removeVideoSink(_ sink: any VideoSink) {
        environment.videoSinks.remove(sink)
    }
}
