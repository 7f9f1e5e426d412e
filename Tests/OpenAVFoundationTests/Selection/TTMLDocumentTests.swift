// Playhead: tests for TTML subtitle documents read into cues: FFmpeg's own TTML writer's
// output, and the timing, white space, styling and regions of IMSC1 / EBU-TT-D documents.
import FFmpegBridge
import Foundation
import PlayheadTestSupport
import Testing

@testable import OpenAVFoundation

@Suite struct TTMLDocumentTests {
    /// The cues of a TTML document, as the player's cue store gives them.
    private func cues(_ text: String) throws -> [AVSubtitleCue] {
        let events = try #require(TTMLDocument.events(Data(text.utf8)))
        let store = SubtitleCueStore()
        store.reset(version: 1, header: nil)
        store.add(events, version: 1)
        return store.allCues
    }

    private func document(_ body: String, head: String = "", root: String = "") -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <!-- written by hand -->
        <tt xmlns="http://www.w3.org/ns/ttml" xmlns:tts="http://www.w3.org/ns/ttml#styling"
            xmlns:ttp="http://www.w3.org/ns/ttml#parameter" xml:lang="en" \(root)>
          <head>\(head)</head>
          <body>\(body)</body>
        </tt>
        """
    }

    @Test func ffmpegsOwnTTMLShowsTheSubRipCuesOnTime() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("playhead-ttml-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = folder.appendingPathComponent("cues.srt"), output = folder.appendingPathComponent("cues.ttml")
        try Data(SelectionMedia.subRip.utf8).write(to: source)
        try GeneratedMedia.runFFmpeg(["-i", source.path, "-f", "ttml", output.path])
        let contents = try SubtitleFileLoading.read(output, timeout: 5)
        #expect(contents.codecName == "ttml")
        let store = SubtitleCueStore()
        store.reset(version: 1, header: contents.assHeader)
        store.add(contents.events, version: 1)
        let cues = store.allCues
        #expect(cues.map(\.text) == ["Hello world", "Second line"])
        #expect(cues.map { [$0.timeRange.start.seconds, $0.timeRange.end.seconds] } == [[1, 2], [3, 4]])
        // FFmpeg's region sits at the bottom, centred.
        #expect(cues.allSatisfy { $0.alignment == 2 })
    }

    @Test func clockTimesFramesTicksAndOffsetsAreRead() throws {
        let clock = TTMLClock(root: ["frameRate": "25", "tickRate": "10000000"])
        #expect(clock.seconds("00:00:01.500") == 1.5)
        #expect(clock.seconds("01:02:03") == 3723)
        #expect(clock.seconds("00:00:02:05") == 2.2)
        #expect(clock.seconds("50f") == 2)
        #expect(clock.seconds("25000000t") == 2.5)
        #expect(clock.seconds("1.5s") == 1.5 && clock.seconds("250ms") == 0.25 && clock.seconds("2m") == 120)
        #expect(clock.seconds("0.5h") == 1800)
        #expect(clock.seconds("soon") == nil && clock.seconds("-1s") == nil && clock.seconds("1:2") == nil)
        // A 30000/1001 rate, and ticks that default to the frame rate when a frame rate is given.
        let ntsc = TTMLClock(root: ["frameRate": "30", "frameRateMultiplier": "1000 1001"])
        #expect(abs((ntsc.seconds("00:00:01:00") ?? 0) - 1) < 1e-9)
        #expect(abs((ntsc.seconds("00:00:00:15") ?? 0) - 15 * 1001 / 30000) < 1e-9)
        #expect(abs((ntsc.seconds("30t") ?? 0) - 1.001) < 1e-9)
        #expect(TTMLClock(root: [:]).seconds("3t") == 3)
    }

    @Test func timingNestsAndATimedSpanSplitsItsParagraph() throws {
        let cues = try cues(
            document(
                """
                <div begin="10s">
                  <p begin="1s" end="3s">One</p>
                  <p begin="4s" dur="1s">Two</p>
                  <p begin="6s" end="9s">Three <span begin="1s" end="2s">and a half</span></p>
                </div>
                <div begin="30s" end="31s"><p begin="0s" end="5s">Clipped</p></div>
                <p begin="40s" end="40s">Never</p>
                """))
        #expect(
            cues.map { "\($0.timeRange.start.seconds)-\($0.timeRange.end.seconds) \($0.text)" } == [
                "11.0-13.0 One", "14.0-15.0 Two", "16.0-17.0 Three", "17.0-18.0 Three and a half", "18.0-19.0 Three",
                "30.0-31.0 Clipped",
            ])
    }

    @Test func whiteSpaceCollapsesLineBreaksBreakAndPreservedTextKeepsItsLines() throws {
        let cues = try cues(
            document(
                """
                <p begin="1s" end="2s">
                    Hello,
                    <span>big</span>   world<br/>  second   line
                </p>
                <p begin="3s" end="4s" xml:space="preserve">kept  as
                written</p>
                <p begin="5s" end="6s">a &lt;tag&gt; {braces}</p>
                """))
        #expect(cues.map(\.text) == ["Hello, big world\nsecond line", "kept  as\nwritten", "a <tag> {braces}"])
    }

    @Test func referencedAndInlineStylesReachTheRuns() throws {
        let head = """
            <styling>
              <style xml:id="base" tts:color="yellow"/>
              <style xml:id="slanted" style="base" tts:fontStyle="italic"/>
            </styling>
            """
        let cues = try cues(
            document(
                """
                <div style="slanted">
                  <p begin="1s" end="2s">All <span tts:fontStyle="normal" tts:fontWeight="bold">but</span> this
                    <span tts:color="#00ff00" tts:textDecoration="underline">green</span></p>
                </div>
                """, head: head))
        let runs = try #require(cues.first?.runs)
        #expect(runs.map(\.text) == ["All ", "but", " this ", "green"])
        #expect(runs.map(\.isItalic) == [true, false, true, true])
        #expect(runs.map(\.isBold) == [false, true, false, false])
        #expect(runs.map(\.isUnderlined) == [false, false, false, true])
        try #require(runs.count >= 4)
        #expect(runs[0].color == AVSubtitleColor(red: 1, green: 1, blue: 0, alpha: 1))
        #expect(runs[3].color == AVSubtitleColor(red: 0, green: 1, blue: 0, alpha: 1))
    }

    @Test func regionsPlaceTheTextAtTheTopMiddleOrBottomAndTextAlignMovesItAcross() throws {
        let head = """
            <layout>
              <region xml:id="top" tts:origin="10% 5%" tts:extent="80% 20%"/>
              <region xml:id="low" tts:origin="10% 70%" tts:extent="80% 20%" tts:displayAlign="after"/>
              <region xml:id="middle" tts:origin="0px 200px" tts:extent="640px 80px" tts:displayAlign="center"
                tts:textAlign="left"/>
            </layout>
            """
        let cues = try cues(
            document(
                """
                <p begin="1s" end="2s" region="top">Top</p>
                <p begin="3s" end="4s" region="low" tts:textAlign="right">Bottom right</p>
                <p begin="5s" end="6s" region="middle">Middle left</p>
                <p begin="7s" end="8s">Nowhere</p>
                """, head: head, root: #"tts:extent="640px 480px""#))
        #expect(cues.map(\.alignment) == [8, 3, 4, 2])
    }

    @Test func onlyTTMLDocumentsAreTakenForTTML() {
        #expect(TTMLDocument.looksLikeTTML(Data(document("").utf8)))
        #expect(TTMLDocument.looksLikeTTML(Data("\u{FEFF}<tt:tt xmlns:tt=\"http://www.w3.org/ns/ttml\">".utf8)))
        #expect(!TTMLDocument.looksLikeTTML(Data(SelectionMedia.webVTT.utf8)))
        #expect(!TTMLDocument.looksLikeTTML(Data(SelectionMedia.subRip.utf8)))
        #expect(!TTMLDocument.looksLikeTTML(Data("<?xml version=\"1.0\"?><MPD></MPD>".utf8)))
        #expect(!TTMLDocument.looksLikeTTML(Data("<ttx></ttx>".utf8)))
        #expect(TTMLDocument.events(Data("<tt><body><p begin=\"1s\">".utf8)) == nil, "not well-formed")
        #expect(TTMLDocument.events(Data("<MPD/>".utf8)) == nil)
    }

    @Test func slivererOfTimeNoBreakSpacesAndBackslashesComeOutRight() throws {
        // 10.2 + 2.2 is 12.399999999999999 in binary: the span's end meets the paragraph's.
        let cues = try cues(
            document(
                """
                <p begin="10.2s" end="12.4s">Hi <span end="2.2s">there</span></p>
                <p begin="20s" end="21s">Hello\u{A0}<span>World</span></p>
                <p begin="22s" end="23s">C:\\Nope \\h <span tts:fontStyle="italic">end\\</span></p>
                """))
        #expect(cues.map(\.text) == ["Hi there", "Hello\u{A0}World", "C:\\\u{2060}Nope \\\u{2060}h end\\\u{2060}"])
        #expect(cues.first.map { [$0.timeRange.start.seconds, $0.timeRange.end.seconds] } == [10.2, 12.4])
        #expect(cues.last?.runs.last?.isItalic == true)
    }

    @Test func hostileDocumentsEndQuicklyWithoutCrashing() throws {
        // Times that are not finite or far too late, and rates out of range.
        let times = try cues(
            document(
                """
                <p begin="inf:00:00" end="1s">A</p><p begin="00:00:01:00.nan" end="2s">B</p>
                <p begin="1e16s" end="1e17s">C</p><p begin="1s" end="2s">Fine</p>
                """, root: #"ttp:tickRate="1e-300" ttp:frameRate="1e-300""#))
        #expect(times.map(\.text) == ["Fine"], "an element whose time cannot be read is not shown")
        #expect(times.allSatisfy { $0.timeRange.start.seconds.isFinite && $0.timeRange.start.seconds < 10 })
        #expect(TTMLClock(root: ["tickRate": "1e-300"]).seconds("1t") == 1)
        // A colour whose parenthesis closes before it opens.
        #expect(TTMLStyle.colour("rgb)(") == nil && TTMLStyle.colour("rgb(1,2,3)") == "&H030201&")
        // Nesting far deeper than any real document.
        let deep = String(repeating: "<span>", count: 100_000) + "x" + String(repeating: "</span>", count: 100_000)
        #expect(TTMLDocument.events(Data(document("<p begin=\"1s\" end=\"2s\">\(deep)</p>").utf8)) == nil)
        // Styles that all reference each other.
        let ids = (0..<20).map { "s\($0)" }
        let styles = ids.map { #"<style xml:id="\#($0)" style="\#(ids.joined(separator: " "))" tts:color="red"/>"# }
        let started = Date()
        let cyclic = try cues(
            document(#"<p begin="1s" end="2s" style="s0">Red</p>"#, head: "<styling>\(styles.joined())</styling>"))
        #expect(cyclic.first?.runs.first?.color == AVSubtitleColor(red: 1, green: 0, blue: 0))
        #expect(Date().timeIntervalSince(started) < 5, "each style is flattened once")
    }

    @Test func aRenditionARemoteStreamNamesKeepsToTheStreamsRules() throws {
        let rules = SubtitleFileLoading.StreamRules(network: NetworkOptions(), secure: true)
        for url in ["file:///etc/passwd", "http://127.0.0.1:1/subs.ttml"] {
            #expect(throws: MediaFailure.self) {
                try SubtitleFileLoading.read(URL(string: url)!, timeout: 1, stream: rules)
            }
        }
    }
}
