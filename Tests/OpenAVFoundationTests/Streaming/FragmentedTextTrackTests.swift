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

    @Test func aTrackTimelineCountedFrom1970IsRead() throws {
        let track = try #require(FragmentedTextTrack(initialisation: [UInt8](Segments.initialisation(.ttml, timescale: 1000))))
        let segment = Segments.segment(
            sequence: 1, startTicks: 1_700_000_000_000,
            samples: [(2000, Segments.ttml([(1_700_000_000.5, 1_700_000_001.5, "Now")]))])
        #expect(shown(track.events(in: [UInt8](segment))) == ["1700000000.5-1700000001.5 Now"])
    }

    /// A moof of a video fragment then a text one, neither naming a base: the text's data
    /// follows the video's (ISO/IEC 14496-12 §8.8.7), and only the text track's is read.
    private func twoTrackSegment(largeHeader: Bool) -> Data {
        let document = Segments.ttml([(1, 2, "Text")])
        let video = Data(repeating: 0xAB, count: 18)
        func moof(dataOffset: UInt32) -> Data {
            let videoFragment = Segments.box(
                "traf",
                Segments.fullBox("tfhd", version: 0, flags: 0, Segments.uint32(1))
                    + Segments.fullBox("tfdt", version: 1, flags: 0, Segments.uint64(0))
                    + Segments.fullBox("trun", version: 0, flags: 0x01, Segments.uint32(2) + Segments.uint32(dataOffset)))
            let textFragment = Segments.box(
                "traf",
                Segments.fullBox("tfhd", version: 0, flags: 0, Segments.uint32(2))
                    + Segments.fullBox("tfdt", version: 1, flags: 0, Segments.uint64(0))
                    + Segments.fullBox(
                        "trun", version: 0, flags: 0x300,
                        Segments.uint32(1) + Segments.uint32(2000) + Segments.uint32(UInt32(document.count))))
            let payload = Segments.fullBox("mfhd", version: 0, flags: 0, Segments.uint32(1)) + videoFragment + textFragment
            guard largeHeader else { return Segments.box("moof", payload) }
            return Segments.uint32(1) + Data("moof".utf8) + Segments.uint64(UInt64(16 + payload.count)) + payload
        }
        let size = moof(dataOffset: 0).count
        return moof(dataOffset: UInt32(size + 8)) + Segments.box("mdat", video + document)
    }

    @Test(arguments: [false, true])
    func onlyTheSubtitleTracksFragmentsAreReadWhereverTheirDataLies(largeHeader: Bool) throws {
        let initialisation = Segments.initialisation(.ttml, timescale: 1000, afterVideoTrack: true)
        let track = try #require(FragmentedTextTrack(initialisation: [UInt8](initialisation)))
        #expect(track.trackID == 2 && track.defaultSize == 0, "the text track's trex, not the video's")
        #expect(shown(track.events(in: [UInt8](twoTrackSegment(largeHeader: largeHeader)))) == ["1.0-2.0 Text"])
    }

    @Test func aStatedBaseCountsFromTheFilesStartNotTheRangesStart() throws {
        let track = try #require(FragmentedTextTrack(initialisation: [UInt8](Segments.initialisation(.ttml, timescale: 1000))))
        let document = Segments.ttml([(1, 2, "Ranged")])
        let rangeStart = 1000
        func moof(base: UInt64) -> Data {
            Segments.box(
                "moof",
                Segments.box(
                    "traf",
                    Segments.fullBox("tfhd", version: 0, flags: 0x01, Segments.uint32(1) + Segments.uint64(base))
                        + Segments.fullBox(
                            "trun", version: 0, flags: 0x300,
                            Segments.uint32(1) + Segments.uint32(2000) + Segments.uint32(UInt32(document.count)))))
        }
        let size = moof(base: 0).count
        let segment = moof(base: UInt64(rangeStart + size + 8)) + Segments.box("mdat", document)
        #expect(shown(track.events(in: [UInt8](segment), fileOffset: rangeStart)) == ["1.0-2.0 Ranged"])
        #expect(track.events(in: [UInt8](segment)).isEmpty, "read from the wrong place, the base is past the bytes")
    }

    @Test func hostileFragmentsAreBoundedAndNeverTrap() throws {
        let track = try #require(FragmentedTextTrack(initialisation: [UInt8](Segments.initialisation(.ttml, timescale: 1))))
        // A decode time at the end of 64 bits, four billion samples of no size, and a stated
        // base far past the bytes.
        let endless = Segments.box(
            "moof",
            Segments.box(
                "traf",
                Segments.fullBox("tfhd", version: 0, flags: 0x02_0000, Segments.uint32(1))
                    + Segments.fullBox("tfdt", version: 1, flags: 0, Segments.uint64(.max))
                    + Segments.fullBox("trun", version: 0, flags: 0, Segments.uint32(.max))))
            + Segments.box("mdat", Data())
        #expect(track.samples(in: [UInt8](endless)).count == FragmentedTextTrack.maximumSamples)
        #expect(track.events(in: [UInt8](endless)).isEmpty)
        let far = Segments.box(
            "moof",
            Segments.box(
                "traf",
                Segments.fullBox("tfhd", version: 0, flags: 0x01, Segments.uint32(1) + Segments.uint64(.max))
                    + Segments.fullBox("trun", version: 0, flags: 0x200, Segments.uint32(1) + Segments.uint32(10))))
        #expect(track.samples(in: [UInt8](far)).isEmpty)
    }

    @Test func anMP4TrackPacketIsTimedOnTheContainersTimelineMovedToItemTime() throws {
        // A container whose timeline starts at 10 s: the packet at item time 0 lasts 4 s and its
        // document's times are the container's (11–12 s).
        let bytes = [UInt8](Segments.ttml([(11, 12, "Late start")]))
        let packet = try #require(Packet(bytes: bytes, streamIndex: 1, pts: 0, timeBase: (1, 1000), duration: 4000))
        let decoder = TTMLPacketDecoder(streamIndex: 1, timelineStart: CMTime(seconds: 10, preferredTimescale: 1000))
        #expect(shown(decoder.decode(packet)) == ["1.0-2.0 Late start"])
        // ISMV's sample-relative documents (0.5–1.5 s of a sample at container time 30 s).
        let relative = try #require(
            Packet(bytes: [UInt8](Segments.ttml([(0.5, 1.5, "Relative")])), streamIndex: 1, pts: 20_000, timeBase: (1, 1000), duration: 2000))
        #expect(shown(decoder.decode(relative)) == ["20.5-21.5 Relative"])
    }
}
