// Playhead: tests for a live DASH manifest's `availabilityTimeOffset`: segments listed that much
// before they end by the clock (a CDN holding them early, a low-latency packager), the offsets
// of the BaseURL and segment template levels added, "INF" listing the whole Period, and none
// applied where a segment is not whole when available (`availabilityTimeComplete="false"`,
// chunked delivery the loader does not model).
import Foundation
import Testing

@testable import OpenAVFoundation

@Suite struct DASHAvailabilityOffsetTests {
    let base = URL(string: "https://live.example/channel/manifest.mpd")!
    /// The availability start of every manifest here.
    let start = Date(timeIntervalSince1970: 1_800_000_000)

    /// A live MPD whose Period starts 10 s after the availability start, with one video
    /// Representation of 2 s segments; `representation` goes inside the Representation, `mpd`
    /// inside the MPD before the Period.
    private func manifest(
        template: String = "", representation: String = "", mpd: String = "", duration: String = "",
        timeline: String? = nil
    ) -> Data {
        // A fixed duration, or a timeline of 2 s entries from the Period's start.
        let addressing = timeline.map { #" media="t$Time$.m4s"\#(template)><SegmentTimeline>\#($0)</SegmentTimeline></SegmentTemplate>"# }
            ?? #" duration="20" startNumber="1" media="s$Number$.m4s"\#(template)/>"#
        return Data(
            """
            <?xml version="1.0"?>
            <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="dynamic" availabilityStartTime="2027-01-15T08:00:00Z" \
            minimumUpdatePeriod="PT2S" timeShiftBufferDepth="PT30S">\(mpd)
            <Period id="p" start="PT10S"\(duration)><AdaptationSet mimeType="video/mp4">
            <Representation id="v" bandwidth="500000">\(representation)<SegmentTemplate timescale="10"\(addressing)\
            </Representation></AdaptationSet></Period>
            </MPD>
            """.utf8)
    }

    /// The presentation start of the newest segment listed 101 s after the availability start
    /// (91 s into the Period: without an offset the segment from 88 s to 90 s is the newest whole).
    private func newest(_ data: Data, at seconds: Double = 101) throws -> Double? {
        let live = try #require(DASHManifest.live(data, base: base, now: start.addingTimeInterval(seconds)))
        return live.variants.first?.playlist.segments.last?.start
    }

    @Test func withoutAnOffsetTheNewestSegmentIsTheLastWholeByTheClock() throws {
        #expect(try newest(manifest()) == 98)
    }

    @Test func aTemplatesOffsetListsASegmentThatMuchBeforeItEnds() throws {
        // The segment ending 92 s into the Period is available from 90.5 s.
        #expect(try newest(manifest(template: #" availabilityTimeOffset="1.5""#)) == 100)
        #expect(try newest(manifest(template: #" availabilityTimeOffset="0.5""#)) == 98, "not yet: from 91.5 s")
    }

    @Test func theOffsetsOfTheBaseURLsAndTheTemplateAdd() throws {
        let data = manifest(
            template: #" availabilityTimeOffset="0.5""#,
            representation: #"<BaseURL availabilityTimeOffset="0.25">seg/</BaseURL>"#,
            mpd: #"<BaseURL availabilityTimeOffset="0.25">https://cdn.example/live/</BaseURL>"#)
        #expect(try newest(data) == 100, "0.25 + 0.25 + 0.5 = 1 s: the segment ending at 92 s is listed at 91 s")
        let live = try #require(DASHManifest.live(data, base: base, now: start.addingTimeInterval(101)))
        #expect(live.variants.first?.playlist.segments.last?.url.absoluteString == "https://cdn.example/live/seg/s46.m4s")
    }

    @Test func anInfiniteOffsetListsTheWholePeriod() throws {
        // A Period of 100 s: every segment up to its end, whatever the clock.
        let data = manifest(template: #" availabilityTimeOffset="INF""#, duration: #" duration="PT100S""#)
        #expect(try newest(data) == 108)
        // A Period with no end stays on the clock.
        #expect(try newest(manifest(template: #" availabilityTimeOffset="INF""#)) == 98)
    }

    @Test func noOffsetAppliesWhereSegmentsAreNotWholeWhenAvailable() throws {
        let data = manifest(template: #" availabilityTimeOffset="1.5" availabilityTimeComplete="false""#)
        #expect(try newest(data) == 98)
        // Said at one level, it holds for the offsets of every level.
        let mixed = manifest(
            template: #" availabilityTimeComplete="false""#,
            mpd: #"<BaseURL availabilityTimeOffset="1.5">https://cdn.example/live/</BaseURL>"#)
        #expect(try newest(mixed) == 98)
    }

    @Test func aTimelinesSegmentsAreListedThatMuchSoonerToo() throws {
        // Entries of 2 s from the Period's start on, more than the clock has reached.
        let timeline = #"<S t="0" d="20" r="59"/>"#
        #expect(try newest(manifest(timeline: timeline)) == 98)
        #expect(try newest(manifest(template: #" availabilityTimeOffset="1.5""#, timeline: timeline)) == 100)
    }

    @Test func aNegativeOrUnreadableOffsetIsNone() throws {
        #expect(try newest(manifest(template: #" availabilityTimeOffset="-3""#)) == 98)
        #expect(try newest(manifest(template: #" availabilityTimeOffset="soon""#)) == 98)
    }
}
