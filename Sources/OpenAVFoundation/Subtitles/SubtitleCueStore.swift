// Playhead: the decoded cues of the selected subtitle track, looked up by item time.
//
// Concurrency: one per playing item (in its Pipeline). Writers: the demux thread (embedded
// tracks), the video thread (captions in the pictures) or a background queue (subtitle
// files) add cues; the subtitle thread reads them.
// All state is behind `state` (a lock); `changed` wakes the subtitle thread after writes.
import FFmpegBridge
import Foundation
import Synchronization

/// The cues of the selected legible option, sorted by start time.
final class SubtitleCueStore: Sendable {
    struct State {
        /// Which selection the cues belong to; writes for another one are stale and dropped.
        var version = 0
        var script = ASSScript(header: nil)
        var cues: [StoredCue] = []
        /// The text track as a script, for renderers that draw it themselves.
        var log = SubtitleScriptLog()
    }

    struct StoredCue {
        var cue: AVSubtitleCue
        /// False while the stream has not said when the cue ends (the next event ends it).
        var hasEnd: Bool
    }

    /// How long a cue whose end is unknown stays up at most.
    static let openCueLimit = CMTime(value: 10, timescale: 1)
    /// The most cues kept; the earliest go first beyond it.
    static let maximumCues = 50_000

    let state = Locked(State())
    /// Woken after every change.
    let changed = WakeupSignal()

    /// Forgets every cue and starts collecting for selection `version`; ignored when a later
    /// version already started (the main queue and the demux thread may race to reset).
    func reset(version: Int, header: String?, isStyled: Bool = false, fonts: [EmbeddedFont] = []) {
        state.withLock { state in
            guard version >= state.version else { return }
            state.version = version
            state.script = ASSScript(header: header)
            state.cues = []
            state.log = SubtitleScriptLog(header: header, isStyled: isStyled, fonts: fonts)
        }
        changed.wake()
    }

    /// Sets the ASS header for `version` (styles and coordinate space of later events).
    func setHeader(_ header: String?, isStyled: Bool = false, version: Int) {
        state.withLock { state in
            guard state.version == version else { return }
            state.script = ASSScript(header: header)
            state.log.header = header
            state.log.isStyled = isStyled
            state.log.revision += 1
        }
    }

    /// What changed in the script since `cursor` (see `AVPlayerItem.subtitleScript`).
    func scriptChange(since cursor: SubtitleScriptCursor) -> SubtitleScriptChange? {
        state.withLock { $0.log.change(since: cursor, selection: $0.version) }
    }

    /// The selection version the store collects for.
    var version: Int { state.withLock { $0.version } }

    /// Adds decoded events of selection `version` (stale versions are ignored).
    func add(_ events: [SubtitleEvent], version: Int) {
        guard !events.isEmpty else { return }
        state.withLock { state in
            guard state.version == version else { return }
            for event in events {
                Self.add(event, to: &state)
                state.log.add(event, openLimit: Self.openCueLimit)
            }
            if state.cues.count > Self.maximumCues {
                state.cues.removeFirst(state.cues.count - Self.maximumCues)
            }
        }
        changed.wake()
    }

    private static func add(_ event: SubtitleEvent, to state: inout State) {
        // A new event ends the cues still waiting for an end; a clear-screen event or a new
        // picture ends the pictures showing (bitmap codecs replace the whole screen).
        let replacesPictures = event.isClear || !event.bitmaps.isEmpty
        for index in state.cues.indices {
            let range = state.cues[index].cue.timeRange
            guard range.start < event.start, event.start < range.end else { continue }
            let replaced = !state.cues[index].cue.bitmaps.isEmpty && replacesPictures
            guard !state.cues[index].hasEnd || replaced || event.isClear else { continue }
            state.cues[index].cue.timeRange = CMTimeRange(start: range.start, end: event.start)
            state.cues[index].hasEnd = true
        }
        guard !event.isClear else { return }
        let end = event.end.flatMap { $0 > event.start ? $0 : nil }
        let range = CMTimeRange(start: event.start, end: end ?? event.start + openCueLimit)
        var made: [AVSubtitleCue] = event.assLines.map {
            ASSEventParser.cue(line: $0, range: range, script: state.script)
        }.filter { !$0.text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty }
        if !event.bitmaps.isEmpty, event.canvasWidth > 0, event.canvasHeight > 0 {
            let width = Double(event.canvasWidth)
            let height = Double(event.canvasHeight)
            let pictures = event.bitmaps.map { bitmap in
                AVSubtitleBitmap(
                    x: Double(bitmap.x) / width, y: Double(bitmap.y) / height,
                    width: Double(bitmap.width) / width,
                    height: Double(bitmap.height) / height, pixelWidth: bitmap.width,
                    pixelHeight: bitmap.height,
                    rgba: bitmap.rgba)
            }
            made.append(AVSubtitleCue(timeRange: range, runs: [], bitmaps: pictures))
        }
        for cue in made {
            // Seeking back re-reads packets: keep one copy of each cue.
            if state.cues.contains(where: {
                $0.cue.timeRange.start == cue.timeRange.start && $0.cue.runs == cue.runs
                    && $0.cue.bitmaps.count == cue.bitmaps.count
            }) {
                continue
            }
            let position =
                state.cues.firstIndex { $0.cue.timeRange.start > cue.timeRange.start }
                ?? state.cues.endIndex
            state.cues.insert(StoredCue(cue: cue, hasEnd: end != nil), at: position)
        }
    }

    /// The cues showing at `time`, in start order.
    func cues(at time: CMTime) -> [AVSubtitleCue] {
        state.withLock { state in
            state.cues.lazy.map(\.cue).filter {
                $0.timeRange.start <= time && time < $0.timeRange.end
            }
        }
    }

    /// The first time after `time` at which the set of showing cues changes; nil when none.
    func nextChange(after time: CMTime) -> CMTime? {
        state.withLock { state in
            var next: CMTime?
            for stored in state.cues {
                for edge in [stored.cue.timeRange.start, stored.cue.timeRange.end] where edge > time
                {
                    if next.map({ edge < $0 }) ?? true { next = edge }
                }
                if let next, stored.cue.timeRange.start > next { break }
            }
            return next
        }
    }

    /// The latest cue start or end at or before `time`: when what shows at `time` began to
    /// show; nil when no cue edge lies before it.
    func lastChange(atOrBefore time: CMTime) -> CMTime? {
        state.withLock { state in
            var last: CMTime?
            for stored in state.cues {
                if stored.cue.timeRange.start > time { break }
                for edge in [stored.cue.timeRange.start, stored.cue.timeRange.end]
                where edge <= time {
                    if last.map({ edge > $0 }) ?? true { last = edge }
                }
            }
            return last
        }
    }

    /// Every cue held, in start order (for tests and diagnostics).
    var allCues: [AVSubtitleCue] { state.withLock { $0.cues.map(\.cue) } }
}
