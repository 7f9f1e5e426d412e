// Playhead: tests for the HLS playlist parser behind Playhead's own loader.
import Foundation
import Testing

@testable import OpenAVFoundation

@Suite struct HLSPlaylistTests {
    let base = URL(string: "https://media.example/show/master.m3u8")!

    @Test func aMultivariantPlaylistListsItsVariantsWithTheirAttributes() throws {
        let text = """
            #EXTM3U
            #EXT-X-INDEPENDENT-SEGMENTS
            #EXT-X-STREAM-INF:BANDWIDTH=2500000,AVERAGE-BANDWIDTH=2000000,RESOLUTION=640x360,CODECS="avc1.64001e,mp4a.40.2",FRAME-RATE=29.970,VIDEO-RANGE=PQ
            high/index.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=250000,RESOLUTION=160x90,AUDIO="aud",FRAME-RATE=0
            https://cdn.example/low.m3u8
            """
        guard case .multivariant(let master) = try HLSPlaylist.parse(text, base: base) else {
            Issue.record("not a multivariant playlist")
            return
        }
        #expect(!master.hasRenditions)
        try #require(master.variants.count == 2)
        let high = master.variants[0]
        #expect(high.url.absoluteString == "https://media.example/show/high/index.m3u8")
        #expect(high.bandwidth == 2_500_000 && high.averageBandwidth == 2_000_000)
        #expect(high.width == 640 && high.height == 360)
        #expect(high.codecs == "avc1.64001e,mp4a.40.2")
        #expect(master.variants[1].url.absoluteString == "https://cdn.example/low.m3u8")
        #expect(master.variants[1].audioGroup == "aud" && master.variants[1].averageBandwidth == nil)
        #expect(high.frameRate == 29.97 && high.videoRange == "PQ")
        #expect(master.variants[1].frameRate == nil && master.variants[1].videoRange == nil, "a rate of 0 is no rate")
    }

    @Test func aVariantListedAgainWithTheSameAttributesIsABackupOfTheFirst() throws {
        let text = """
            #EXTM3U
            #EXT-X-STREAM-INF:BANDWIDTH=250000,RESOLUTION=160x90,CODECS="avc1.64001e"
            https://a.example/low.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=900000,RESOLUTION=320x180,CODECS="avc1.64001e"
            https://a.example/mid.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=250000,RESOLUTION=160x90,CODECS="avc1.64001e"
            https://b.example/low.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=250000,RESOLUTION=160x90,CODECS="avc1.64001e"
            https://c.example/low.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=250000,RESOLUTION=320x180,CODECS="avc1.64001e"
            https://b.example/other.m3u8
            """
        guard case .multivariant(let master) = try HLSPlaylist.parse(text, base: base) else {
            Issue.record("not a multivariant playlist")
            return
        }
        // Three variants to adapt over; the first has two backups (the last differs in size).
        #expect(master.variants.map(\.url.host) == ["a.example", "a.example", "b.example"])
        try #require(master.variants.count >= 3)
        let low = master.variants[0]
        #expect(low.backups.map(\.absoluteString) == ["https://b.example/low.m3u8", "https://c.example/low.m3u8"])
        #expect(master.variants[1].backups.isEmpty && master.variants[2].backups.isEmpty)
        // Failing over to the second backup reads it first, then the others, its own last.
        let moved = low.failingOver(to: 1)
        #expect(moved.url.absoluteString == "https://c.example/low.m3u8")
        #expect(moved.backups.map(\.host) == ["b.example", "a.example"])
    }

