// Playhead: HLS date ranges (`EXT-X-DATERANGE`) read by Playhead's loader and handed to an
// `AVPlayerItemMetadataCollector` as `AVDateRangeMetadataGroup`s: typed attributes, the
// collector's filters by identifier and by CLASS, and which groups are new or modified.
import Foundation
import PlayheadTestSupport
import Testing

@testable import OpenAVFoundation

/// Records what a collector hands its delegate.
final class DateRangeRecorder: NSObject, AVPlayerItemMetadataCollectorPushDelegate, @unchecked Sendable {
    struct Call {
        let groups: [AVDateRangeMetadataGroup]
        let new: IndexSet
        let modified: IndexSet
        let onMainThread: Bool
    }
    private let recorded = Locked<[Call]>([])
    var calls: [Call] { recorded.withLock { $0 } }

    func metadataCollector(
        _ metadataCollector: AVPlayerItemMetadataCollector, didCollect metadataGroups: [AVDateRangeMetadataGroup],
        indexesOfNewGroups: IndexSet, indexesOfModifiedGroups: IndexSet
    ) {
        let call = Call(
            groups: metadataGroups, new: indexesOfNewGroups, modified: indexesOfModifiedGroups,
            onMainThread: MainQueue.isCurrent)
        recorded.withLock { $0.append(call) }
    }
}

@Suite struct HLSDateRangeTests {
    static let ad =
        #"ID="ad-1",CLASS="com.example.ad",START-DATE="2026-12-02T10:00:02.000Z",DURATION=4.5,"#
        + #"X-COM-EXAMPLE-AD-ID="abc",SCTE35-OUT=0xFC30A1,PLANNED-DURATION=5"#
    static let show = #"ID="show",START-DATE="2026-12-02T10:00:00Z",END-DATE="2026-12-02T10:00:12Z",X-TITLE="News""#

    @Test func aTagsAttributesAreTypedAsTheRFCWritesThem() throws {
        let range = try #require(HLSDateRange(tag: Substring(Self.ad)))
        #expect(range.id == "ad-1" && range.classLabel == "com.example.ad")
        #expect(range.startDate == AdaptiveMedia.firstDate.addingTimeInterval(2))
        #expect(range.endDate == AdaptiveMedia.firstDate.addingTimeInterval(6.5), "START-DATE plus DURATION")
        #expect(range.attributes.map(\.name) == ["ID", "CLASS", "DURATION", "X-COM-EXAMPLE-AD-ID", "SCTE35-OUT", "PLANNED-DURATION"])
        #expect(range.attributes[3].value == .string("abc"))
        #expect(range.attributes[4].value == .data(Data([0xFC, 0x30, 0xA1])))
        #expect(range.attributes[5].value == .number(5))
        #expect(HLSDateRange(tag: #"ID="x""#) == nil, "no START-DATE")
        let text = "#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXT-X-DATERANGE:\(Self.show)\n#EXTINF:1,\na.ts\n#EXT-X-ENDLIST\n"
        guard case .media(let playlist) = try HLSPlaylist.parse(text, base: URL(string: "https://a.example/p.m3u8")!) else {
            Issue.record("not a media playlist")
            return
        }
        #expect(playlist.dateRanges.map(\.id) == ["show"])
    }

    /// Serves the ladder in `folder` with every variant's playlist dated from 2026-12-02 10:00 UTC
    /// and carrying the `EXT-X-DATERANGE` attribute lists `ranges`.
    private func serveDated(_ folder: URL, on server: LoopbackHTTPServer, ranges: [String]) throws {
        for variant in AdaptiveMedia.variants {
            let text = try String(
                contentsOfFile: folder.appendingPathComponent("ladder/\(variant.name)/index.m3u8").path, encoding: .utf8)
            let tags = "#EXT-X-PROGRAM-DATE-TIME:2026-12-02T10:00:00Z\n" + ranges.map { "#EXT-X-DATERANGE:\($0)\n" }.joined()
            let dated = text.replacingOccurrences(of: "#EXTINF", with: tags + "#EXTINF", options: [], range: text.range(of: "#EXTINF"))
            server.setRule(.content(Data(dated.utf8), contentType: "application/vnd.apple.mpegurl"), for: "/ladder/\(variant.name)/index.m3u8")
        }
    }

