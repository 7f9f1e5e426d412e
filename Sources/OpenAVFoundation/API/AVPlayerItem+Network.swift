// Playhead: AVPlayerItem settings and facts that matter for network media.
//
// Concurrency: like the rest of AVPlayerItem: settings are read and written under the item's
// state lock from any thread.
import Foundation

extension AVPlayerItem {
    /// The most network bandwidth, in bits per second, the item should use; 0 (the default)
    /// sets no limit. For a multivariant HLS or DASH stream no variant above it is fetched (the
    /// lowest when none fits): set before the item plays, it picks the variant of the first
    /// segments too (unless the asset's keys were loaded first: that open fetched its first
    /// segments already); a change during playback applies from the next segment.
    nonisolated public var preferredPeakBitRate: Double {
        get { state.withLock { $0.preferredPeakBitRate } }
        set {
            state.withLock { $0.preferredPeakBitRate = max(0, newValue.isFinite ? newValue : 0) }
            applyVariantCaps()
        }
    }

    /// The largest picture a multivariant HLS stream's variant may have; zero (the default)
    /// sets no limit. Variants whose `RESOLUTION` exceeds it in either dimension are not
    /// fetched (the lowest when none fits), from the first segment as ``preferredPeakBitRate``;
    /// a change during playback applies from the next segment.
    nonisolated public var preferredMaximumResolution: CGSize {
        get { state.withLock { $0.preferredMaximumResolution } }
        set {
            let valid = newValue.width.isFinite && newValue.height.isFinite
            state.withLock { $0.preferredMaximumResolution = valid ? newValue : .zero }
            applyVariantCaps()
        }
    }

    /// The peak bit rate for networks the system calls expensive (cellular, metered); 0 sets
    /// no limit. Accepted for ported code and not applied: Playhead reads no metered-network
    /// signal, so ``preferredPeakBitRate`` is the only cap.
    nonisolated public var preferredPeakBitRateForExpensiveNetworks: Double {
        get { state.withLock { $0.preferredPeakBitRateForExpensiveNetworks } }
        set { state.withLock { $0.preferredPeakBitRateForExpensiveNetworks = max(0, newValue.isFinite ? newValue : 0) } }
    }

    /// Whether an HLS stream starts on the first variant its multivariant playlist lists that
    /// ``preferredPeakBitRate`` and ``preferredMaximumResolution`` allow, instead of the highest
    /// variant the last throughput measured to that server carries in time (docs/porting.md).
    /// Read when the item starts playing; adaptation goes on from there as usual. DASH streams
    /// and assets whose keys were loaded before they played start by throughput.
    nonisolated public var startsOnFirstEligibleVariant: Bool {
        get { state.withLock { $0.startsOnFirstEligibleVariant } }
        set { state.withLock { $0.startsOnFirstEligibleVariant = newValue } }
    }

    /// Whether a live stream keeps loading while paused. Accepted for ported code and not
    /// applied: paused, Playhead's loader fetches up to its forward buffer and then waits, and
    /// a stream paused past its live window resumes at the window's start.
    nonisolated public var canUseNetworkResourcesForLiveStreamingWhilePaused: Bool {
        get { state.withLock { $0.canUseNetworkResourcesForLiveStreamingWhilePaused } }
        set { state.withLock { $0.canUseNetworkResourcesForLiveStreamingWhilePaused = newValue } }
    }

    /// The `BANDWIDTH` of the HLS variant being played, in bits per second; nil when the item
    /// is not a multivariant stream (or is not playing).
    nonisolated var playingVariantBitRate: Int? {
        let engine = state.withLock { $0.engine }
        if let loader = engine?.streamLoader.withLock({ $0 }) { return loader.playingBandwidth }
        return engine?.coordinator.read { $0.variantBitRate }
    }

    /// The item's network access log: one event per stretch of playback on one HLS variant,
    /// with bytes, requests, observed and indicated bit rates. Nil when the item is not streamed
    /// by Playhead's HLS loader (files, progressive downloads, or before playback starts).
    nonisolated public func accessLog() -> AVPlayerItemAccessLog? {
        guard let log = streamingLog else { return nil }
        // What the loader cannot see comes from the item: its stalls and dropped frames count
        // in the event going on, its start-up time in the first; each event watched from its
        // start to the next one's (the last to the item's time now).
        var records = log.accessRecords
        let (startup, dropped, now) = (
            state.withLock { $0.startupSeconds }, playbackStatistics.videoFramesDropped, currentTime()
        )
        for index in records.indices {
            let last = index == records.count - 1
            records[index].stalls = last ? stallCount : 0
            records[index].droppedFrames = last ? dropped : 0
            records[index].startupTime = index == 0 ? startup ?? -1 : 0
            let end = last ? (now.isNumeric ? now.seconds : records[index].startOffset) : records[index + 1].startOffset
            records[index].watched = max(0, end - records[index].startOffset)
        }
        return AVPlayerItemAccessLog(events: records.map(AVPlayerItemAccessLogEvent.init))
    }

    /// The item's network error log: one event per failed or refused request. Nil when the item
    /// is not streamed by Playhead's HLS loader.
    nonisolated public func errorLog() -> AVPlayerItemErrorLog? {
        guard let log = streamingLog else { return nil }
        return AVPlayerItemErrorLog(events: log.errorRecords.map(AVPlayerItemErrorLogEvent.init))
    }

    private nonisolated var streamingLog: StreamingLog? { state.withLock { $0.streamingLog } }

    /// The caps the app set, as the HLS loader applies them.
    nonisolated var variantCaps: VariantAdaptation.Caps {
        state.withLock { state in
            VariantAdaptation.Caps(
                peakBitRate: state.preferredPeakBitRate, maximumWidth: Double(state.preferredMaximumResolution.width),
                maximumHeight: Double(state.preferredMaximumResolution.height),
                startsOnFirstEligible: state.startsOnFirstEligibleVariant)
        }
    }

    /// Hands the caps to the item's HLS or DASH loader, if it has one by now.
    nonisolated func applyVariantCaps() {
        let engine = state.withLock { $0.engine ?? $0.waitingEngine?.value }
        engine?.streamLoader.withLock { $0 }?.setCaps(variantCaps)
    }
}
