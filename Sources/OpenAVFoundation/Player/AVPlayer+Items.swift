// Playhead: replacing the current item and applying what its engine reports.
//
// Concurrency: `replaceCurrentItem(with:)` may be called from any thread and hops to the main
// queue; everything else here runs on the main queue. Events from an engine that is no longer
// the current one are ignored.
import FFmpegBridge
import Foundation

extension AVPlayer {
    /// Makes `item` the current item (nil: no item), stopping the previous item's playback.
    /// A pending seek on the previous item completes with `false`. Never blocks.
    nonisolated public func replaceCurrentItem(with item: AVPlayerItem?) {
        let player = self
        MainQueue.perform { player.installItem(item) }
    }

    /// Makes `item` current (main queue). With `prerolled` (an engine already opened for
    /// `item` by a queue player), that engine takes over instead of a new one, without clearing
    /// the picture in between.
    nonisolated func installItem(_ item: AVPlayerItem?, prerolled: PrerolledItem? = nil) {
        let prerolled = prerolled.flatMap { $0.item === item ? $0 : nil }
        let (oldItem, oldEngine) = state.withLock { state in
            defer { state.engine = nil }
            return (state.currentItem, state.engine)
        }
        // The old item's pending seek ends with its engine (Apple completes it with false).
        let oldSeek = oldItem?.state.withLock { state -> SeekRequest? in
            defer { state.pendingSeek = nil; state.pendingSeekIsRunning = false }
            return state.pendingSeek
        }
        oldSeek?.completion?(false)
        if let oldItem, oldItem !== item {
            let time = oldItem.currentTime()
            let statistics = oldEngine?.statistics ?? PlaybackStatistics()
            oldItem.state.withLock {
                $0.engine = nil; $0.lastTime = time; $0.player = nil; $0.lastStatistics = statistics
            }
        }
        // A prerolled item's first frame replaces the picture (an audio-only one clears it
        // once it knows, see PrerolledItem).
        oldEngine?.stop(clearsVideo: prerolled == nil)
        if let oldItem, oldItem !== item {
            oldItem.disconnectOutputs(from: environment.videoSinks)
            oldItem.itemTimebase?.noteEffectiveRate(0)
        }

        publish(\AVPlayer.currentItem) { $0.currentItem = item; $0.lastObservedTime = .invalid }
        guard let item else {
            handle(.item(.none))
            return
        }
        let engine =
            prerolled?.engine
            ?? ItemPlayback(
                asset: item.asset,
                settings: ItemPlayback.Settings(
                    item: item, criteria: selectionCriteriaSnapshot, audioDevice: audioOutputDeviceUniqueID),
                environment: environment
            ) { [reference = WeakReference(self)] engine, event in
                MainQueue.perform { reference.value?.receive(event, from: engine) }
            }
        // A seek the prerolled engine already runs completes through this player as it lands;
        // any other pending seek starts on the new engine.
        let pending = item.state.withLock { state -> SeekRequest? in
            state.engine = engine
            state.player = self
            if prerolled == nil { state.pendingSeekIsRunning = false }
            return state.pendingSeekIsRunning ? nil : state.pendingSeek
        }
        state.withLock { $0.engine = engine }
        scheduleObserverTicks()
        let clock = environment.hostClock
        item.attachTimebase { clock.now }
        item.connectOutputs(to: environment.videoSinks)
        if let prerolled, prerolled.hasOpened, item.status != .failed {
            // Already open: no loading state in between, the queue plays straight on (the
            // replayed events below make the item ready). A new item is never at its end.
            handle(.prerolledItemTookOver)
        } else {
            handle(.item(item.status == .failed ? .failed : .loading))
        }
        applyAudioSettings()
        if let prerolled {
            prerolled.activate(for: self)
            // Caps the app set while the item waited in the queue found no engine to reach.
            item.applyVariantCaps()
            if let pending { startSeek(pending, on: item) }
        } else {
            // Seek first: the engine then opens at the target, and never shows the frame at
            // zero first (even when the open work outruns this thread).
            if let pending { startSeek(pending, on: item) }
            item.state.withLock { $0.openStartedAt = $0.openStartedAt ?? ThreadCondition.monotonicNow() }
            engine.start()
        }
    }

