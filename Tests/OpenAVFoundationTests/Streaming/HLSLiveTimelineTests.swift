// Playhead: tests for the live timeline behind Playhead's HLS loader: reloads merged by media
// sequence number, the window, the live edge and the reload interval.
import Foundation
import Testing

@testable import OpenAVFoundation

@Suite struct HLSLiveTimelineTests {
    let base = URL(string: "https://media.example/live/index.m3u8")!

    /// A live playlist of `count` segments of `duration` seconds from sequence `first`.
    private func playlist(first: Int, count: Int, duration: Double = 2, ended: Bool = false) throws -> HLSMediaPlaylist {
        var lines = ["#EXTM3U", "#EXT-X-TARGETDURATION:2", "#EXT-X-MEDIA-SEQUENCE:\(first)"]
        for sequence in first..<(first + count) { lines += ["#EXTINF:\(duration),", "s\(sequence).ts"] }
        if ended { lines.append("#EXT-X-ENDLIST") }
        guard case .media(let playlist) = try HLSPlaylist.parse(lines.joined(separator: "\n"), base: base) else {
            throw HLSPlaylist.ParseError.notAPlaylist
        }
        return playlist
    }

    @Test func reloadsKeepTheSegmentsPlacesAndMoveTheWindow() throws {
        var timeline = HLSLiveTimeline(try playlist(first: 10, count: 5))
        #expect(timeline.window == 0...10)
        #expect(timeline.liveEdgeIndex == 2, "the segment holding 10 - 3 × 2 = 4 s")
        #expect(timeline.merge(try playlist(first: 12, count: 5)), "two new segments")
        #expect(timeline.segments.map(\.sequence) == Array(10...16))
        #expect(timeline.segments.map(\.start) == [0, 2, 4, 6, 8, 10, 12])
        #expect(timeline.window == 4...14)
        #expect(timeline.index(ofSequence: 15) == 5)
        #expect(!timeline.merge(try playlist(first: 12, count: 5)), "nothing new")
        #expect(!timeline.isEnded)
    }

    @Test func missedSegmentsCountAtTheTargetDurationAndTheEndIsAChange() throws {
        var timeline = HLSLiveTimeline(try playlist(first: 0, count: 3))
        // Sequences 3 and 4 were never seen: 2 s each, so 5 starts at 10 s.
        #expect(timeline.merge(try playlist(first: 5, count: 2)))
        #expect(timeline.segments.map(\.start) == [0, 2, 4, 10, 12])
        #expect(timeline.window == 10...14)
        #expect(timeline.liveEdgeIndex == 3, "never before the window")
        #expect(timeline.merge(try playlist(first: 5, count: 2, ended: true)))
        #expect(timeline.isEnded)
    }

    @Test func aHoldBackTheServerAsksForMovesTheLiveEdge() throws {
        func parsed(_ lines: [String]) throws -> HLSMediaPlaylist {
            guard case .media(let playlist) = try HLSPlaylist.parse(lines.joined(separator: "\n"), base: base) else {
                throw HLSPlaylist.ParseError.notAPlaylist
            }
            return playlist
        }
        let segments = (0..<10).flatMap { ["#EXTINF:2,", "s\($0).ts"] }
        let head = ["#EXTM3U", "#EXT-X-TARGETDURATION:2", "#EXT-X-MEDIA-SEQUENCE:0"]
        let held = try parsed(head + ["#EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,HOLD-BACK=9.0"] + segments)
        #expect(held.holdBack == 9)
        var timeline = HLSLiveTimeline(held)
        // A 0–20 s window: 9 s before its end is 11 s, in the segment from 10 s (three target
        // durations would give 14 s, the segment from 14 s).
        #expect(timeline.edgeOffset == 9 && timeline.liveEdgeIndex == 5)
        #expect(HLSLiveTimeline(try parsed(head + segments)).liveEdgeIndex == 7)
        // A reload without the tag keeps it; one with another value takes that.
        timeline.merge(try parsed(head + segments))
        #expect(timeline.edgeOffset == 9)
        timeline.merge(try parsed(head + ["#EXT-X-SERVER-CONTROL:HOLD-BACK=12"] + segments))
        #expect(timeline.edgeOffset == 12 && timeline.liveEdgeIndex == 4)
    }

    @Test func theReloadIntervalIsTheTargetDurationOrHalfOfIt() throws {
        let timeline = HLSLiveTimeline(try playlist(first: 0, count: 3))
        #expect(timeline.reloadInterval(changed: true) == 2)
        #expect(timeline.reloadInterval(changed: false) == 1)
    }
}
