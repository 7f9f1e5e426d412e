// Playhead: the selected text subtitle track as a script a renderer like libass takes: the
// ASS header, the attached fonts and every dialogue line with its time, kept beside the cues.
//
// Concurrency: `SubtitleScriptLog` lives inside `SubtitleCueStore`'s lock (written by the
// threads that add cues, read by the window's thread through `AVPlayerItem.subtitleScript`);
// the other types are Sendable values.
import FFmpegBridge
import Foundation

/// One dialogue line of a text subtitle track.
package struct SubtitleDialogue: Sendable, Equatable {
    /// When it shows, on the item timeline.
    package var start: CMTime
    /// When it goes (a guess while the stream has not said; see `SubtitleScript.revision`).
    package var end: CMTime
    /// The Matroska-style ASS event: `ReadOrder,Layer,Style,Name,MarginL,MarginR,MarginV,Effect,Text`.
    package var line: String
}

/// Where a reader of the script stands: which selection and revision it has and how many of
/// its dialogues.
package struct SubtitleScriptCursor: Sendable, Equatable {
    /// The selection version the reader's copy belongs to.
    package var selection: Int
    /// The revision of that copy.
    package var revision: Int
    /// How many dialogues the reader has.
    package var count: Int

    /// A cursor that has nothing yet.
    package static let empty = SubtitleScriptCursor(selection: -1, revision: -1, count: 0)
}

/// What changed in the script since a cursor.
package enum SubtitleScriptChange: Sendable {
    /// Everything the reader had is stale: start again from this header, these fonts and
    /// these dialogues.
    case replace(SubtitleScript)
    /// New dialogues to add to what the reader has.
    case append([SubtitleDialogue], cursor: SubtitleScriptCursor)
}

/// The whole script of the selected text track.
package struct SubtitleScript: Sendable {
    /// The ASS header (script info and styles); nil while unknown or for picture tracks.
    package var header: String?
    /// True when the track styles itself (ASS/SSA); false for formats that get the player's look.
    package var isStyled: Bool
    /// Fonts attached to the container.
    package var fonts: [EmbeddedFont]
    /// Every dialogue so far, in arrival order.
    package var dialogues: [SubtitleDialogue]
    /// Where a reader holding all of this stands.
    package var cursor: SubtitleScriptCursor
}

/// The script as the cue store keeps it.
struct SubtitleScriptLog {
    var header: String?
    var isStyled = false
    var fonts: [EmbeddedFont] = []
    var dialogues: [SubtitleDialogue] = []
    /// Bumped whenever something a reader already has changes (header, fonts, an end).
    var revision = 0
    /// Dialogues whose end is a guess, by index, until the next event ends them.
    var open: [Int] = []
    /// What was added already, so re-reading packets after a seek adds nothing twice.
    var seen: Set<String> = []

    /// Adds the text lines of `event` (a clear-screen event only ends the open ones).
    mutating func add(_ event: SubtitleEvent, openLimit: CMTime) {
        if !open.isEmpty {
            for index in open where dialogues[index].start < event.start {
                dialogues[index].end = min(dialogues[index].end, event.start)
            }
            open = []
            revision += 1
        }
        let end = event.end.flatMap { $0 > event.start ? $0 : nil }
        for line in event.assLines {
            let key = "\(event.start.value)/\(event.start.timescale)|\(line)"
            guard seen.insert(key).inserted else { continue }
            if end == nil { open.append(dialogues.count) }
            dialogues.append(
                SubtitleDialogue(start: event.start, end: end ?? event.start + openLimit, line: line))
        }
    }

    /// The change a reader at `cursor` of selection `selection` needs; nil when it is current.
    func change(since cursor: SubtitleScriptCursor, selection: Int) -> SubtitleScriptChange? {
        let now = SubtitleScriptCursor(selection: selection, revision: revision, count: dialogues.count)
        if cursor == now { return nil }
        if cursor.selection == selection, cursor.revision == revision, cursor.count < dialogues.count {
            return .append(Array(dialogues[cursor.count...]), cursor: now)
        }
        return .replace(
            SubtitleScript(
                header: header, isStyled: isStyled, fonts: fonts, dialogues: dialogues, cursor: now))
    }
}

extension AVPlayerItem {
    /// What changed in the script of the selected text subtitle track since `cursor`: for
    /// renderers that draw the track themselves (the window's libass renderer). Nil when
    /// nothing changed or the item is not playing. Any thread.
    package func subtitleScript(since cursor: SubtitleScriptCursor) -> SubtitleScriptChange? {
        guard let engine = state.withLock({ $0.engine }), let pipeline = engine.pipeline else {
            return nil
        }
        return pipeline.switchboard.cues.scriptChange(since: cursor)
    }

    /// The item time at host time `host` (seconds on the system host clock); nil while the
    /// item is not playing. Any thread.
    package func engineItemTime(atHost host: Double) -> CMTime? {
        state.withLock { $0.engine }?.itemTime(atHost: host)
    }
}
