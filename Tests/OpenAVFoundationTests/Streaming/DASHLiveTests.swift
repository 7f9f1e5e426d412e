// Playhead: tests for reading a dynamic (live) DASH manifest as live media playlists
// (DASHLive.swift): the segments whole by the clock and inside the time shift buffer, their
// program dates, and segment numbers by time across reloads and Representations.
import Foundation
import Testing

@testable import OpenAVFoundation

@Suite struct DASHLiveTests {
    let base = URL(string: "https://live.example/channel/manifest.mpd")!
    /// The availability start of every manifest here.
    let start = Date(timeIntervalSince1970: 1_800_000_000)

    private func mpd(_ period: String, type: String = "dynamic", extra: String = "") -> Data {
        Data(
            """
            <?xml version="1.0"?>
            <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="\(type)" availabilityStartTime="2027-01-15T08:00:00Z" \
            minimumUpdatePeriod="PT2S" \(extra)>
            \(period)
            </MPD>
            """.utf8)
    }

    /// A Period with one video Representation in 2 s segments addressed by `template`.
    private func period(_ template: String, start: String = "PT0S") -> String {
        """
        <Period id="p" start="\(start)"><AdaptationSet mimeType="video/mp4">
        <Representation id="v" bandwidth="500000">\(template)</Representation></AdaptationSet></Period>
        """
    }

    @Test func availabilityStartTimesAreReadWithOrWithoutFractions() {
        #expect(DASHManifest.date("2027-01-15T08:00:00Z") == start)
        #expect(DASHManifest.date("2027-01-15T08:00:00.500Z") == start.addingTimeInterval(0.5))
        #expect(DASHManifest.date("2027-01-15T08:00:00") == start, "no zone: UTC")
        #expect(DASHManifest.date("yesterday") == nil)
    }

