// Playhead: tests for joining the Periods of a static MPD into one presentation
// (DASHPeriods.swift): their timing, the Representations matched by rank, the audio sets by
// language, discontinuities, and what is left to libavformat.
import Foundation
import Testing

@testable import OpenAVFoundation

@Suite struct DASHPeriodsTests {
    let base = URL(string: "https://cdn.example/show/manifest.mpd")!

    private func parse(_ periods: String, total: String = "PT10S") -> DASHManifest? {
        let text = """
            <?xml version="1.0"?>
            <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" xmlns:xlink="http://www.w3.org/1999/xlink" type="static" \
            mediaPresentationDuration="\(total)">
            \(periods)
            </MPD>
            """
        return DASHManifest.parse(Data(text.utf8), base: base)
    }

    /// A Period of video Representations (id, bandwidth) and an audio set per language, in 2 s
    /// segments named after the Period (`<name>/<id>-<n>.m4s`).
    private func period(
        _ name: String, _ attributes: String, video: [(String, Int)], audio: [String] = ["en"]
    ) -> String {
        let template = "<SegmentTemplate timescale=\"1\" duration=\"2\" media=\"$RepresentationID$-$Number$.m4s\"/>"
        let representations = video.map { "<Representation id=\"\($0.0)\" bandwidth=\"\($0.1)\"/>" }.joined()
        let sets = audio.map {
            "<AdaptationSet mimeType=\"audio/mp4\" lang=\"\($0)\">\(template)"
                + "<Representation id=\"a-\($0)\" bandwidth=\"64000\"/></AdaptationSet>"
        }
        return "<Period id=\"\(name)\" \(attributes)><BaseURL>\(name)/</BaseURL>"
            + "<AdaptationSet mimeType=\"video/mp4\">\(template)\(representations)</AdaptationSet>"
            + sets.joined() + "</Period>"
    }

    @Test func aPeriodsSegmentsStopAtItsEndAndSayWhereItIs() throws {
        // The advert's timeline lists 6 s of segments, but the Period lasts 3.5 s: its second
        // segment is cut there (what it holds after is not shown), its third never fetched.
        let timeline = """
            <SegmentTemplate timescale="1" media="$RepresentationID$-$Time$.m4s">            <SegmentTimeline><S t="0" d="2" r="2"/></SegmentTimeline></SegmentTemplate>
            """
        let advert = "<Period id=\"ad\" duration=\"PT3.5S\"><BaseURL>ad/</BaseURL>"
            + "<AdaptationSet mimeType=\"video/mp4\">\(timeline)<Representation id=\"ad\" bandwidth=\"300000\"/>"
            + "</AdaptationSet><AdaptationSet mimeType=\"audio/mp4\" lang=\"en\">\(timeline)"
            + "<Representation id=\"a-en\" bandwidth=\"64000\"/></AdaptationSet></Period>"
        let joined = try #require(parse(advert + period("show", "", video: [("lo", 200_000)]), total: "PT9.5S"))
        let sound = try #require(joined.audio.first?.representations.first)
        try #require(!joined.variants.isEmpty)
        for (playlist, id) in [(joined.variants[0].playlist, "ad"), (sound.playlist, "a-en")] {
            let segments = playlist.segments
            #expect(segments.map(\.start) == [0, 2, 3.5, 5.5, 7.5], "\(segments.map(\.start))")
            #expect(segments.map(\.duration) == [2, 1.5, 2, 2, 2])
            #expect(segments.map(\.sectionEnd) == [3.5, 3.5, nil, nil, nil])
            #expect(segments.prefix(2).map { $0.url.path } == ["/show/ad/\(id)-0.m4s", "/show/ad/\(id)-2.m4s"])
        }
    }

