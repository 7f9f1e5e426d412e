// Playhead: a DASH manifest's alternative locations (several top-level `BaseURL`s, the same
// segments on several CDNs): the order they are tried in, each read as a copy of the
// presentation, and playback going on from the next location when the first refuses a segment.
import Foundation
import PlayheadTestSupport
import Testing

@testable import OpenAVFoundation

@MainActor
@Suite struct DASHBaseURLsTests {
    private let base = URL(string: "https://origin.example/show/manifest.mpd")!

    private func tree(locations: String, representation: String = "1") throws -> XMLTree {
        let text = """
            <?xml version="1.0"?>
            <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" xmlns:dvb="urn:dvb:dash:dash-extensions:2014-1"
                type="static" mediaPresentationDuration="PT4S">
            \(locations)
            <Period><AdaptationSet mimeType="video/mp4">
            <Representation id="\(representation)" bandwidth="500000">
            <SegmentTemplate timescale="1" duration="2" media="seg$Number$.m4s"/>
            </Representation>
            </AdaptationSet></Period>
            </MPD>
            """
        return try #require(XMLTree.parse(Data(text.utf8)))
    }

    private func read(_ mpd: XMLTree) -> DASHManifest? {
        DASHManifest.periods(mpd, base: base).flatMap { DASHManifest.joining($0) }
    }

