// Playhead: tests for subtitle segments in fragmented MP4 (IMSC1 TTML and WebVTT boxes), read
// from segments written box by box (`FragmentedTextSegments`).
import FFmpegBridge
import Foundation
import PlayheadTestSupport
import Testing

@testable import OpenAVFoundation

@Suite struct FragmentedTextTrackTests {
    private typealias Segments = FragmentedTextSegments

    /// "start-end text" for each cue the store gives for `events`.
    private func shown(_ events: [SubtitleEvent]) -> [String] {
        let store = SubtitleCueStore()
        store.reset(version: 1, header: nil)
        store.add(events, version: 1)
        return store.allCues.map { "\($0.timeRange.start.seconds)-\($0.timeRange.end.seconds) \($0.text)" }
    }

    @Test func ttmlSamplesAreTimedOnTheTrackAndACueRepeatedAcrossSegmentsContinues() throws {
        let track = try #require(FragmentedTextTrack(initialisation: [UInt8](Segments.initialisation(.ttml, timescale: 1000))))
        #expect(track.format == .ttml && track.timescale == 1000)
        let first = Segments.segment(
            sequence: 1, startTicks: 0,
            samples: [(2000, Segments.ttml([(0.5, 1.5, "One"), (1.8, 2.6, "Across")]))])
        let second = Segments.segment(
            sequence: 2, startTicks: 2000,
            samples: [(2000, Segments.ttml([(1.8, 2.6, "Across"), (3, 3.5, "Two")]))])
        #expect(FragmentedTextTrack.looksLikeMP4([UInt8](first)))
        let events = track.events(in: [UInt8](first)) + track.events(in: [UInt8](second))
        #expect(shown(events) == ["0.5-1.5 One", "1.8-2.0 Across", "2.0-2.6 Across", "3.0-3.5 Two"])
    }

    @Test func aDocumentTimedFromItsSampleIsMovedToTheSample() throws {
        let track = try #require(FragmentedTextTrack(initialisation: [UInt8](Segments.initialisation(.ttml, timescale: 90_000))))
        let segment = Segments.segment(
            sequence: 51, startTicks: 100 * 90_000, samples: [(180_000, Segments.ttml([(0.5, 1.5, "Relative")]))])
        #expect(shown(track.events(in: [UInt8](segment))) == ["100.5-101.5 Relative"])
    }

    @Test func webVTTSamplesShowTheirCuesForTheSampleAndAnEmptySampleNothing() throws {
        let track = try #require(FragmentedTextTrack(initialisation: [UInt8](Segments.initialisation(.webVTT, timescale: 1000))))
        #expect(track.format == .webVTT)
        let segment = Segments.segment(
            sequence: 1, startTicks: 4000,
            samples: [
                (1000, Segments.emptyWebVTTSample),
                (1500, Segments.webVTTCue("Hello <i>there</i>", settings: "line:0")),
                (500, Segments.webVTTCue("Two\nlines") + Segments.webVTTCue("Both")),
            ])
        #expect(shown(track.events(in: [UInt8](segment))) == ["5.0-6.5 Hello there", "6.5-7.0 Two\nlines", "6.5-7.0 Both"])
        let store = SubtitleCueStore()
        store.reset(version: 1, header: nil)
        store.add(track.events(in: [UInt8](segment)), version: 1)
        #expect(store.allCues.first?.runs.last?.isItalic == true)
    }

    @Test func brokenSectionsAndSegmentsGiveNothingRatherThanCrash() throws {
        #expect(FragmentedTextTrack(initialisation: [UInt8](Segments.box("ftyp", Data("iso6".utf8)))) == nil)
        #expect(FragmentedTextTrack(initialisation: []) == nil)
        let track = try #require(FragmentedTextTrack(initialisation: [UInt8](Segments.initialisation(.ttml, timescale: 1000))))
        let segment = [UInt8](Segments.segment(sequence: 1, startTicks: 0, samples: [(2000, Segments.ttml([(0.5, 1.5, "One")]))]))
        for cut in stride(from: 0, to: segment.count, by: 7) {
            _ = track.events(in: Array(segment.prefix(cut)))
        }
        #expect(track.events(in: Array(segment.prefix(segment.count - 1))).isEmpty, "a cut sample is not read")
        #expect(shown(track.events(in: segment)) == ["0.5-1.5 One"])
    }
}
