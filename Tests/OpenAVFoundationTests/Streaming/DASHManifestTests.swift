// Playhead: tests for reading a DASH manifest into the HLS loader's model (`DASHManifest`,
// `DASHSegments`): segment addressing, timing, base URLs and what is left to libavformat.
import Foundation
import Testing

@testable import OpenAVFoundation

@Suite struct DASHManifestTests {
    let base = URL(string: "https://cdn.example/show/manifest.mpd")!

    private func manifest(_ body: String, type: String = "static", mpdExtra: String = "") -> DASHManifest? {
        let text = """
            <?xml version="1.0"?>
            <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="\(type)" mediaPresentationDuration="PT5.5S" \(mpdExtra)>
            <Period>\(body)</Period>
            </MPD>
            """
        return DASHManifest.parse(Data(text.utf8), base: base)
    }

    @Test func isoDurationsAreSeconds() {
        #expect(DASHManifest.isoDuration("PT6.0S") == 6)
        #expect(DASHManifest.isoDuration("PT1H2M3.5S") == 3723.5)
        #expect(DASHManifest.isoDuration("P1DT1S") == 86_401)
        #expect(DASHManifest.isoDuration("PT5") == nil && DASHManifest.isoDuration("5S") == nil)
    }

    @Test func templatesExpandTheirIdentifiers() {
        let expand = { (text: String) in
            DASHSegments.expand(text, id: "v1", bandwidth: 800_000, number: 7, time: 90_000)
        }
        #expect(expand("chunk-$RepresentationID$-$Number%05d$.m4s") == "chunk-v1-00007.m4s")
        #expect(expand("$Bandwidth$/$Time$.m4s") == "800000/90000.m4s")
        #expect(expand("a$$b-$Number$") == "a$b-7")
        #expect(expand("$Unknown$") == nil && expand("open-$Number") == nil)
        #expect(DASHSegments.expand("$Number$", id: "v1", bandwidth: 1, number: nil, time: nil) == nil)
    }