    @Test func locationsAreTriedByPriorityThenAsWrittenAndEachIsACopy() throws {
        let mpd = try tree(locations: """
            <BaseURL serviceLocation="a">https://a.example/show/</BaseURL>
            <BaseURL serviceLocation="b" dvb:priority="1">https://b.example/show/</BaseURL>
            <BaseURL serviceLocation="c">https://c.example/show/</BaseURL>
            """)
        #expect(DASHManifest.baseURLElements(of: mpd).map { $0.attributes["serviceLocation"] } == ["b", "a", "c"])
        #expect(DASHManifest.locationCount(of: mpd) == 3)
        let primary = try #require(read(DASHManifest.choosingLocation(0, of: mpd)))
        try #require(primary.variants.first?.playlist.segments.isEmpty == false)
        #expect(primary.variants[0].playlist.segments[0].url.absoluteString == "https://b.example/show/seg1.m4s")
        let copies = DASHManifest.copies(of: primary, in: mpd, read: read)
        try #require(copies.allSatisfy { ($0.variants.first?.playlist.segments.count ?? 0) >= 2 })
        #expect(copies.map { $0.variants[0].playlist.segments[1].url.absoluteString }
            == ["https://a.example/show/seg2.m4s", "https://c.example/show/seg2.m4s"])
        // Without BaseURLs the manifest's own place is the one location.
        let plain = try tree(locations: "")
        #expect(DASHManifest.locationCount(of: plain) == 1)
        #expect(DASHManifest.copies(of: try #require(read(plain)), in: plain, read: read).isEmpty)
    }

    @Test func aLocationThatReadsAsAnotherPresentationIsNoCopy() throws {
        let primary = try #require(read(try tree(locations: "<BaseURL>https://a.example/</BaseURL>")))
        let other = try #require(read(try tree(locations: "<BaseURL>https://b.example/</BaseURL>", representation: "9")))
        #expect(!other.isCopy(of: primary))
        #expect(primary.isCopy(of: primary))
    }

    /// `source` with two locations: `edge/` (tried first, by priority) and `origin`; `edge/`
    /// (beside the manifest served from `folder/<subfolder>`, or at the root for `template`)
    /// serves the initialisation sections and segments 1 and 2 of every stream, and 404s for
    /// the rest.
    private func withTwoLocations(
        _ source: String, edgeOf subfolder: String, in folder: URL, on server: LoopbackHTTPServer, origin: String
    ) throws -> String {
        let locations = """
            <BaseURL dvb:priority="2">\(origin)</BaseURL>
            <BaseURL dvb:priority="1">edge/</BaseURL>
            <Period
            """
        let edge = subfolder == "template" ? "/edge/" : "/\(subfolder)/edge/"
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent(subfolder).path)
        for file in files where file.hasPrefix("init-") || file.hasSuffix("-00001.m4s") || file.hasSuffix("-00002.m4s") {
            let bytes = try Data(contentsOf: folder.appendingPathComponent("\(subfolder)/\(file)"))
            server.setRule(.content(bytes, contentType: "video/mp4"), for: edge + file)
        }
        return source.replacingOccurrences(of: "<Period", with: locations)
            .replacingOccurrences(of: "<MPD ", with: "<MPD xmlns:dvb=\"urn:dvb:dash:dash-extensions:2014-1\" ")
    }

    /// The edge's refusals among `paths` (its segments past the second).
    private func refusals(in paths: [String], under prefix: String) -> [String] {
        paths.filter { $0.hasPrefix(prefix + "edge/chunk-") && !$0.hasSuffix("-00001.m4s") && !$0.hasSuffix("-00002.m4s") }
    }

    // A live manifest grows with the wall clock: this runs in the real-time pass.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["PLAYHEAD_REALTIME_TESTS"] != nil))
    func aLiveManifestGoesOnFromItsNextLocationInRealTime() async throws {
        let folder = try DASHMedia.tiersFolder()
        let server = try LoopbackHTTPServer(root: folder)
        defer { server.stop() }
        let plain = try String(contentsOf: folder.appendingPathComponent("tiers/manifest.mpd"), encoding: .utf8)
        let source = try withTwoLocations(plain, edgeOf: "tiers", in: folder, on: server, origin: "./")
        let live = LiveDASHManifest(
            server: server, source: source, path: "/tiers/live.mpd", addressing: .timeline, startedAgo: 6, depth: 30)
        defer { live.stop() }
        let (item, times) = await playLiveDASHToItsEnd(live, at: "tiers/live.mpd", on: server) { item in
            #expect(item.duration.isIndefinite && item.accessLog() != nil, "a live item through Playhead's loader")
        }

        #expect(times.first == 0 && times.count == 12 * 25, "\(times.count) pictures from \(times.first ?? -1)")
        #expect(zip(times, times.dropFirst()).allSatisfy { $1 - $0 == 40 }, "no gap and no repeat")
        // Each stream asks the edge once for a segment it lacks, then goes on from the origin.
        let paths = server.requests.map(\.path)
        let refused = refusals(in: paths, under: "/tiers/")
        let streams = refused.map { $0.split(separator: "-")[1] }
        #expect(!refused.isEmpty && Set(streams).count == streams.count, "\(refused)")
        #expect(paths.contains { $0.hasPrefix("/tiers/chunk-") && $0.hasSuffix("-00006.m4s") }, "went on from the origin: \(paths)")
        let errors = item.errorLog()?.events ?? []
        #expect(errors.count == refused.count && errors.allSatisfy { $0.errorStatusCode == 404 },
                "\(errors.map { ($0.errorStatusCode, $0.uri ?? "") })")
    }

    @Test func segmentsRefusedByTheFirstLocationAreFetchedFromTheNextAndEveryPicturePlaysOnce() async throws {
        let folder = try DASHMedia.folder()
        let server = try LoopbackHTTPServer(root: folder)
        defer { server.stop() }
        // The template presentation on two locations: `edge/` (tried first, by priority) has
        // the initialisation sections and the first two segments of each stream, then 404s;
        // `template/` has everything.
        let plain = try String(contentsOf: folder.appendingPathComponent("template/manifest.mpd"), encoding: .utf8)
        let text = try withTwoLocations(plain, edgeOf: "template", in: folder, on: server, origin: "template/")
        server.setRule(.content(Data(text.utf8), contentType: "application/dash+xml"), for: "/cdn.mpd")
        let sink = RecordingVideoSink()
        let item = AVPlayerItem(url: server.url(for: "cdn.mpd"))
        let player = AVPlayer(environment: untimedEnvironment(sink, audio: true), playerItem: item)
        let log = NotificationLog([AVPlayerItem.didPlayToEndTimeNotification], object: item)
        player.play()
        await waitUntil(timeout: 30, "the end") {
            log.count(AVPlayerItem.didPlayToEndTimeNotification) == 1 || item.status == .failed
        }
        player.replaceCurrentItem(with: nil)

        #expect(item.status == .readyToPlay, "\(String(describing: item.error))")
        #expect(item.accessLog() != nil, "Playhead's loader streamed it")
        let times = sink.distinctMillis()
        #expect(times.count == Int(DASHMedia.duration) * 25, "\(times.count) pictures")
        #expect(zip(times, times.dropFirst()).allSatisfy { $1 - $0 == 40 }, "no gap, no repeat")
        // Each stream asks the edge once for a segment it lacks, then goes on from the origin.
        let paths = server.requests.map(\.path)
        let refused = refusals(in: paths, under: "/")
        let streams = refused.map { $0.split(separator: "-")[1] }
        #expect(!refused.isEmpty && Set(streams).count == streams.count, "\(refused) \(paths)")
        #expect(paths.contains("/template/chunk-stream2-00006.m4s"), "the sound went on from the origin: \(paths)")
        let errors = item.errorLog()?.events ?? []
        #expect(errors.count == refused.count && errors.allSatisfy { $0.errorStatusCode == 404 },
                "\(errors.map { ($0.errorStatusCode, $0.uri ?? "") })")
    }
}
