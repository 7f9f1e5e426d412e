// Playhead: tests for subtitle decoding (FFmpeg) and ASS styling into cues.
import FFmpegBridge
import Foundation
import PlayheadTestSupport
import Testing

@testable import OpenAVFoundation

@Suite struct SubtitleParsingTests {
    private func store(reading text: String, named name: String) throws -> [AVSubtitleCue] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "playhead-subs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent(name)
        try Data(text.utf8).write(to: file)
        let contents = try SubtitleFileReader.read(try MediaLocation(url: file))
        let store = SubtitleCueStore()
        store.reset(version: 1, header: contents.assHeader)
        store.add(contents.events, version: 1)
        return store.allCues
    }

    @Test func subRipCuesKeepTimingAndBold() throws {
        let cues = try store(reading: SelectionMedia.subRip, named: "a.srt")
        try #require(cues.count == 2)
        #expect(
            cues[0].timeRange
                == CMTimeRange(
                    start: CMTime(value: 1, timescale: 1), end: CMTime(value: 2, timescale: 1)))
        #expect(cues[0].text == "Hello world")
        #expect(cues[0].runs.first == AVSubtitleTextRun(text: "Hello", isBold: true))
        #expect(cues[0].runs.last?.isBold == false)
        #expect(cues[0].alignment == 2 && cues[0].position == nil)
        #expect(cues[1].text == "Second line")
        #expect(cues[1].timeRange.start.seconds == 3 && cues[1].timeRange.end.seconds == 4)
    }

    @Test func assStylingIsParsed() throws {
        let cues = try store(reading: SelectionMedia.ass, named: "a.ass")
        try #require(cues.count == 2)
        let first = cues[0]
        #expect(first.text == "Bonjour rouge")
        try #require(!first.runs.isEmpty)
        #expect(first.runs[0] == AVSubtitleTextRun(text: "Bonjour", isItalic: true))
        #expect(first.runs.last?.text == "rouge")
        #expect(first.runs.last?.color == AVSubtitleColor(red: 1, green: 0, blue: 0))
        let second = cues[1]
        #expect(second.text == "Au milieu")
        try #require(!second.runs.isEmpty)
        #expect(second.runs[0].isBold)
        #expect(second.runs[0].color == AVSubtitleColor(red: 1, green: 1, blue: 0))
        #expect(second.alignment == 8)
        #expect(second.position.map { [$0.x, $0.y] } == [0.5, 0.5])
        let attributed = first.attributedString
        #expect(attributed.string == "Bonjour rouge")
        let italic =
            attributed.attribute(
                NSAttributedString.Key(kCMTextMarkupAttribute_ItalicStyle), at: 0,
                effectiveRange: nil) as? Bool
        #expect(italic == true)
    }

    @Test func webVTTCues() throws {
        let cues = try store(reading: SelectionMedia.webVTT, named: "a.vtt")
        #expect(cues.map(\.text) == ["Bonjour"])
        try #require(!cues.isEmpty)
        #expect(cues[0].timeRange.start.seconds == 0.5 && cues[0].timeRange.end.seconds == 1.5)
    }

    @Test func assOverridesAndEscapes() throws {
        let script = ASSScript(header: nil)
        let range = CMTimeRange(start: .zero, duration: CMTime(value: 1, timescale: 1))
        let cue = ASSEventParser.cue(
            line: "0,0,Default,,0,0,0,,{\\an7\\b1}Top\\Nleft{\\b0\\u1} under, comma", range: range,
            script: script)
        #expect(cue.alignment == 7)
        #expect(cue.text == "Top\nleft under, comma")
        try #require(cue.runs.count == 2)
        #expect(cue.runs[0].isBold && !cue.runs[1].isBold && cue.runs[1].isUnderlined)
    }

    @Test func bitmapEventsEndAtTheNextEvent() throws {
        let store = SubtitleCueStore()
        store.reset(version: 0, header: nil)
        let picture = SubtitleBitmap(
            x: 10, y: 100, width: 2, height: 1, rgba: [255, 255, 255, 255, 0, 0, 0, 255])
        store.add(
            [
                SubtitleEvent(
                    start: CMTime(value: 1, timescale: 1), end: nil, bitmaps: [picture],
                    canvasWidth: 200, canvasHeight: 200)
            ],
            version: 0)
        store.add([SubtitleEvent(start: CMTime(value: 3, timescale: 1), end: nil)], version: 0)
        let cues = store.allCues
        try #require(cues.count == 1)
        #expect(cues[0].timeRange.end.seconds == 3)
        #expect(
            cues[0].bitmaps.first.map { [$0.x, $0.y, $0.width, $0.height] } == [
                0.05, 0.5, 0.01, 0.005,
            ])
        #expect(store.cues(at: CMTime(value: 2, timescale: 1)).count == 1)
        #expect(store.cues(at: CMTime(value: 3, timescale: 1)).isEmpty)
        #expect(store.nextChange(after: .zero) == CMTime(value: 1, timescale: 1))
        // Stale versions are ignored.
        store.add(
            [
                SubtitleEvent(
                    start: .zero, end: nil, bitmaps: [picture], canvasWidth: 200, canvasHeight: 200)
            ], version: 7)
        #expect(store.allCues.count == 1)
    }
}

