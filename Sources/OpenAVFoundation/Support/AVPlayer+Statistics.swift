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

extension AVPlayerItem {
    /// Times playback of this item stalled (ran out of media while playing).
    package var stallCount: Int { state.withLock { $0.stallCount } }

    /// Seconds this item's playback spent stalled, the stall going on included.
    package var stallSeconds: Double {
        state.withLock { state in
            state.stallSeconds + (state.stallBegan.map { ThreadCondition.monotonicNow() - $0 } ?? 0)
        }
    }

    /// A stall began (the player posts `playbackStalledNotification`).
    nonisolated func noteStallBegan() {
        state.withLock { state in
            state.stallCount += 1
            state.stallBegan = ThreadCondition.monotonicNow()
        }
    }

    /// The item plays again: a stall going on is over.
    nonisolated func noteStallEnded() {
        state.withLock { state in
            guard let began = state.stallBegan else { return }
            state.stallSeconds += ThreadCondition.monotonicNow() - began
            state.stallBegan = nil
        }
    }

    /// The HLS variant statistics of this item, when Playhead's loader streamed it: the
    /// variant playing (nil for a media playlist on its own), how often it changed, and the throughput observed over all segments.
    package var streamingSummary: (bandwidth: Int?, switches: Int, observedBitrate: Double)? {
        guard let log = state.withLock({ $0.streamingLog }) else { return nil }
        let records = log.accessRecords
        let bytes = records.reduce(Int64(0)) { $0 + $1.bytes }
        let seconds = records.reduce(0) { $0 + $1.transferSeconds }
        // A media playlist on its own states no rate (indicated -1): no variant to show.
        let playing = playingVariantBitRate ?? records.last.flatMap { $0.indicatedBitrate > 0 ? Int($0.indicatedBitrate) : nil }
        return (playing, log.variantSwitches, seconds > 0 ? Double(bytes) * 8 / seconds : 0)
    }
}