    /// A ladder Playhead's loader does not stream (its multivariant playlist lists a video
    /// rendition), so libavformat reads it: the ranges of the media playlist read at open still
    /// reach a collector.
    @MainActor
    @Test func aStreamLibavformatReadsReportsTheRangesItsPlaylistHadAtOpen() async throws {
        let folder = try AdaptiveMedia.folder()
        let server = try LoopbackHTTPServer(root: folder)
        defer { server.stop() }
        try serveDated(folder, on: server, ranges: [Self.show])
        let master = try String(contentsOfFile: folder.appendingPathComponent("ladder/master.m3u8").path, encoding: .utf8)
        let withVideoRendition = master.replacingOccurrences(
            of: "#EXTM3U\n", with: "#EXTM3U\n#EXT-X-MEDIA:TYPE=VIDEO,GROUP-ID=\"v\",NAME=\"Angle\",URI=\"low/index.m3u8\"\n")
        try #require(withVideoRendition != master)
        server.setRule(
            .content(Data(withVideoRendition.utf8), contentType: "application/vnd.apple.mpegurl"), for: "/ladder/master.m3u8")
        let item = AVPlayerItem(url: server.url(for: "ladder/master.m3u8"))
        // The plain initialiser collects every item of every range.
        let collector = AVPlayerItemMetadataCollector()
        let recorder = DateRangeRecorder()
        collector.setDelegate(recorder, queue: nil)
        item.add(collector)
        let player = AVPlayer(environment: untimedEnvironment(RecordingVideoSink()), playerItem: item)
        await waitUntil(timeout: 30, "ready") { item.status == .readyToPlay || item.status == .failed }
        await waitUntil(timeout: 10, "collected") { !recorder.calls.isEmpty }
        #expect(item.accessLog() == nil, "read by libavformat, not Playhead's loader")
        let first = try #require(recorder.calls.first)
        #expect(first.groups.map(\.startDate) == [AdaptiveMedia.firstDate])
        #expect(first.groups.map(\.uniqueID) == ["show"] && first.groups.map(\.classifyingLabel) == [nil], "the range's ID, and no CLASS")
        #expect(first.groups.map(\.endDate) == [AdaptiveMedia.firstDate.addingTimeInterval(12)])
        player.replaceCurrentItem(with: nil)
    }

    @MainActor
    @Test func aCollectorHearsTheRangesOfAVODItemFilteredByClassAndIdentifier() async throws {
        let folder = try AdaptiveMedia.folder()
        let server = try LoopbackHTTPServer(root: folder)
        defer { server.stop() }
        try serveDated(folder, on: server, ranges: [Self.show, Self.ad])
        let item = AVPlayerItem(url: server.url(for: "ladder/master.m3u8"))
        let every = AVPlayerItemMetadataCollector(identifiers: nil, classifyingLabels: nil)
        let all = DateRangeRecorder()
        every.setDelegate(all, queue: nil)
        item.add(every)
        let ads = AVPlayerItemMetadataCollector(identifiers: ["lsdr/X-COM-EXAMPLE-AD-ID"], classifyingLabels: ["com.example.ad"])
        let adRecorder = DateRangeRecorder()
        ads.setDelegate(adRecorder, queue: nil)
        item.add(ads)
        #expect(item.mediaDataCollectors.count == 2)
        let player = AVPlayer(environment: untimedEnvironment(RecordingVideoSink()), playerItem: item)
        await waitUntil(timeout: 30, "ready") { item.status == .readyToPlay }
        await waitUntil(timeout: 10, "collected") { !all.calls.isEmpty && !adRecorder.calls.isEmpty }

        let first = try #require(all.calls.first)
        #expect(all.calls.count == 1, "a VOD playlist is collected once")
        #expect(first.onMainThread)
        #expect(first.groups.map(\.startDate) == [AdaptiveMedia.firstDate, AdaptiveMedia.firstDate.addingTimeInterval(2)])
        #expect(first.groups.map(\.endDate) == [AdaptiveMedia.firstDate.addingTimeInterval(12), AdaptiveMedia.firstDate.addingTimeInterval(6.5)])
        #expect(first.new == IndexSet([0, 1]) && first.modified.isEmpty)
        try #require(first.groups.count == 2)
        #expect(first.groups.map(\.uniqueID) == ["show", "ad-1"])
        #expect(first.groups.map(\.classifyingLabel) == [nil, "com.example.ad"], "each range's CLASS")
        let title = first.groups[0].items.first { $0.identifier?.rawValue == "lsdr/X-TITLE" }
        #expect(title?.stringValue == "News" && title?.keySpace == .hlsDateRange)
        let scte = first.groups[1].items.first { ($0.key as? NSString) == "SCTE35-OUT" }
        #expect((scte?.value as? NSData).map { Data(referencing: $0) } == Data([0xFC, 0x30, 0xA1]))
        let onlyAds = try #require(adRecorder.calls.first)
        #expect(onlyAds.groups.count == 1 && onlyAds.groups[0].items.map(\.identifier?.rawValue) == ["lsdr/X-COM-EXAMPLE-AD-ID"])

        // A collector added later hears what was collected at once.
        let late = AVPlayerItemMetadataCollector(identifiers: nil, classifyingLabels: nil)
        let lateRecorder = DateRangeRecorder()
        late.setDelegate(lateRecorder, queue: nil)
        item.add(late)
        await waitUntil(timeout: 10, "late") { !lateRecorder.calls.isEmpty }
        #expect(lateRecorder.calls.first?.groups.count == 2)
        player.replaceCurrentItem(with: nil)
    }