    @Test func aTimelineTemplateListsEverySegmentWithItsPlaceAndURL() throws {
        let parsed = try #require(
            manifest(
                """
                <AdaptationSet contentType="video">
                <SegmentTemplate timescale="1000" media="$RepresentationID$/$Time$.m4s" initialization="$RepresentationID$/init.mp4" startNumber="3">
                <SegmentTimeline><S t="0" d="2000" r="1"/><S d="1500" r="-1"/></SegmentTimeline>
                </SegmentTemplate>
                <Representation id="hi" bandwidth="900000" width="640" height="360"/>
                <Representation id="lo" bandwidth="300000" width="320" height="180"/>
                </AdaptationSet>
                """))
        #expect(parsed.variants.map(\.id) == ["lo", "hi"], "ascending by bandwidth")
        try #require(parsed.variants.count == 2)
        let segments = parsed.variants[1].playlist.segments
        // 2 + 2, then 1.5 s entries repeated to the period's end at 5.5 s: one more.
        #expect(segments.map(\.start) == [0, 2, 4])
        #expect(segments.map(\.duration) == [2, 2, 1.5])
        #expect(segments.map(\.sequence) == [3, 4, 5])
        #expect(segments.map(\.url.absoluteString) == [
            "https://cdn.example/show/hi/0.m4s", "https://cdn.example/show/hi/2000.m4s",
            "https://cdn.example/show/hi/4000.m4s",
        ])
        #expect(segments.allSatisfy { $0.map?.url.absoluteString == "https://cdn.example/show/hi/init.mp4" })
        #expect(parsed.variants[1].width == 640 && parsed.variants[1].playlist.isEnded)
    }

    @Test func aFixedDurationTemplateEndsWithThePeriodAndBaseURLsNest() throws {
        let parsed = try #require(
            manifest(
                """
                <BaseURL>media/</BaseURL>
                <AdaptationSet mimeType="video/mp4">
                <BaseURL>video/</BaseURL>
                <Representation id="1" bandwidth="500000">
                <SegmentTemplate timescale="10" duration="20" media="seg$Number$.m4s"/>
                </Representation>
                </AdaptationSet>
                <AdaptationSet mimeType="audio/mp4" lang="fr">
                <Representation id="a1" bandwidth="64000"><SegmentTemplate timescale="1" duration="2" media="a$Number$.m4s"/></Representation>
                <Representation id="a2" bandwidth="128000"><SegmentTemplate timescale="1" duration="2" media="b$Number$.m4s"/></Representation>
                </AdaptationSet>
                """))
        let segments = try #require(parsed.variants.first).playlist.segments
        #expect(segments.map(\.duration) == [2, 2, 1.5])
        #expect(segments.first?.url.absoluteString == "https://cdn.example/show/media/video/seg1.m4s")
        #expect(segments.first?.map == nil)
        #expect(parsed.audio.count == 1)
        #expect(parsed.audio.first?.language == "fr" && parsed.audio.first?.isDefault == true)
        #expect(parsed.audio.first?.representation.id == "a2", "the audio set's best Representation")
        // Its Representations are versions following the video by rank: the one video
        // variant plays with the best.
        let set = try #require(parsed.audio.first)
        #expect(set.representations.map(\.id) == ["a1", "a2"])
        #expect(set.tiers(forVariants: 1) == [1])
    }

    @Test func theLadderIsOneVideoCodecWithoutTrickModeOrUnknownEssentialProperties() throws {
        let template = #"<SegmentTemplate timescale="1" duration="2" media="$RepresentationID$-$Number$.m4s"/>"#
        func set(_ codecs: String, _ ids: [(String, Int)], extra: String = "") -> String {
            "<AdaptationSet mimeType=\"video/mp4\" codecs=\"\(codecs)\">\(extra)\(template)"
                + ids.map { "<Representation id=\"\($0.0)\" bandwidth=\"\($0.1)\"/>" }.joined() + "</AdaptationSet>"
        }
        let trick = #"<EssentialProperty schemeIdUri="http://dashif.org/guidelines/trickmode" value="1"/>"#
        // An AVC ladder split over two sets, an HEVC one, and key frames for trick play.
        let parsed = try #require(
            manifest(
                set("avc1.64001f", [("a-lo", 400_000), ("a-hi", 2_000_000)])
                    + set("avc3.640028", [("a-top", 5_000_000)])
                    + set("hvc1.1.6.L120.90", [("h-lo", 300_000), ("h-hi", 1_500_000)])
                    + set("avc1.64001f", [("trick", 100_000)], extra: trick)))
        #expect(parsed.variants.map(\.id) == ["a-lo", "a-hi", "a-top"], "\(parsed.variants.map(\.id))")
        // The set marked main is the ladder, whatever comes first.
        let main = try #require(
            manifest(
                set("avc1.64001f", [("a-lo", 400_000)])
                    + set("hev1.1.6.L120.90", [("h-lo", 300_000), ("h-hi", 1_500_000)], extra: #"<Role schemeIdUri="urn:mpeg:dash:role:2011" value="main"/>"#)))
        #expect(main.variants.map(\.id) == ["h-lo", "h-hi"])
        // A Representation with a property Playhead does not understand is left out; one with
        // a colour description it reads is kept.
        let properties = try #require(
            manifest(
                "<AdaptationSet mimeType=\"video/mp4\">\(template)"
                    + "<Representation id=\"odd\" bandwidth=\"1\"><EssentialProperty schemeIdUri=\"urn:example:future\"/></Representation>"
                    + "<Representation id=\"hdr\" bandwidth=\"2\"><EssentialProperty schemeIdUri=\"urn:mpeg:mpegB:cicp:TransferCharacteristics\" value=\"16\"/></Representation>"
                    + "</AdaptationSet>"))
        #expect(properties.variants.map(\.id) == ["hdr"] && properties.variants[0].videoRange == "PQ")
        // Only trick-mode video: nothing Playhead plays (libavformat gets the manifest).
        #expect(manifest(set("avc1.64001f", [("trick", 100_000)], extra: trick)) == nil)
    }

    @Test func soundOnlyInSeveralSetsAdaptsOverTheMainSetWithTheOthersBesideIt() throws {
        let parsed = try #require(
            manifest(
                """
                <AdaptationSet mimeType="audio/mp4" lang="de"><SegmentTemplate timescale="1" duration="2" media="d$Number$.m4s"/>
                <Representation id="d1" bandwidth="64000"/></AdaptationSet>
                <AdaptationSet mimeType="audio/mp4" lang="en"><Role schemeIdUri="urn:mpeg:dash:role:2011" value="main"/>
                <SegmentTemplate timescale="1" duration="2" media="e$Number$.m4s"/>
                <Representation id="e2" bandwidth="128000"/><Representation id="e1" bandwidth="64000"/></AdaptationSet>
                """))
        #expect(parsed.variants.map(\.id) == ["e1", "e2"], "the main set's, ascending")
        #expect(parsed.carriedAudio?.language == "en")
        #expect(parsed.audio.map(\.language) == ["de"] && parsed.audio.first?.isDefault == false)
        // One set alone: its Representations are the variants, and nothing is carried.
        let alone = try #require(
            manifest(
                """
                <AdaptationSet mimeType="audio/mp4" lang="en"><SegmentTemplate timescale="1" duration="2" media="e$Number$.m4s"/>
                <Representation id="e1" bandwidth="64000"/></AdaptationSet>
                """))
        #expect(alone.variants.map(\.id) == ["e1"] && alone.audio.isEmpty && alone.carriedAudio == nil)
    }

    @Test func audioRepresentationsPairWithVideoVariantsByRank() throws {
        let parsed = try #require(
            manifest(
                """
                <AdaptationSet mimeType="video/mp4"><SegmentTemplate timescale="1" duration="2" media="v$Number$.m4s"/>
                <Representation id="v1" bandwidth="500000"/><Representation id="v2" bandwidth="900000"/>
                </AdaptationSet>
                <AdaptationSet mimeType="audio/mp4"><SegmentTemplate timescale="1" duration="2" media="a$Number$.m4s"/>
                <Representation id="a3" bandwidth="192000"/><Representation id="a1" bandwidth="64000"/>
                <Representation id="a2" bandwidth="128000"/>
                </AdaptationSet>
                """))
        let set = try #require(parsed.audio.first)
        #expect(set.representations.map(\.id) == ["a1", "a2", "a3"], "ascending")
        // Lowest with lowest, highest with highest, the rest spread between.
        #expect(set.tiers(forVariants: 2) == [0, 2])
        #expect(set.tiers(forVariants: 3) == [0, 1, 2])
        #expect(set.tiers(forVariants: 5) == [0, 1, 1, 2, 2])
    }

    @Test func frameRatesAndTransferCharacteristicsAreReadFromTheRepresentationOrItsSet() throws {
        let parsed = try #require(
            manifest(
                """
                <AdaptationSet mimeType="video/mp4" frameRate="30000/1001">
                <SupplementalProperty schemeIdUri="urn:mpeg:mpegB:cicp:TransferCharacteristics" value="16"/>
                <SegmentTemplate timescale="1" duration="2" media="$RepresentationID$-$Number$.m4s"/>
                <Representation id="sdr" bandwidth="500000" frameRate="25">
                <EssentialProperty schemeIdUri="urn:mpeg:mpegB:cicp:TransferCharacteristics" value="1"/>
                </Representation>
                <Representation id="hdr" bandwidth="900000"/>
                <Representation id="hlg" bandwidth="1500000" frameRate="50/0">
                <SupplementalProperty schemeIdUri="urn:mpeg:mpegB:cicp:TransferCharacteristics" value="18"/>
                </Representation>
                </AdaptationSet>
                """))
        #expect(parsed.variants.map(\.id) == ["sdr", "hdr", "hlg"])
        #expect(parsed.variants.map(\.videoRange) == ["SDR", "PQ", "HLG"])
        try #require(parsed.variants.count == 3)
        #expect(parsed.variants[0].frameRate == 25)
        #expect(abs((parsed.variants[1].frameRate ?? 0) - 29.97) < 0.001, "the set's rate")
        #expect(parsed.variants[2].frameRate == nil, "a zero denominator is no rate")
        #expect(DASHManifest.frameRate("24") == 24 && DASHManifest.frameRate("x") == nil)
        #expect(DASHManifest.frameRate("1/2/3") == nil && DASHManifest.frameRate("0") == nil)
    }

    @Test func audioChannelConfigurationsGiveTheChannelCountOfTheirScheme() throws {
        let parsed = try #require(
            manifest(
                """
                <AdaptationSet mimeType="video/mp4">
                <SegmentTemplate timescale="1" duration="2" media="$RepresentationID$-$Number$.m4s"/>
                <Representation id="v" bandwidth="500000"/>
                </AdaptationSet>
                <AdaptationSet mimeType="audio/mp4" lang="en">
                <AudioChannelConfiguration schemeIdUri="urn:mpeg:dash:23003:3:audio_channel_configuration:2011" value="2"/>
                <SegmentTemplate timescale="1" duration="2" media="$RepresentationID$-$Number$.m4s"/>
                <Representation id="en" bandwidth="96000"/>
                </AdaptationSet>
                <AdaptationSet mimeType="audio/mp4" lang="fr">
                <SegmentTemplate timescale="1" duration="2" media="$RepresentationID$-$Number$.m4s"/>
                <Representation id="fr" bandwidth="384000">
                <AudioChannelConfiguration schemeIdUri="urn:mpeg:mpegB:cicp:ChannelConfiguration" value="7"/>
                </Representation>
                </AdaptationSet>
                <AdaptationSet mimeType="audio/mp4" lang="de">
                <AudioChannelConfiguration schemeIdUri="tag:dolby.com,2014:dash:audio_channel_configuration:2011" value="F801"/>
                <SegmentTemplate timescale="1" duration="2" media="$RepresentationID$-$Number$.m4s"/>
                <Representation id="de" bandwidth="384000"/>
                </AdaptationSet>
                """))
        #expect(parsed.audio.map(\.name) == ["en", "fr", "de"])
        // A plain count; CICP configuration 7 is 7.1 (eight channels); Dolby's mask is not read.
        #expect(parsed.audio.map(\.representation.channelCount) == [2, 8, nil])
    }

    @Test func aSegmentListGivesByteRangesOfOneResource() throws {
        let parsed = try #require(
            manifest(
                """
                <AdaptationSet contentType="video"><Representation id="0" bandwidth="200000">
                <BaseURL>whole.mp4</BaseURL>
                <SegmentList timescale="1000" duration="2000">
                <Initialization range="0-99"/>
                <SegmentURL mediaRange="100-999"/><SegmentURL mediaRange="1000-1999"/><SegmentURL mediaRange="2000-2499"/>
                </SegmentList></Representation></AdaptationSet>
                """))
        let segments = try #require(parsed.variants.first).playlist.segments
        #expect(segments.map(\.byteRange) == [100..<1000, 1000..<2000, 2000..<2500])
        #expect(segments.map(\.duration) == [2, 2, 1.5])
        #expect(segments.first?.url.absoluteString == "https://cdn.example/show/whole.mp4")
        #expect(segments.first?.map?.byteRange == 0..<100)
    }

    @Test func aSegmentBaseIsResolvedFromItsIndexBox() throws {
        let parsed = try #require(
            manifest(
                """
                <AdaptationSet contentType="video"><Representation id="0" bandwidth="200000">
                <BaseURL>one.mp4</BaseURL><SegmentBase indexRange="800-855"/></Representation></AdaptationSet>
                """))
        try #require(!parsed.variants.isEmpty)
        #expect(parsed.variants[0].index?.initialisation == 0..<800, "everything before the index")
        // A version-0 sidx of 56 bytes at 800: timescale 1000, two subsegments of 2 s after
        // a first offset of 6 bytes.
        var box = Data()
        func put(_ value: UInt32) { withUnsafeBytes(of: value.bigEndian) { box.append(contentsOf: $0) } }
        put(56)
        box.append(contentsOf: Array("sidx".utf8))
        put(0)  // version, flags
        put(1)  // reference_ID
        put(1000)  // timescale
        put(0)  // earliest presentation time
        put(6)  // first offset
        put(2)  // reserved, reference count
        for size: UInt32 in [5000, 3000] {
            put(size)
            put(2000)
            put(0x9000_0000)
        }
        #expect(box.count == 56)
        var asked: [Range<Int>] = []
        let resolved = try #require(parsed.resolvingIndexes { _, range in
            asked.append(range)
            return box
        })
        #expect(asked == [800..<856])
        try #require(!resolved.variants.isEmpty)
        let segments = resolved.variants[0].playlist.segments
        #expect(segments.map(\.byteRange) == [862..<5862, 5862..<8862])
        #expect(segments.map(\.start) == [0, 2] && segments.map(\.duration) == [2, 2])
        #expect(segments.first?.map?.byteRange == 0..<800)
        #expect(parsed.resolvingIndexes { _, _ in nil } == nil, "an index that cannot be read")
        #expect(parsed.resolvingIndexes { _, _ in Data(count: 56) } == nil, "not a sidx")
        // The same box naming itself as a further index (reference_type 1), over and over: the
        // number of indexes is bounded, and the index refused.
        var looping = box
        looping[44] |= 0x80
        var reads = 0
        #expect(parsed.resolvingIndexes { _, _ in
            reads += 1
            return looping
        } == nil)
        #expect(reads <= SegmentIndexBox.maximumIndexes + 1, "\(reads) reads")
        // Times past what a presentation lasts (timescale 1, an earliest time of 2^32 - 1 s).
        var distant = box
        distant.replaceSubrange(16..<24, with: [0, 0, 0, 1, 0xFF, 0xFF, 0xFF, 0xFF])
        #expect(SegmentIndexBox(distant, offset: 800) == nil)
        #expect(SegmentIndexBox(box, offset: 800) != nil)
    }

    /// Seven `sidx` boxes in a daisy chain (each names one subsegment of 1000 bytes and 2 s,
    /// then the next box): followed to the end, the subsegments in order.
    @Test func aDaisyChainOfIndexesIsFollowedToItsEnd() throws {
        func box(last: Bool, earliest: UInt32, rest: Int) -> Data {
            var box = Data()
            func put(_ value: UInt32) { withUnsafeBytes(of: value.bigEndian) { box.append(contentsOf: $0) } }
            put(last ? 44 : 56)
            box.append(contentsOf: Array("sidx".utf8))
            put(0)  // version, flags
            put(1)  // reference_ID
            put(1000)  // timescale
            put(earliest)
            put(0)  // first offset
            put(last ? 1 : 2)  // reserved, reference count
            put(1000)  // a subsegment of 1000 bytes
            put(2000)
            put(0x9000_0000)
            if !last {
                put(UInt32(rest) | 0x8000_0000)  // the next box and all that follows
                put(0)
                put(0)
            }
            return box
        }
        let count = 7
        var file = Data(count: 500)  // the initialisation section
        var starts: [Int] = []
        let sizes = (0..<count).map { $0 == count - 1 ? 44 : 56 }
        for index in 0..<count {
            starts.append(file.count)
            let rest = sizes[(index + 1)...].reduce(0, +) + 1000 * (count - index - 1)
            file += box(last: index == count - 1, earliest: UInt32(2000 * index), rest: rest)
            file += Data(count: 1000)
        }
        let index = DASHManifest.IndexedFile(
            url: URL(string: "https://media.example/v.mp4")!, indexRange: starts[0]..<(starts[0] + 56), initialisation: 0..<500)
        var reads = 0
        let playlist = try #require(DASHManifest.indexedPlaylist(
            index, sidx: file.subdata(in: index.indexRange), readRange: { range in
                reads += 1
                return file.subdata(in: range.clamped(to: 0..<file.count))
            }))
        #expect(reads == count - 1)
        #expect(playlist.segments.map(\.start) == (0..<count).map { Double($0 * 2) })
        #expect(playlist.segments.map(\.byteRange) == starts.enumerated().map { position, start in
            let begin = start + sizes[position]
            return begin..<(begin + 1000)
        })
    }

    @Test func whatTheLoaderDoesNotModelIsLeftToLibavformat() {
        let video = """
            <AdaptationSet contentType="video"><Representation id="0" bandwidth="1">
            <SegmentTemplate duration="1" media="s$Number$.m4s"/></Representation></AdaptationSet>
            """
        #expect(manifest(video) != nil)
        #expect(manifest(video, type: "dynamic") == nil, "live DASH")
        #expect(
            manifest(video.replacingOccurrences(of: "<Representation", with: "<ContentProtection/><Representation")) == nil,
            "protected")
        let sound = video.replacingOccurrences(of: "video", with: "audio")
        #expect(manifest(sound)?.variants.map(\.id) == ["0"], "one audio set: adapted over")
        let two = manifest(sound + sound.replacingOccurrences(of: "id=\"0\"", with: "id=\"1\""))
        #expect(two?.variants.map(\.id) == ["0"] && two?.audio.count == 1, "two audio sets: the first adapted over")
        #expect(
            manifest(video.replacingOccurrences(of: "<Representation", with: "<Representation mimeType=\"video/webm\"")) != nil,
            "WebM segments are streamed by the loader")
        #expect(
            manifest(video.replacingOccurrences(of: "<Representation", with: "<Representation mimeType=\"video/mp2t\"")) == nil,
            "MPEG-TS segments")
        let indexedWebM = """
            <AdaptationSet mimeType="video/webm"><Representation id="0" bandwidth="1"><BaseURL>v.webm</BaseURL>
            <SegmentBase indexRange="100-200"/></Representation></AdaptationSet>
            """
        #expect(manifest(indexedWebM) == nil, "a WebM file indexed by its Cues names its initialisation section")
        let namedWebM = manifest(indexedWebM.replacingOccurrences(
            of: #"indexRange="100-200"/>"#, with: #"indexRange="100-200"><Initialization range="0-49"/></SegmentBase>"#))
        #expect(namedWebM?.variants.first?.index == DASHManifest.IndexedFile(
            url: URL(string: "https://cdn.example/show/v.webm")!, indexRange: 100..<201, initialisation: 0..<50, isWebM: true),
            "\(String(describing: namedWebM?.variants.first?.index))")
        // A WebM audio set plays its highest Representation alone (Vorbis cannot switch).
        let webMAudio = """
            <AdaptationSet mimeType="audio/webm" lang="en">
            <Representation id="a" bandwidth="64000"><SegmentTemplate duration="1" media="a$Number$.webm"/></Representation>
            <Representation id="b" bandwidth="128000"><SegmentTemplate duration="1" media="b$Number$.webm"/></Representation>
            </AdaptationSet>
            """
        #expect(manifest(video + webMAudio)?.audio.first?.representations.map(\.id) == ["b"])
        #expect(DASHManifest.parse(Data("<MPD><Period>".utf8), base: base) == nil, "not well-formed")
    }
}