    @Test func periodsPlayOneAfterAnotherEachOpeningATimeline() throws {
        let joined = try #require(
            parse(
                period("ad", "duration=\"PT4S\"", video: [("ad", 300_000)])
                    + period("show", "", video: [("lo", 200_000), ("hi", 800_000)]), total: "PT12S"))
        // The longest Period's Representations name the variants.
        #expect(joined.variants.map(\.id) == ["lo", "hi"])
        for variant in joined.variants {
            let segments = variant.playlist.segments
            #expect(segments.map(\.start) == [0, 2, 4, 6, 8, 10], "the show starts where the advert ends")
            #expect(segments.map(\.duration) == [2, 2, 2, 2, 2, 2])
            #expect(segments.map(\.sequence) == [1, 2, 3, 4, 5, 6], "numbered on")
            #expect(segments.map(\.discontinuitySequence) == [0, 0, 1, 1, 1, 1])
            #expect(segments.map(\.discontinuity) == [false, false, true, false, false, false])
            // Both play the advert's one Representation, then their own.
            let paths = segments.map { $0.url.path }
            #expect(paths.prefix(2) == ["/show/ad/ad-1.m4s", "/show/ad/ad-2.m4s"], "\(paths)")
            try #require(paths.count >= 3)
            #expect(paths[2] == "/show/show/\(variant.id)-1.m4s", "\(paths)")
            #expect(variant.playlist.isEnded && variant.playlist.duration == 12)
        }
        // The sound of each Period follows on too.
        let sound = try #require(joined.audio.first?.representations.first)
        #expect(sound.playlist.segments.map { $0.url.path } == [
            "/show/ad/a-en-1.m4s", "/show/ad/a-en-2.m4s", "/show/show/a-en-1.m4s", "/show/show/a-en-2.m4s",
            "/show/show/a-en-3.m4s", "/show/show/a-en-4.m4s",
        ])
        #expect(sound.playlist.segments.map(\.discontinuitySequence) == [0, 0, 1, 1, 1, 1])
    }

    @Test func ladderRanksAndLanguagesMatchAcrossPeriods() throws {
        let joined = try #require(
            parse(
                period("show", "duration=\"PT6S\"", video: [("a", 1), ("b", 2), ("c", 3)], audio: ["en", "fr"])
                    + period("credits", "duration=\"PT2S\"", video: [("x", 1), ("y", 2)], audio: ["fr", "de"])
                    + period("end", "start=\"PT8S\"", video: [("z", 1)], audio: ["de"]),
                total: "PT10S"))
        // Lowest with lowest, highest with highest, the middle one rounded to the higher.
        try #require(joined.variants.allSatisfy { $0.playlist.segments.count >= 5 })
        let credits = joined.variants.map { $0.playlist.segments[3].url.lastPathComponent }
        #expect(credits == ["x-1.m4s", "y-1.m4s", "y-1.m4s"], "\(credits)")
        #expect(joined.variants.map { $0.playlist.segments[4].url.lastPathComponent } == ["z-1.m4s", "z-1.m4s", "z-1.m4s"])
        #expect(joined.variants.allSatisfy { $0.playlist.duration == 10 })
        // French follows French; English, gone from the credits, falls to their default (the
        // first set there).
        let names = joined.audio.map { $0.language ?? "" }
        #expect(names == ["en", "fr"])
        let english = try #require(joined.audio.first?.representations.first?.playlist.segments)
        let french = try #require(joined.audio.last?.representations.first?.playlist.segments)
        #expect(english.map { $0.url.lastPathComponent } == ["a-en-1.m4s", "a-en-2.m4s", "a-en-3.m4s", "a-fr-1.m4s", "a-de-1.m4s"])
        #expect(french.map { $0.url.lastPathComponent } == ["a-fr-1.m4s", "a-fr-2.m4s", "a-fr-3.m4s", "a-fr-1.m4s", "a-de-1.m4s"])
        #expect(french.map(\.discontinuitySequence) == [0, 0, 0, 1, 2])
    }

    @Test func oneStartingLaterThanZeroKeepsItsOwnTimeline() throws {
        // A single Period is read as it is (its segments from its own start).
        let one = try #require(parse(period("show", "start=\"PT30S\"", video: [("v", 1)]), total: "PT34S"))
        try #require(!one.variants.isEmpty)
        #expect(one.variants[0].playlist.segments.map(\.start) == [0, 2])
    }

    @Test func periodsWhoseTimingCannotBeToldOrThatAreRemoteAreLeftToLibavformat() {
        let show = period("show", "", video: [("v", 1)])
        #expect(parse(period("a", "", video: [("v", 1)]) + show) == nil, "the first's end unknown: the second's start is")
        #expect(
            parse(period("a", "duration=\"PT6S\"", video: [("v", 1)]) + period("b", "start=\"PT4S\"", video: [("v", 1)]))
                == nil, "overlapping")
        #expect(
            parse(
                period("a", "duration=\"PT4S\"", video: [("v", 1)])
                    + "<Period xlink:href=\"https://ads.example/p.xml\" xlink:actuate=\"onLoad\"/>")
                == nil, "remote")
        #expect(
            parse(period("a", "duration=\"PT4S\"", video: [("v", 1)]) + period("b", "", video: [("v", 1)], audio: []))
                == nil, "the longest Period without the sound the others have")
        #expect(
            parse(period("a", "duration=\"PT4S\"", video: [("v", 1)], audio: []) + period("b", "", video: [("v", 1)]))
                == nil, "a Period without the sound the others have")
        // (A video set without Representations is no video.)
        let soundOnly = period("b", "", video: [], audio: ["en"])
        #expect(parse(period("a", "duration=\"PT4S\"", video: [("v", 1)]) + soundOnly) == nil, "video, then sound only")
    }

    @Test func segmentIndexesAreReadBeforeThePeriodsAreJoined() throws {
        let indexed = """
            <Period duration="PT4S"><AdaptationSet mimeType="video/mp4"><Representation id="v" bandwidth="1">
            <BaseURL>v.mp4</BaseURL><SegmentBase indexRange="800-855"/></Representation></AdaptationSet></Period>
            """
        let text = """
            <MPD type="static" mediaPresentationDuration="PT8S">\(indexed)\(period("show", "", video: [("v", 1)], audio: []))</MPD>
            """
        #expect(DASHManifest.parse(Data(text.utf8), base: base) == nil, "an index still unread")
        let periods = try #require(DASHManifest.periods(Data(text.utf8), base: base))
        #expect(periods.map(\.periodStart) == [0, 4])
        // A version-0 sidx of 56 bytes at 800: timescale 1000, two subsegments of 2 s after a
        // first offset of 6 bytes.
        var box = Data()
        func put(_ value: UInt32) { withUnsafeBytes(of: value.bigEndian) { box.append(contentsOf: $0) } }
        for value: UInt32 in [56, 0x7369_6478, 0, 1, 1000, 0, 6, 2] { put(value) }
        for size: UInt32 in [5000, 3000] {
            put(size)
            put(2000)
            put(0x9000_0000)
        }
        let resolved = periods.compactMap { $0.resolvingIndexes { _, _ in box } }
        let joined = try #require(DASHManifest.joining(resolved))
        try #require(!joined.variants.isEmpty)
        let segments = joined.variants[0].playlist.segments
        #expect(segments.map(\.start) == [0, 2, 4, 6], "\(segments.map(\.start))")
        #expect(segments.map(\.byteRange) == [862..<5862, 5862..<8862, nil, nil])
        #expect(segments.map { $0.url.lastPathComponent } == ["v.mp4", "v.mp4", "v-1.m4s", "v-2.m4s"])
    }
}