    @MainActor
    @Test func aLivePlaylistsReloadsBringNewAndModifiedRanges() async throws {
        let server = try LoopbackHTTPServer(root: try AdaptiveMedia.folder())
        defer { server.stop() }
        // Range "a" from the start; "b" once segment 6 is published; "a" gets its end with 7.
        let live = LiveLadder(server: server, window: 4, published: 6) { published in
            ["#EXT-X-PROGRAM-DATE-TIME:2026-12-02T10:00:00Z",
             #"#EXT-X-DATERANGE:ID="a",START-DATE="2026-12-02T10:00:00Z""# + (published >= 8 ? ",DURATION=10" : "")]
                + (published >= 7 ? [#"#EXT-X-DATERANGE:ID="b",START-DATE="2026-12-02T10:00:06Z",X-N=7"#] : [])
        }
        defer { live.stop() }
        let item = AVPlayerItem(url: server.url(for: "live/master.m3u8"))
        let collector = AVPlayerItemMetadataCollector(identifiers: nil, classifyingLabels: nil)
        let recorder = DateRangeRecorder()
        collector.setDelegate(recorder, queue: nil)
        item.add(collector)
        let player = AVPlayer(environment: untimedEnvironment(RecordingVideoSink()), playerItem: item)
        player.play()
        await waitUntil(timeout: 30, "the first playlist's range") { recorder.calls.count == 1 }
        live.publish(through: 7)
        await waitUntil(timeout: 30, "a new range") { recorder.calls.count == 2 }
        live.publish(through: 8)
        await waitUntil(timeout: 30, "a modified range") { recorder.calls.count == 3 }

        let calls = recorder.calls
        #expect(calls.map(\.groups.count) == [1, 2, 2])
        try #require(calls.count == 3 && calls[2].groups.count == 2)
        #expect(calls[1].new == IndexSet([1]) && calls[1].modified.isEmpty)
        #expect(calls[2].new.isEmpty && calls[2].modified == IndexSet([0]))
        #expect(calls[2].groups[0].endDate == AdaptiveMedia.firstDate.addingTimeInterval(10))
        #expect(calls.allSatisfy { $0.onMainThread })
        player.replaceCurrentItem(with: nil)
    }

    @MainActor
    @Test func aRangeUpdatedByALaterTagIsReportedAsModified() throws {
        let collector = AVPlayerItemMetadataCollector(identifiers: nil, classifyingLabels: nil)
        let recorder = DateRangeRecorder()
        collector.setDelegate(recorder, queue: nil)
        let open = try #require(HLSDateRange(tag: #"ID="live",START-DATE="2026-12-02T10:00:00Z""#))
        let closed = try #require(HLSDateRange(tag: #"ID="live",START-DATE="2026-12-02T10:00:00Z",DURATION=30"#))
        let next = try #require(HLSDateRange(tag: #"ID="next",START-DATE="2026-12-02T10:00:30Z",X-A="b""#))
        collector.collect([open])
        collector.collect([open])
        collector.collect([closed, next])
        let calls = recorder.calls
        #expect(calls.count == 2, "an unchanged reload says nothing")
        #expect(calls.first?.groups.first?.endDate == nil)
        #expect(calls.last?.new == IndexSet([1]) && calls.last?.modified == IndexSet([0]))
        #expect(calls.last?.groups.first?.endDate == AdaptiveMedia.firstDate.addingTimeInterval(30))
    }

    @MainActor
    @Test func anEndOnNextRangeEndsWhereTheNextOfItsClassStarts() throws {
        let collector = AVPlayerItemMetadataCollector(identifiers: nil, classifyingLabels: nil)
        let recorder = DateRangeRecorder()
        collector.setDelegate(recorder, queue: nil)
        let first = try #require(HLSDateRange(tag: #"ID="a",CLASS="c",START-DATE="2026-12-02T10:00:00Z",END-ON-NEXT=YES"#))
        let other = try #require(HLSDateRange(tag: #"ID="o",CLASS="d",START-DATE="2026-12-02T10:00:05Z""#))
        let second = try #require(HLSDateRange(tag: #"ID="b",CLASS="c",START-DATE="2026-12-02T10:00:10Z",END-ON-NEXT=YES"#))
        collector.collect([first, other])
        collector.collect([first, other, second])
        let calls = recorder.calls
        #expect(calls.first?.groups.first?.endDate == nil, "open until the next of its class")
        #expect(calls.last?.groups.map(\.endDate) == [AdaptiveMedia.firstDate.addingTimeInterval(10), nil, nil])
        #expect(calls.last?.modified == IndexSet([0]) && calls.last?.new == IndexSet([2]))
    }
}