@Suite struct BitmapSubtitleTests {
    /// Every cue of the first subtitle stream of `media`, decoded as the engine does.
    private func cues(_ media: SelectionMedia) throws -> (
        cues: [AVSubtitleCue], events: [SubtitleEvent]
    ) {
        let demuxer = try Demuxer(location: try MediaLocation(url: try media.url()))
        let stream = try #require(demuxer.description.tracks.first { $0.kind == .subtitle })
        let decoder = try SubtitleDecoder(demuxer: demuxer, streamIndex: stream.index)
        demuxer.setActiveStreams([stream.index])
        var events: [SubtitleEvent] = []
        while case .packet(let packet) = demuxer.readPacket() { events += decoder.decode(packet) }
        let store = SubtitleCueStore()
        store.reset(version: 0, header: decoder.assHeader)
        store.add(events, version: 0)
        return (store.allCues, events)
    }

    @Test func dvdSubtitlesDecodeToPlacedPictures() throws {
        let (cues, events) = try cues(.dvdSubtitles)
        #expect(cues.count == 2)
        let first = try #require(cues.first?.bitmaps.first)
        #expect(first.pixelWidth == 120 && first.pixelHeight == 20)
        #expect(events.first?.bitmaps.first.map { [$0.x, $0.y] } == [100, 180])
        // Placed on the 320x240 video.
        #expect(abs(first.x - 100.0 / 320) < 1e-9 && abs(first.y - 180.0 / 240) < 1e-9)
        #expect(abs(first.width - 120.0 / 320) < 1e-9)
        try #require(first.rgba.count >= 4)
        #expect(first.rgba[3] == 255, "opaque")
        try #require(cues.count >= 2)
        #expect(abs(cues[0].timeRange.start.seconds - 1) < 0.01)
        #expect(abs(cues[0].timeRange.end.seconds - 3) < 0.02)
        #expect(abs(cues[1].timeRange.start.seconds - 3) < 0.01)
        #expect(abs(cues[1].timeRange.end.seconds - 4) < 0.02)
        #expect(cues[1].bitmaps.first.map { $0.pixelWidth } == 120)
    }

    @Test func dvbSubtitlesDecodeToPictures() throws {
        let (cues, _) = try cues(.dvbSubtitles)
        #expect(cues.count == 2)
        let first = try #require(cues.first?.bitmaps.first)
        #expect(first.pixelWidth == 120 && first.pixelHeight == 20)
        #expect(first.rgba.contains { $0 == 255 })
        try #require(cues.count >= 2)
        #expect(abs(cues[0].timeRange.start.seconds - 1) < 0.05)
        #expect(cues[0].timeRange.end.seconds > 2.5 && cues[0].timeRange.end.seconds < 3.2)
        #expect(abs(cues[1].timeRange.start.seconds - 3) < 0.05)
    }
}
