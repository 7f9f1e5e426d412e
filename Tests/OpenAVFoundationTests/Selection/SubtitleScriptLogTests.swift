// Playhead: the selected text track kept as a script for libass: dialogues added once, open
// ends closed by the next event, and what a reader at a cursor is told.
import FFmpegBridge
import Foundation
import Testing

@testable import OpenAVFoundation

@Suite struct SubtitleScriptLogTests {
    func event(_ start: Int, _ end: Int?, _ text: String) -> SubtitleEvent {
        SubtitleEvent(
            start: CMTime(value: Int64(start), timescale: 1), end: end.map { CMTime(value: Int64($0), timescale: 1) },
            assLines: ["0,0,Default,,0,0,0,,\(text)"])
    }

    @Test func readersGetAppendsThenAReplaceWhenSomethingTheyHadChanged() throws {
        let store = SubtitleCueStore()
        store.reset(version: 3, header: "[Script Info]", isStyled: true)
        guard case .replace(let first)? = store.scriptChange(since: .empty) else {
            Issue.record("a new reader gets the whole script")
            return
        }
        #expect(first.header == "[Script Info]")
        #expect(first.isStyled)
        #expect(first.dialogues.isEmpty)
        #expect(store.scriptChange(since: first.cursor) == nil, "nothing new")

        store.add([event(1, 2, "One"), event(3, 4, "Two")], version: 3)
        guard case .append(let added, let cursor)? = store.scriptChange(since: first.cursor) else {
            Issue.record("new dialogues come as an append")
            return
        }
        #expect(added.map(\.line) == ["0,0,Default,,0,0,0,,One", "0,0,Default,,0,0,0,,Two"])
        #expect(added.map(\.end.seconds) == [2, 4])

        // Re-reading after a seek adds nothing; an event of another selection is dropped.
        store.add([event(1, 2, "One")], version: 3)
        store.add([event(5, 6, "Stale")], version: 2)
        #expect(store.scriptChange(since: cursor) == nil)

        // An event with no end stays up to the open limit until the next one ends it: the
        // reader must start again (its copy has the old end).
        store.add([event(5, nil, "Open")], version: 3)
        guard case .append(let open, let openCursor)? = store.scriptChange(since: cursor) else {
            Issue.record("the open event is appended")
            return
        }
        #expect(open.first?.end == CMTime(value: 5, timescale: 1) + SubtitleCueStore.openCueLimit)
        store.add([event(7, 8, "Next")], version: 3)
        guard case .replace(let rebuilt)? = store.scriptChange(since: openCursor) else {
            Issue.record("an amended end makes readers rebuild")
            return
        }
        #expect(rebuilt.dialogues.map(\.end.seconds) == [2, 4, 7, 8])

        // A new selection replaces everything.
        store.reset(version: 4, header: nil)
        guard case .replace(let empty)? = store.scriptChange(since: rebuilt.cursor) else {
            Issue.record("a new selection replaces")
            return
        }
        #expect(empty.dialogues.isEmpty && empty.header == nil && !empty.isStyled)
    }
}

extension SubtitleScriptChange: Equatable {
    public static func == (lhs: SubtitleScriptChange, rhs: SubtitleScriptChange) -> Bool {
        switch (lhs, rhs) {
        case (.append(let a, let x), .append(let b, let y)): return a == b && x == y
        case (.replace(let a), .replace(let b)): return a.cursor == b.cursor && a.dialogues == b.dialogues
        default: return false
        }
    }
}