    /// Applies one engine event (main queue).
    nonisolated func receive(_ event: PlaybackEvent, from engine: ItemPlayback) {
        let (current, item) = state.withLock { ($0.engine, $0.currentItem) }
        guard current === engine, let item else { return }
        switch event {
        case .opened(let media):
            item.applyOpened(media)
            startAtRequestedPoint(item, playlistStart: media.playlistStart)
            handle(.item(.ready))
        case .failed(let failure, let duringPlayback):
            let error = failure.nsError(input: item.asset.inputDescription)
            item.applyFailure(error)
            if duringPlayback {
                item.post(
                    AVPlayerItem.failedToPlayToEndTimeNotification,
                    userInfo: [AVPlayerItemFailedToPlayToEndTimeErrorKey: error])
            }
            handle(.item(.failed))
            // A failed item cannot get to any time: its pending seek is over.
            let seek = item.state.withLock { state -> SeekRequest? in
                defer { state.pendingSeek = nil; state.pendingSeekIsRunning = false }
                return state.pendingSeek
            }
            seek?.completion?(false)
        case .buffer(let report):
            item.applyBuffer(report)
            handle(.buffer(report.flags))
        case .seekFinished(let id, let time):
            finishSeek(id: id, at: time, item: item)
        case .timeAdvanced(let time, let generation):
            // Ticks sent before a seek that has been issued since are stale (trick play's steps
            // are no such seek).
            guard engine.acceptsTimeReport(of: generation) else { return }
            timeObserversNoteTime(time, continuous: true)
        case .reachedEnd:
            handle(.reachedEnd)
        case .reachedReverseEnd:
            handle(.reachedReverseEnd)
        case .legible(let cues, let time):
            item.deliverLegible(cues, at: time)
        case .timedMetadata(let groups, let flushed):
            item.deliverTimedMetadata(groups, flushed: flushed)
        case .streamingLogEntry(let entry):
            item.post(entry == .access ? AVPlayerItem.newAccessLogEntryNotification : AVPlayerItem.newErrorLogEntryNotification)
        case .liveWindow(let window, let offset, let dates):
            // Segments that joined the window date moments the open never saw.
            if let dates { item.state.withLock { $0.programDates = dates } }
            followLiveWindow(window, recommendedOffset: offset, item: item)
        case .dateRanges(let ranges):
            item.collectDateRanges(ranges)
        }
    }
}

extension AVPlayerItem {
    /// Publishes what opening the media found, then `.readyToPlay`.
    nonisolated func applyOpened(_ media: OpenedMedia) {
        let tracks = media.tracks
        publish(\AVPlayerItem.tracks) { $0.tracks = tracks }
        if media.duration != state.withLock({ $0.duration }) {
            publish(\AVPlayerItem.duration) { $0.duration = media.duration }
        }
        if media.presentationSize != .zero {
            publish(\AVPlayerItem.presentationSize) { $0.presentationSize = media.presentationSize }
        }
        publish(\AVPlayerItem.seekableTimeRanges) { $0.seekableTimeRanges = media.seekableRanges }
        if let log = media.streamingLog { state.withLock { $0.streamingLog = log } }
        state.withLock { state in
            guard state.startupSeconds == nil, let began = state.openStartedAt else { return }
            state.startupSeconds = ThreadCondition.monotonicNow() - began
        }
        state.withLock { $0.programDates = media.programDates }
        let recommended = media.recommendedLiveOffset ?? .invalid
        if state.withLock({ $0.recommendedLiveOffset }) != recommended {
            publish(\AVPlayerItem.recommendedTimeOffsetFromLive) { $0.recommendedLiveOffset = recommended }
        }
        // The engine may have started before the asset's selection groups were known (a
        // fresh item played at once): give it the automatic choices now (a forced track, or
        // the flagged default track where the player shows it).
        reapplyAutomaticSelection()
        publish(\AVPlayerItem.status) { $0.status = .readyToPlay }
    }

    /// Publishes `error` then `.failed`.
    nonisolated func applyFailure(_ error: NSError) {
        guard state.withLock({ $0.status }) != .failed else { return }
        publish(\AVPlayerItem.error) { $0.error = error }
        publish(\AVPlayerItem.status) { $0.status = .failed }
    }

    /// Publishes the buffer flags and loaded ranges that changed.
    nonisolated func applyBuffer(_ report: BufferReport) {
        let old = state.withLock { ($0.buffer, $0.loadedTimeRanges) }
        if old.1 != report.loadedRanges {
            publish(\AVPlayerItem.loadedTimeRanges) { $0.loadedTimeRanges = report.loadedRanges }
        }
        if old.0.isEmpty != report.flags.isEmpty {
            publish(\AVPlayerItem.isPlaybackBufferEmpty) { $0.buffer.isEmpty = report.flags.isEmpty }
        }
        if old.0.isLikelyToKeepUp != report.flags.isLikelyToKeepUp {
            publish(\AVPlayerItem.isPlaybackLikelyToKeepUp) {
                $0.buffer.isLikelyToKeepUp = report.flags.isLikelyToKeepUp
            }
        }
        if old.0.isFull != report.flags.isFull {
            publish(\AVPlayerItem.isPlaybackBufferFull) { $0.buffer.isFull = report.flags.isFull }
        }
    }
}
