// Playhead: the HLS loader's live playlists: reloaded at the target duration (half of it after
// a reload that brought nothing new, RFC 8216 §6.3.4) by the loader thread, merged into the
// loader's timeline, the window handed up after every reload; `EXT-X-ENDLIST` ends the stream
// normally once the last segment is read, and a playlist that stops changing for six target
// durations ends it too.
//
// Concurrency: `reload(variant:)` runs on the loader thread and changes `state` under
// `condition`; `setWindowHandler` may be called from any thread; the handler is called on the
// loader thread without the lock held.
import Foundation

extension HLSStreamLoader {
    /// Target durations a live playlist may stay unchanged, at the edge, before the stream ends.
    static let deadAfterTargets = 6.0

    /// True when a live playlist has not changed for `deadAfterTargets` target durations
    /// (called with `condition` held).
    var isDead: Bool {
        isLive && !state.timeline.isEnded
            && Date().timeIntervalSince(state.lastChange) > Self.deadAfterTargets * max(state.timeline.targetDuration, 1)
    }

    /// The live window on the item timeline; nil for VOD.
    var liveWindow: ClosedRange<Double>? {
        guard isLive else { return nil }
        condition.lock()
        defer { condition.unlock() }
        return state.timeline.window
    }

    /// Seconds behind a live window's end playback starts (the playlist's hold-back, else three
    /// target durations); nil for VOD.
    var recommendedLiveOffset: Double? {
        guard isLive else { return nil }
        condition.lock()
        defer { condition.unlock() }
        return state.timeline.edgeOffset
    }

    /// Calls `handler` with the window after every reload of a live playlist, and the dates
    /// of the window's segments (`EXT-X-PROGRAM-DATE-TIME`, a live DASH manifest's
    /// availability times; nil when undated), on the loader thread.
    func setWindowHandler(_ handler: (@Sendable (ClosedRange<Double>, ProgramDateMap?) -> Void)?) {
        condition.lock()
        windowHandler = handler
        condition.unlock()
    }

    /// Calls `handler` with the date ranges (`EXT-X-DATERANGE`) of the playlist opened, at once
    /// on this thread, and with those of every later reload on the loader thread. The audio
    /// renditions' loaders report none (the variants' playlists carry the stream's).
    func setDateRangeHandler(_ handler: (@Sendable ([HLSDateRange]) -> Void)?) {
        guard rendition == nil else { return }
        condition.lock()
        dateRangeHandler = handler
        condition.unlock()
        if !startDateRanges.isEmpty { handler?(startDateRanges) }
    }

    /// Loads variant `variant`'s live playlist again and merges it into the timeline.
    func reload(variant: Int) {
        let url = playlistURL(of: variant)
        let result = fetcher.fetch(url, secure: secure, limit: limits.playlist, timeout: timeout)
        var fresh: HLSMediaPlaylist?
        switch result {
        case .success(let resource):
            fresh = mediaPlaylist(in: resource, variant: variant)
        case .failure(.cancelled):
            break
        case .failure(let failure):
            log.error(uri: url, failure: failure)
            // The next reload asks its backup, when it has one.
            _ = failOver(variant, keepingPlaylist: true)
        }
        condition.lock()
        let changed = fresh.map { state.timeline.merge($0) } ?? false
        if changed { state.lastChange = Date() }
        state.nextReload =
            state.timeline.isEnded || state.closed
            ? nil : Date(timeIntervalSinceNow: state.timeline.reloadInterval(changed: changed))
        let window = state.timeline.window
        // Only a reload that brought segments can date new moments.
        let dates = changed ? ProgramDateMap(window: state.timeline) : nil
        let handler = windowHandler
        let dateRangeHandler = self.dateRangeHandler
        condition.broadcast()
        condition.unlock()
        if let fresh { playlists[variant] = fresh }
        // A live DASH manifest that moved is read from its new place from now on.
        if let moved = fresh?.relocation { relocation = moved }
        handler?(window, dates)
        if let fresh, !fresh.dateRanges.isEmpty { dateRangeHandler?(fresh.dateRanges) }
    }
}