@Suite struct DASHManifestSafetyTests {
    @Test func entityExpansionIsNotAWayToExhaustMemory() {
        // "Billion laughs": ten levels of ten references each would expand to 10^10 copies.
        var lines = ["<?xml version=\"1.0\"?>", "<!DOCTYPE MPD [", "<!ENTITY l0 \"lol\">"]
        for level in 1...10 {
            lines.append("<!ENTITY l\(level) \"" + String(repeating: "&l\(level - 1);", count: 10) + "\">")
        }
        lines += ["]>", "<MPD type=\"static\" mediaPresentationDuration=\"PT1S\"><Period><BaseURL>&l10;</BaseURL></Period></MPD>"]
        let started = Date()
        let parsed = DASHManifest.parse(Data(lines.joined(separator: "\n").utf8), base: URL(string: "https://a.example/m.mpd")!)
        #expect(parsed == nil)
        #expect(Date().timeIntervalSince(started) < 5, "refused, not expanded")
    }

    @Test func anExternalEntityIsNeverRead() throws {
        let secret = FileManager.default.temporaryDirectory.appendingPathComponent("playhead-xxe-\(UUID().uuidString)")
        try "SECRET".write(to: secret, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: secret) }
        let text = """
            <?xml version="1.0"?>
            <!DOCTYPE MPD [<!ENTITY leak SYSTEM "\(secret.absoluteString)">]>
            <MPD type="static" mediaPresentationDuration="PT2S"><Period>
            <AdaptationSet contentType="video"><Representation id="0" bandwidth="1">
            <SegmentTemplate duration="1" media="&leak;$Number$.m4s"/></Representation></AdaptationSet>
            </Period></MPD>
            """
        let parsed = DASHManifest.parse(Data(text.utf8), base: URL(string: "https://a.example/m.mpd")!)
        let urls = parsed?.variants.first?.playlist.segments.map(\.url.absoluteString) ?? []
        #expect(!urls.contains { $0.contains("SECRET") }, "\(urls)")
    }
}