    @Test func aSegmentURIWithNoValidSchemeIsAPathOnThePlaylistsServer() throws {
        let text = """
            #EXTM3U
            #EXT-X-TARGETDURATION:1
            #EXTINF:1,
            subfile,,start,0,end,0,,:/etc/passwd
            #EXTINF:1,
            file:///etc/passwd
            #EXT-X-ENDLIST
            """
        guard case .media(let playlist) = try HLSPlaylist.parse(text, base: base) else {
            Issue.record("not a media playlist")
            return
        }
        #expect(playlist.segments.map(\.url.absoluteString) == [
            "https://media.example/show/subfile,,start,0,end,0,,%3A/etc/passwd", "file:///etc/passwd",
        ])
    }

    @Test func renditionsAreNoticed() throws {
        let text = """
            #EXTM3U
            #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="English",URI="en.m3u8"
            #EXT-X-STREAM-INF:BANDWIDTH=1000,AUDIO="aud"
            v.m3u8
            """
        guard case .multivariant(let master) = try HLSPlaylist.parse(text, base: base) else { return }
        #expect(master.hasRenditions)
    }

    @Test func anAudioRenditionsChannelsGiveItsCountAndSpecialUses() throws {
        let text = """
            #EXTM3U
            #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="Stereo",CHANNELS="2",URI="st.m3u8"
            #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="Atmos",CHANNELS="16/JOC",URI="atmos.m3u8"
            #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="Headphones",CHANNELS="2/-/BINAURAL,DOWNMIX",URI="bin.m3u8"
            #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="Room",CHANNELS="12/-/IMMERSIVE",URI="room.m3u8"
            #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="Unstated",URI="x.m3u8"
            #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="Broken",CHANNELS="two",URI="y.m3u8"
            #EXT-X-STREAM-INF:BANDWIDTH=1000,AUDIO="aud"
            v.m3u8
            """
        guard case .multivariant(let master) = try HLSPlaylist.parse(text, base: base) else {
            Issue.record("not a multivariant playlist")
            return
        }
        let layouts = master.audioRenditions.map(\.channelLayout)
        #expect(layouts.map { $0?.channelCount } == [2, 16, 2, 12, nil, nil])
        #expect(layouts.map { $0?.name } == ["Stereo", "Atmos", "Headphones", "Room", nil, nil])
        try #require(layouts.count == 6)
        let headphones = try #require(layouts[2])
        #expect(headphones.isBinaural && headphones.isDownmix && !headphones.isImmersive)
        let room = try #require(layouts[3])
        #expect(room.isImmersive && !room.isBinaural && !room.isDownmix)
        let atmos = try #require(layouts[1])
        #expect(!atmos.isBinaural && !atmos.isImmersive && !atmos.isDownmix, "JOC is a spatial format, not a use")
    }

    @Test func aMediaPlaylistPutsItsSegmentsOnOneTimeline() throws {
        let text = """
            #EXTM3U
            #EXT-X-TARGETDURATION:4
            #EXT-X-MEDIA-SEQUENCE:7
            #EXTINF:4.0,
            a.ts
            #EXTINF:3.5,title
            #EXT-X-BYTERANGE:1000@200
            b.ts
            #EXT-X-BYTERANGE:500
            #EXTINF:2,
            b.ts
            #EXT-X-DISCONTINUITY
            #EXTINF:4,
            c.ts
            #EXT-X-ENDLIST
            """
        guard case .media(let playlist) = try HLSPlaylist.parse(text, base: base) else {
            Issue.record("not a media playlist")
            return
        }
        #expect(playlist.isEnded && !playlist.isEncrypted && playlist.initialisation == nil)
        #expect(playlist.targetDuration == 4)
        #expect(playlist.segments.map(\.sequence) == [7, 8, 9, 10])
        #expect(playlist.segments.map(\.start) == [0, 4, 7.5, 9.5])
        #expect(playlist.duration == 13.5)
        try #require(playlist.segments.count >= 4)
        #expect(playlist.segments[1].byteRange == 200..<1200)
        #expect(playlist.segments[2].byteRange == 1200..<1700, "a range without an offset follows the last")
        #expect(playlist.segments.map(\.discontinuity) == [false, false, false, true])
        #expect(playlist.segments[0].url.absoluteString == "https://media.example/show/a.ts")
        #expect(playlist.segmentIndex(at: 0) == 0)
        #expect(playlist.segmentIndex(at: 7.49) == 1)
        #expect(playlist.segmentIndex(at: 7.5) == 2)
        #expect(playlist.segmentIndex(at: 100) == 3)
    }

    @Test func aGapMarksOnlyTheSegmentAfterIt() throws {
        let text = """
            #EXTM3U
            #EXT-X-TARGETDURATION:2
            #EXTINF:2,
            a.ts
            #EXT-X-GAP
            #EXTINF:2,
            b.ts
            #EXTINF:2,
            c.ts
            #EXT-X-ENDLIST
            """
        guard case .media(let playlist) = try HLSPlaylist.parse(text, base: base) else {
            Issue.record("not a media playlist")
            return
        }
        #expect(playlist.segments.map(\.isGap) == [false, true, false])
        #expect(playlist.segments.map(\.start) == [0, 2, 4], "a gap keeps its place on the timeline")
    }

    @Test func keysAndMapsAreNoticedAndLivePlaylistsHaveNoEnd() throws {
        let text = """
            #EXTM3U
            #EXT-X-TARGETDURATION:2
            #EXT-X-KEY:METHOD=AES-128,URI="key.bin"
            #EXT-X-MAP:URI="init.mp4"
            #EXTINF:2,
            s.m4s
            """
        guard case .media(let playlist) = try HLSPlaylist.parse(text, base: base) else { return }
        #expect(playlist.isEncrypted && !playlist.isEnded && !playlist.hasUnsupportedKey)
        #expect(playlist.initialisation?.absoluteString == "https://media.example/show/init.mp4")
        let key = try #require(playlist.segments.first?.key)
        #expect(key.url.absoluteString == "https://media.example/show/key.bin")
        #expect(key.iv(forSequence: 258) == Data([UInt8](repeating: 0, count: 14) + [1, 2]), "the sequence, big-endian")
    }

    @Test func eachSegmentKnowsItsMapAndDiscontinuitySequence() throws {
        let text = """
            #EXTM3U
            #EXT-X-TARGETDURATION:2
            #EXT-X-DISCONTINUITY-SEQUENCE:7
            #EXT-X-MAP:URI="main.mp4",BYTERANGE="720@0"
            #EXTINF:2,
            a.m4s
            #EXT-X-DISCONTINUITY
            #EXT-X-MAP:URI="other.mp4",BYTERANGE="600"
            #EXTINF:2,
            b.m4s
            #EXTINF:2,
            c.m4s
            #EXT-X-ENDLIST
            """
        guard case .media(let playlist) = try HLSPlaylist.parse(text, base: base) else { return }
        #expect(playlist.segments.map(\.discontinuitySequence) == [7, 8, 8])
        #expect(playlist.segments.map(\.discontinuity) == [false, true, false])
        try #require(playlist.segments.count >= 3)
        #expect(playlist.segments[0].map == HLSMap(url: URL(string: "https://media.example/show/main.mp4")!, byteRange: 0..<720))
        #expect(playlist.segments[1].map == HLSMap(url: URL(string: "https://media.example/show/other.mp4")!, byteRange: 0..<600))
        #expect(playlist.segments[2].map == playlist.segments[1].map, "a map holds until the next")
        #expect(playlist.initialisation?.lastPathComponent == "main.mp4")
    }

    @Test func aKeyBeforeAMapEncryptsTheMapAndNoneAfterClearsIt() throws {
        let text = """
            #EXTM3U
            #EXT-X-TARGETDURATION:2
            #EXT-X-KEY:METHOD=AES-128,URI="k.bin",IV=0x000102030405060708090a0b0c0d0e0f
            #EXT-X-MAP:URI="init.mp4"
            #EXTINF:2,
            a.m4s
            #EXT-X-KEY:METHOD=NONE
            #EXT-X-MAP:URI="clear.mp4"
            #EXTINF:2,
            b.m4s
            #EXT-X-ENDLIST
            """
        guard case .media(let playlist) = try HLSPlaylist.parse(text, base: base) else {
            Issue.record("not a media playlist")
            return
        }
        try #require(playlist.segments.count >= 2)
        let encrypted = try #require(playlist.segments[0].map)
        #expect(encrypted.key?.url.lastPathComponent == "k.bin")
        #expect(encrypted.iv == Data(0..<16), "the key's IV")
        #expect(playlist.segments[1].map?.key == nil && playlist.segments[1].map?.iv == nil, "clear after METHOD=NONE")
    }

    @Test func anExplicitIVAndOtherMethodsAreRead() throws {
        let text = """
            #EXTM3U
            #EXT-X-KEY:METHOD=AES-128,URI="k",IV=0x000102030405060708090A0B0C0D0E0F
            #EXTINF:2,
            a.ts
            #EXT-X-KEY:METHOD=NONE
            #EXTINF:2,
            b.ts
            #EXT-X-KEY:METHOD=SAMPLE-AES,URI="k"
            #EXTINF:2,
            c.ts
            """
        guard case .media(let playlist) = try HLSPlaylist.parse(text, base: base) else { return }
        try #require(playlist.segments.count >= 2)
        #expect(playlist.segments[0].key?.iv(forSequence: 0) == Data(0..<16))
        #expect(playlist.segments[1].key == nil)
        #expect(playlist.hasUnsupportedKey, "SAMPLE-AES is not decrypted by the loader")
    }

    @Test func textThatIsNotAPlaylistIsRefused() {
        #expect(throws: HLSPlaylist.ParseError.notAPlaylist) { try HLSPlaylist.parse("<html>", base: base) }
    }

    @Test func quotedAttributesKeepTheirCommas() {
        let attributes = HLSPlaylist.attributes(#"BANDWIDTH=5,CODECS="a,b",NAME="x""#)
        #expect(attributes == ["BANDWIDTH": "5", "CODECS": "a,b", "NAME": "x"])
    }
}