    @Test func aFixedDurationTemplateListsTheSegmentsWholeByTheClockInsideTheBuffer() throws {
        let template = #"<SegmentTemplate timescale="10" duration="20" startNumber="7" media="s$Number$-$Time$.m4s"/>"#
        let data = mpd(period(template, start: "PT10S"), extra: #"timeShiftBufferDepth="PT30S""#)
        // 101 s after the start: 91 s into the Period; the segment from 88 s to 90 s is the
        // last whole one, the one ending at 61 s the first inside the 30 s buffer. Their times
        // are the presentation's (the Period's start added).
        let manifest = try #require(DASHManifest.live(data, base: base, now: start.addingTimeInterval(101)))
        try #require(!manifest.variants.isEmpty)
        let playlist = manifest.variants[0].playlist
        #expect(!playlist.isEnded)
        #expect(playlist.segments.first?.start == 70 && playlist.segments.last?.start == 98, "\(playlist.segments.map(\.start))")
        #expect(playlist.segments.allSatisfy { $0.duration == 2 })
        // $Number$ counts from the Period's start on from startNumber; $Time$ in the timescale.
        // (The loader's own numbers come from the segments' times: DASHLiveNumbering.)
        #expect(playlist.segments.last?.url.lastPathComponent == "s\(7 + 44)-880.m4s")
        #expect(playlist.mediaSequence == playlist.segments.first?.sequence)
        // Each segment's date: the availability start, the Period's start, the segment's.
        #expect(playlist.segments.last?.programDate == start.addingTimeInterval(10 + 88))
        #expect(playlist.targetDuration == 2)
        // Nearly a second later nothing new is whole; two seconds later, one more is.
        let later = try #require(DASHManifest.live(data, base: base, now: start.addingTimeInterval(101.9)))
        try #require(!later.variants.isEmpty)
        #expect(later.variants[0].playlist.segments.last?.start == 98)
        let after = try #require(DASHManifest.live(data, base: base, now: start.addingTimeInterval(103)))
        try #require(!after.variants.isEmpty)
        #expect(after.variants[0].playlist.segments.last?.start == 100)
    }

    @Test func aSuggestedPresentationDelayIsEveryPlaylistsHoldBackThroughTheNumbering() throws {
        let template = #"<SegmentTemplate timescale="1" duration="2" media="s$Number$.m4s"/>"#
        let data = mpd(period(template), extra: #"timeShiftBufferDepth="PT30S" suggestedPresentationDelay="PT7.5S""#)
        let manifest = try #require(DASHManifest.live(data, base: base, now: start.addingTimeInterval(40)))
        #expect(manifest.variants.allSatisfy { $0.playlist.holdBack == 7.5 })
        try #require(!manifest.variants.isEmpty)
        #expect(DASHLiveNumbering().numbered(manifest.variants[0].playlist).holdBack == 7.5)
        // 40 s in, the newest segment ends at 40 s: playback starts in the one holding 32.5 s.
        let timeline = HLSLiveTimeline(manifest.variants[0].playlist)
        try #require(timeline.segments.indices.contains(timeline.liveEdgeIndex))
        #expect(timeline.segments[timeline.liveEdgeIndex].start == 32)
        let plain = try #require(DASHManifest.live(mpd(period(template)), base: base, now: start.addingTimeInterval(40)))
        try #require(!plain.variants.isEmpty)
        #expect(plain.variants[0].playlist.holdBack == nil)
    }

    @Test func aTimelineListsWhatIsWholeAndInsideTheBuffer() throws {
        let template = """
            <SegmentTemplate timescale="1000" presentationTimeOffset="5000" media="t$Time$.m4s">
            <SegmentTimeline><S t="5000" d="2000" r="-1"/></SegmentTimeline></SegmentTemplate>
            """
        let data = mpd(period(template), extra: #"timeShiftBufferDepth="PT6S""#)
        let manifest = try #require(DASHManifest.live(data, base: base, now: start.addingTimeInterval(11)))
        try #require(!manifest.variants.isEmpty)
        let segments = manifest.variants[0].playlist.segments
        // An open-ended entry repeats up to now: whole by 11 s are those ending at 10 s and
        // before, inside the buffer those ending at 5 s and after.
        #expect(segments.map(\.start) == [4, 6, 8], "\(segments.map(\.start))")
        #expect(segments.map { $0.url.lastPathComponent } == ["t9000.m4s", "t11000.m4s", "t13000.m4s"])
    }

    @Test func whatIsNotALiveManifestItModelsIsNotReadAsOne() {
        let template = #"<SegmentTemplate timescale="1" duration="2" media="s$Number$.m4s"/>"#
        let now = start.addingTimeInterval(100)
        #expect(DASHManifest.live(mpd(period(template), type: "static"), base: base, now: now) == nil, "static")
        #expect(DASHManifest.live(mpd(period(template)), base: base, now: start.addingTimeInterval(-5)) == nil, "not begun")
        let noStart = String(decoding: mpd(period(template)), as: UTF8.self)
            .replacingOccurrences(of: #"availabilityStartTime="2027-01-15T08:00:00Z""#, with: "")
        #expect(DASHManifest.live(Data(noStart.utf8), base: base, now: now) == nil, "no availability start")
        let list = period(#"<SegmentList duration="2"><SegmentURL media="a.m4s"/></SegmentList>"#)
        #expect(DASHManifest.live(mpd(list), base: base, now: now) == nil, "a live segment list")
    }

    @Test func periodsBegunAndStillInsideTheBufferAreJoinedTheLatestNamingTheVariants() throws {
        let template = #"<SegmentTemplate timescale="1" duration="2" media="$RepresentationID$-$Number$.m4s"/>"#
        let periods = period(template).replacingOccurrences(of: #"start="PT0S""#, with: #"start="PT0S" duration="PT10S""#)
            + period(template, start: "PT10S").replacingOccurrences(of: #"id="v""#, with: #"id="ad""#)
            + period(template, start: "PT30S").replacingOccurrences(of: #"id="v""#, with: #"id="later""#)
        // 15 s in, 8 s of buffer: the first Period's segments ending at 8 and 10 s, then the
        // advert's first two; the Period to come at 30 s is not read yet.
        let manifest = try #require(
            DASHManifest.live(mpd(periods, extra: #"timeShiftBufferDepth="PT8S""#), base: base, now: start.addingTimeInterval(15)))
        #expect(manifest.variants.map(\.id) == ["ad"], "the latest Period names the variants")
        try #require(!manifest.variants.isEmpty)
        let segments = manifest.variants[0].playlist.segments
        #expect(segments.map(\.start) == [6, 8, 10, 12], "\(segments.map(\.start))")
        #expect(segments.map { $0.url.lastPathComponent } == ["v-4.m4s", "v-5.m4s", "ad-1.m4s", "ad-2.m4s"])
        #expect(segments.map(\.discontinuitySequence) == [0, 0, 10_000, 10_000], "each Period's start in milliseconds")
        #expect(segments.map(\.programDate) == [6, 8, 10, 12].map { start.addingTimeInterval($0) })
        #expect(!manifest.variants[0].playlist.isEnded)
        // 20 s later the first Period left the buffer.
        let later = try #require(
            DASHManifest.live(mpd(periods, extra: #"timeShiftBufferDepth="PT8S""#), base: base, now: start.addingTimeInterval(35)))
        try #require(!later.variants.isEmpty)
        let now = later.variants[0].playlist.segments
        #expect(now.map(\.start) == [26, 28, 30, 32] && later.variants.map(\.id) == ["later"], "\(now.map(\.start))")
        #expect(now.map(\.discontinuitySequence) == [10_000, 10_000, 30_000, 30_000])
    }

    /// A playlist of segments at `starts` (2 s each) numbered from `first`.
    private func playlist(_ starts: [Double], first: Int) -> HLSMediaPlaylist {
        let segments = starts.enumerated().map { index, start in
            HLSSegment(
                url: URL(string: "https://live.example/\(start).m4s")!, sequence: first + index, start: start, duration: 2,
                byteRange: nil, discontinuity: false)
        }
        return HLSMediaPlaylist(targetDuration: 2, segments: segments, isEnded: false, isEncrypted: false, initialisation: nil)
    }

    @Test func segmentsAreNumberedByTimeAcrossReloadsAndRepresentations() {
        let numbering = DASHLiveNumbering()
        // The first read keeps the template's numbers.
        #expect(numbering.numbered(playlist([10, 12, 14], first: 6)).segments.map(\.sequence) == [6, 7, 8])
        // A reload whose packager left startNumber at 1 while its window slid: the same
        // segments keep their numbers, the new one follows.
        let reload = numbering.numbered(playlist([12, 14, 16], first: 1))
        #expect(reload.segments.map(\.sequence) == [7, 8, 9] && reload.mediaSequence == 7)
        // Another Representation read for the first time agrees by time.
        #expect(numbering.numbered(playlist([14, 16, 18], first: 1)).segments.map(\.sequence) == [8, 9, 10])
        // Segments never listed between two reloads are counted at their duration.
        #expect(numbering.numbered(playlist([24, 26], first: 1)).segments.map(\.sequence) == [13, 14])
    }

    @Test func aManifestTurnedStaticEndsWithTheSameNumbers() throws {
        let template = #"<SegmentTemplate timescale="1" duration="2" media="s$Number$.m4s"/>"#
        let numbering = DASHLiveNumbering()
        let live = try #require(DASHManifest.live(mpd(period(template)), base: base, now: start.addingTimeInterval(9)))
        try #require(!live.variants.isEmpty)
        let first = numbering.numbered(live.variants[0].playlist)
        #expect(first.segments.map(\.sequence) == [1, 2, 3, 4])
        let ended = try #require(
            DASHManifest.parse(mpd(period(template), type: "static", extra: #"mediaPresentationDuration="PT12S""#), base: base))
        try #require(!ended.variants.isEmpty)
        let last = numbering.numbered(ended.variants[0].playlist)
        #expect(last.isEnded && last.segments.map(\.sequence) == [1, 2, 3, 4, 5, 6])
        #expect(last.segments.map { $0.url.lastPathComponent }.last == "s6.m4s")
    }

    @Test func aTextSetOfSegmentsIsFollowedLiveAsTheVideoIsAndAWholeFileIsLeftOut() throws {
        let videoTemplate = #"<SegmentTemplate timescale="10" duration="20" media="v$Number$.m4s"/>"#
        let periodText = """
            <Period id="p" start="PT10S"><AdaptationSet mimeType="video/mp4">
            <Representation id="v" bandwidth="500000">\(videoTemplate)</Representation></AdaptationSet>
            <AdaptationSet mimeType="application/mp4" codecs="stpp" lang="en">
            <SegmentTemplate timescale="1000" duration="2000" initialization="t-init.mp4" media="t$Number$.m4s"/>
            <Representation id="t" bandwidth="1000"/></AdaptationSet>
            <AdaptationSet mimeType="text/vtt" lang="fr"><Representation id="f" bandwidth="1000">
            <BaseURL>fr.vtt</BaseURL></Representation></AdaptationSet></Period>
            """
        let data = mpd(periodText, extra: #"timeShiftBufferDepth="PT30S""#)
        let manifest = try #require(DASHManifest.live(data, base: base, now: start.addingTimeInterval(101)))
        #expect(manifest.subtitles.map(\.language) == ["en"], "a whole file is not followed live")
        let text = try #require(manifest.subtitles.first?.playlist)
        try #require(!manifest.variants.isEmpty)
        let video = manifest.variants[0].playlist
        #expect(!text.isEnded && text.segments.map(\.start) == video.segments.map(\.start))
        #expect(text.segments.last?.url.lastPathComponent == "t45.m4s" && text.segments.last?.map?.url.lastPathComponent == "t-init.mp4")
        #expect(text.segments.last?.mediaStart == 88, "the Period's own time, which the track's times are on")
    }

    /// A Period of 2 s video segments and, unless `text` is false, an IMSC1 text set.
    private func textPeriod(_ id: String, start: Int, duration: Int, text: Bool = true) -> String {
        let video = #"<AdaptationSet mimeType="video/mp4"><Representation id="v" bandwidth="500000">"#
            + #"<SegmentTemplate timescale="10" duration="20" media="\#(id)-v$Number$.m4s"/></Representation></AdaptationSet>"#
        let texts = #"<AdaptationSet mimeType="application/mp4" codecs="stpp" lang="en"><Representation id="t" bandwidth="1000">"#
            + #"<SegmentTemplate timescale="1000" duration="2000" media="\#(id)-t$Number$.m4s"/></Representation></AdaptationSet>"#
        return #"<Period id="\#(id)" start="PT\#(start)S" duration="PT\#(duration)S">\#(video)\#(text ? texts : "")</Period>"#
    }

    @Test func aLiveTextSetGoesOnThroughAnAdvertPeriodWithoutOne() throws {
        // The programme (0–20 s, with text), then an advert (20–30 s, without), 25 s in.
        let data = mpd(
            textPeriod("show", start: 0, duration: 20) + textPeriod("ad", start: 20, duration: 10, text: false),
            extra: #"timeShiftBufferDepth="PT30S""#)
        let manifest = try #require(DASHManifest.live(data, base: base, now: start.addingTimeInterval(25)))
        let text = try #require(manifest.subtitles.first?.playlist, "offered although the newest Period has none")
        #expect(text.segments.map(\.start) == [0, 2, 4, 6, 8, 10, 12, 14, 16, 18])
        #expect(text.segments.last?.sectionEnd == 20, "its cues stop where the advert begins")
    }

    @Test func anEndedLiveManifestKeepsTheTimelineItHadLive() throws {
        // One Period from 100 s: live, its segments sit at 100 s on, timeline 100000.
        let period = textPeriod("p", start: 100, duration: 10)
        let live = try #require(
            DASHManifest.live(mpd(period, extra: #"timeShiftBufferDepth="PT30S""#), base: base, now: start.addingTimeInterval(111)))
        let tree = try #require(XMLTree.parse(mpd(period, type: "static", extra: #"mediaPresentationDuration="PT110S""#)))
        let ended = try #require(DASHManifest.ended(tree, base: base))
        try #require(!live.variants.isEmpty && !ended.variants.isEmpty)
        let liveText = try #require(live.subtitles.first?.playlist)
        let endedText = try #require(ended.subtitles.first?.playlist)
        for (was, now) in [(live.variants[0].playlist, ended.variants[0].playlist), (liveText, endedText)] {
            #expect(now.isEnded && now.segments.map(\.start) == was.segments.map(\.start))
            #expect(Set(now.segments.map(\.discontinuitySequence)) == [100_000] && Set(was.segments.map(\.discontinuitySequence)) == [100_000])
        }
    }

    @Test func anEndedLiveManifestKeepsATextSetAnAdvertPeriodLacks() throws {
        let periods = textPeriod("show", start: 0, duration: 20) + textPeriod("ad", start: 20, duration: 10, text: false)
        let tree = try #require(XMLTree.parse(mpd(periods, type: "static", extra: #"mediaPresentationDuration="PT30S""#)))
        let ended = try #require(DASHManifest.ended(tree, base: base))
        let text = try #require(ended.subtitles.first?.playlist)
        #expect(text.isEnded && text.segments.count == 10 && text.segments.last?.sectionEnd == 20)
        // A static programme of several Periods (not a live one that ended) leaves it out.
        #expect(DASHManifest.joining(try #require(DASHManifest.periods(tree, base: base)))?.subtitles.isEmpty == true)
    }
}
