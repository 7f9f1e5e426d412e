// Playhead: HLS content steering: the pathways of a multivariant playlist and the steering
// manifest as values, then a ladder listed on two pathways (two folders of one loopback server)
// played with a steering server that ranks them: the pathway it ranks first is played from the
// first segment, and a pathway whose segments fail gives way to the other, every picture once.
import Foundation
import PlayheadTestSupport
import Testing

@testable import FFmpegBridge
@testable import OpenAVFoundation

@Suite struct HLSPathwayTests {
    let base = URL(string: "https://example.com/show/master.m3u8")!

    private func master(_ text: String) throws -> HLSMultivariantPlaylist {
        guard case .multivariant(let master) = try HLSPlaylist.parse(text, base: base) else {
            throw HLSPlaylist.ParseError.notAPlaylist
        }
        return master
    }

    /// Two pathways, each with two variants and an English and a French rendition group.
    private var twoPathways: String {
        """
        #EXTM3U
        #EXT-X-CONTENT-STEERING:SERVER-URI="/steering?video=42",PATHWAY-ID="CDN-A"
        #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud-A",NAME="English",LANGUAGE="en",DEFAULT=YES,URI="https://a.example/en.m3u8"
        #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud-A",NAME="French",LANGUAGE="fr",URI="https://a.example/fr.m3u8"
        #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud-B",NAME="English",LANGUAGE="en",DEFAULT=YES,URI="https://b.example/en.m3u8"
        #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud-B",NAME="French",LANGUAGE="fr",URI="https://b.example/fr.m3u8"
        #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="sub-A",NAME="English",LANGUAGE="en",URI="https://a.example/en.vtt.m3u8"
        #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="sub-B",NAME="English",LANGUAGE="en",URI="https://b.example/en.vtt.m3u8"
        #EXT-X-STREAM-INF:BANDWIDTH=800000,RESOLUTION=640x360,AUDIO="aud-A",SUBTITLES="sub-A",PATHWAY-ID="CDN-A"
        https://a.example/360.m3u8
        #EXT-X-STREAM-INF:BANDWIDTH=3000000,RESOLUTION=1280x720,AUDIO="aud-A",SUBTITLES="sub-A",PATHWAY-ID="CDN-A"
        https://a.example/720.m3u8
        #EXT-X-STREAM-INF:BANDWIDTH=800000,RESOLUTION=640x360,AUDIO="aud-B",SUBTITLES="sub-B",PATHWAY-ID="CDN-B"
        https://b.example/360.m3u8
        #EXT-X-STREAM-INF:BANDWIDTH=3000000,RESOLUTION=1280x720,AUDIO="aud-B",SUBTITLES="sub-B",PATHWAY-ID="CDN-B"
        https://b.example/720.m3u8
        """
    }

    @Test func theTagAndEachVariantsPathwayAreRead() throws {
        let master = try master(twoPathways)
        #expect(master.steering == HLSSteeringTag(serverURL: URL(string: "https://example.com/steering?video=42")!, pathway: "CDN-A"))
        #expect(master.variants.map(\.pathway) == ["CDN-A", "CDN-A", "CDN-B", "CDN-B"])
        #expect(master.pathways == ["CDN-A", "CDN-B"])
        // Copies on two pathways are not one variant's redundant backups.
        #expect(master.variants.allSatisfy { $0.backups.isEmpty })
        let plain = try self.master("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\nlow.m3u8\n")
        #expect(plain.steering == nil && plain.pathways == ["."])
    }

    @Test func thePathwayToStartOnIsTheRankedOneThenTheTagsThenTheFirst() throws {
        let master = try master(twoPathways)
        #expect(master.startPathway(priority: ["CDN-B", "CDN-A"]) == "CDN-B")
        #expect(master.startPathway(priority: ["CDN-Z", "CDN-B"]) == "CDN-B", "a pathway it lacks is passed over")
        #expect(master.startPathway() == "CDN-A")
        let untagged = try self.master(twoPathways.replacingOccurrences(of: ",PATHWAY-ID=\"CDN-A\"\n#EXT-X-MEDIA", with: "\n#EXT-X-MEDIA"))
        #expect(untagged.steering?.pathway == nil)
        #expect(untagged.startPathway() == "CDN-A", "the first listed")
    }

    @Test func onAPathwayItsVariantsAndRenditionsPlayWithTheirCopiesAsBackups() throws {
        let steered = try master(twoPathways).onPathway("CDN-B", priority: ["CDN-B", "CDN-A"])
        #expect(steered.variants.map(\.url.host) == ["b.example", "b.example"])
        #expect(steered.variants.map(\.backups) == [
            [URL(string: "https://a.example/360.m3u8")!], [URL(string: "https://a.example/720.m3u8")!],
        ])
        #expect(steered.variants.allSatisfy { $0.backupPathways == ["CDN-A"] })
        // One audio group (B's), each rendition with A's copy of it (matched by name and language).
        #expect(steered.audioRenditions.map(\.group) == ["aud-B", "aud-B"])
        #expect(steered.audioRenditions.map(\.backups) == [
            [URL(string: "https://a.example/en.m3u8")!], [URL(string: "https://a.example/fr.m3u8")!],
        ])
        #expect(steered.streamedAudio?.renditions.count == 2, "the loader streams the one group")
        // The subtitle renditions of the other pathway are not offered again.
        let text = steered.keepingSubtitleGroupsItsVariantsName(twoPathways)
        #expect(!text.contains("GROUP-ID=\"sub-A\""))
        #expect(text.contains("GROUP-ID=\"sub-B\""))
        #expect(text.components(separatedBy: "TYPE=SUBTITLES").count == 2)
    }

    @Test func failingOverMovesToTheBackupsPathway() throws {
        let variants = try master(twoPathways).onPathway("CDN-A").variants
        try #require(!variants.isEmpty)
        let variant = variants[0]
        let moved = variant.failingOver(to: 0)
        #expect(moved.url.host == "b.example" && moved.pathway == "CDN-B")
        #expect(moved.backups.map(\.host) == ["a.example"] && moved.backupPathways == ["CDN-A"])
        #expect((0...1).map(moved.pathway(ofSource:)) == ["CDN-B", "CDN-A"])
    }

    @Test func aSteeringManifestIsVersionOneWithARanking() {
        let from = URL(string: "https://steer.example/v1/manifest?session=9")!
        let json = #"{"VERSION":1,"TTL":10,"RELOAD-URI":"next?session=9","PATHWAY-PRIORITY":["CDN-B","CDN-A"]}"#
        let manifest = HLSSteeringManifest(json: Data(json.utf8), base: from)
        #expect(manifest?.priority == ["CDN-B", "CDN-A"])
        #expect(manifest?.timeToLive == 10)
        #expect(manifest?.reloadURL == URL(string: "https://steer.example/v1/next?session=9"))
        let plain = HLSSteeringManifest(json: Data(#"{"VERSION":1,"PATHWAY-PRIORITY":["A"]}"#.utf8), base: from)
        #expect(plain?.timeToLive == 300 && plain?.reloadURL == nil, "300 s when the TTL is not given")
        #expect(HLSSteeringManifest(json: Data(#"{"VERSION":2,"PATHWAY-PRIORITY":["A"]}"#.utf8), base: from) == nil)
        #expect(HLSSteeringManifest(json: Data(#"{"VERSION":1,"PATHWAY-PRIORITY":[]}"#.utf8), base: from) == nil)
        #expect(HLSSteeringManifest(json: Data("not json".utf8), base: from) == nil)
    }

    @Test func aClonedPathwayReadsEachVariantFromItsGivenURIOrItsOwnOnAnotherHost() throws {
        let base = URL(string: "https://steer.example/v1/manifest")!
        let json = """
            {"VERSION":1,"PATHWAY-PRIORITY":["CDN-C","CDN-A"],"PATHWAY-CLONES":[
             {"BASE-ID":"CDN-A","ID":"CDN-C","URI-REPLACEMENT":{"HOST":"c.example","PARAMS":{"token":"t1"},
              "PER-VARIANT-URIS":{"v720":"/c/720.m3u8"},"PER-RENDITION-URIS":{"r-fr":"https://c2.example/fr.m3u8"}}},
             {"ID":"broken"}]}
            """
        let manifest = try #require(HLSSteeringManifest(json: Data(json.utf8), base: base))
        let clone = try #require(manifest.clones.first)
        #expect(manifest.clones.count == 1, "an entry without a BASE-ID is passed over")
        #expect(clone.baseID == "CDN-A" && clone.id == "CDN-C")
        let a360 = URL(string: "https://a.example/360.m3u8?session=9&token=old")!
        #expect(clone.url(cloning: a360, stableID: "v360", isRendition: false).absoluteString
            == "https://c.example/360.m3u8?session=9&token=t1")
        #expect(clone.url(cloning: a360, stableID: "v720", isRendition: false).absoluteString == "https://steer.example/c/720.m3u8")
        // A signed token's encoding is kept as it was; the clone's own values are encoded.
        let signed = URL(string: "https://a.example/360.m3u8?sig=ab%2Bc%2F%3D&token=old&e=1")!
        #expect(clone.url(cloning: signed, stableID: nil, isRendition: false).absoluteString
            == "https://c.example/360.m3u8?sig=ab%2Bc%2F%3D&e=1&token=t1")
        let spacedJSON = #"{"VERSION":1,"PATHWAY-PRIORITY":["B"],"PATHWAY-CLONES":[{"BASE-ID":"A","ID":"B","URI-REPLACEMENT":{"PARAMS":{"k":"a b&c=d+e"}}}]}"#
        let spaced = try #require(HLSSteeringManifest(json: Data(spacedJSON.utf8), base: base)?.clones.first)
        #expect(spaced.url(cloning: a360, stableID: nil, isRendition: false).absoluteString
            == "https://a.example/360.m3u8?session=9&token=old&k=a%20b%26c%3Dd%2Be")
        #expect(clone.url(cloning: a360, stableID: "r-fr", isRendition: true).absoluteString == "https://c2.example/fr.m3u8")
        #expect(HLSSteeringManifest(json: Data(json.utf8), base: base, dialect: .dash) == nil, "no SERVICE-LOCATION-PRIORITY")
        // Stable IDs are read from the playlist.
        let master = try master("""
            #EXTM3U
            #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="French",LANGUAGE="fr",URI="fr.m3u8",STABLE-RENDITION-ID="r-fr"
            #EXT-X-STREAM-INF:BANDWIDTH=800000,AUDIO="aud",STABLE-VARIANT-ID="v360"
            360.m3u8
            """)
        try #require(!master.variants.isEmpty && !master.audioRenditions.isEmpty)
        #expect(master.variants[0].stableID == "v360" && master.audioRenditions[0].stableID == "r-fr")
    }

    @Test func aManifestInADataURIIsReadWithoutARequest() throws {
        let json = #"{"VERSION":1,"PATHWAY-PRIORITY":["CDN-B"]}"#
        let encoded = try #require(URL(string: "data:application/json;base64," + Data(json.utf8).base64EncodedString()))
        #expect(HLSSteeringManifest.inlineData(encoded) == Data(json.utf8))
        let escaped = try #require(URL(string: "data:application/json," + (json.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")))
        #expect(HLSSteeringManifest.inlineData(escaped) == Data(json.utf8))
        #expect(HLSSteeringManifest.inlineData(URL(string: "https://example.com/a")!) == nil)
        let fetcher = HTTPFetcher(headers: [:], userAgent: "test")
        defer { fetcher.close() }
        let read = HLSSteeringManifest.fetch(encoded, pathway: "CDN-A", throughput: 1e6, fetcher: fetcher, secure: false, limit: 1 << 20, timeout: 1)
        #expect((try? read.get())?.priority == ["CDN-B"])
    }
}

@MainActor
@Suite struct HLSContentSteeringPlaybackTests {
    /// The steering server changes its ranking while the stream plays (on a manual clock, in
    /// the serial pass: `OverLoopback`): the next manifest read moves every variant to the
    /// newly first pathway, and the segments after it come from there, naming it in the
    /// requests that follow.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["PLAYHEAD_REALTIME_TESTS"] != nil))
    func aNewRankingWhilePlayingMovesTheStreamToItsFirstPathwayOverLoopback() async throws {
        let (server, root) = try Self.serve(priority: ["CDN-A", "CDN-B"], ttl: 0.5)
        defer { server.stop(); try? FileManager.default.removeItem(at: root) }
        let rig = try await LoopbackPlaybackRig(server, path: "master.m3u8")
        await rig.play(for: 2)
        #expect(segments(server).allSatisfy { $0.hasPrefix("/a/") }, "\(segments(server))")
        let changed = await Self.rerank(["CDN-B", "CDN-A"], on: server)
        await rig.play(for: 6)
        let after = server.requests.dropFirst(changed).map(\.path).filter { $0.hasSuffix(".ts") }
        // (A segment asked for before the ranking was applied may still come from CDN-A.)
        #expect(after.count >= 3 && after.dropFirst().allSatisfy { $0.hasPrefix("/b/") }, "\(after)")
        await waitUntil(timeout: 20, "a request naming CDN-B") {
            server.requests.contains { $0.path == "/steer.json" && $0.query?.contains("_HLS_pathway=CDN-B") == true }
        }
        #expect(rig.player.timeControlStatus == .playing, "\(rig.state())")
        #expect(rig.item.stallCount == 0)
        rig.player.replaceCurrentItem(with: nil)
        // Released: the steering server is not asked again.
        await mainQueueSleep(nanoseconds: 300_000_000)
        let released = server.requests.filter { $0.path == "/steer.json" }.count
        await mainQueueSleep(nanoseconds: 1_500_000_000)
        #expect(server.requests.filter { $0.path == "/steer.json" }.count == released)
    }

    /// The audio renditions follow the variants to the new pathway: with an English and a
    /// French rendition group on each pathway, a new ranking moves the video's segments and
    /// English's to CDN-B, and the sound goes on without a silence.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["PLAYHEAD_REALTIME_TESTS"] != nil))
    func theAudioRenditionsFollowTheVariantsToTheNewPathwayOverLoopback() async throws {
        let (root, master) = try Self.twoPathways(of: SelectionMedia.hlsLongAudioRenditions.url()) { name, id in
            "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"aud-\(name)\",NAME=\"English\",DEFAULT=YES,LANGUAGE=\"en\",URI=\"\(name)/out_1.m3u8\"\n"
                + "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"aud-\(name)\",NAME=\"French\",LANGUAGE=\"fr\",URI=\"\(name)/out_2.m3u8\"\n"
                + "#EXT-X-STREAM-INF:BANDWIDTH=75900,RESOLUTION=160x120,CODECS=\"avc1.42c00a,mp4a.40.2\",AUDIO=\"aud-\(name)\",PATHWAY-ID=\"\(id)\"\n"
                + "\(name)/out_0.m3u8\n"
        }
        defer { try? FileManager.default.removeItem(at: root) }
        let server = try LoopbackHTTPServer(root: root)
        defer { server.stop() }
        server.setRule(.content(Data(master.utf8), contentType: "application/vnd.apple.mpegurl"), for: "/master.m3u8")
        Self.setPriority(["CDN-A", "CDN-B"], ttl: 0.5, on: server)
        let rig = try await LoopbackPlaybackRig(server, path: "master.m3u8")
        let group = try #require(try await rig.item.asset.loadMediaSelectionGroup(for: .audible))
        #expect(group.options.count == 2, "one English, one French: \(group.options.map(\.displayName))")
        await rig.play(for: 3)
        #expect(segments(server).allSatisfy { $0.hasPrefix("/a/") }, "\(segments(server))")
        let changed = await Self.rerank(["CDN-B", "CDN-A"], on: server)
        await rig.play(for: 8)
        let after = server.requests.dropFirst(changed).map(\.path).filter { $0.hasSuffix(".ts") }
        // (One segment per loader asked for before the ranking was applied may still come from CDN-A.)
        #expect(after.filter { $0.hasPrefix("/a/") }.count <= 2, "\(after)")
        #expect(after.contains { $0.hasPrefix("/b/out_0") } && after.contains { $0.hasPrefix("/b/out_1") }, "\(after)")
        #expect(!after.contains { $0.hasPrefix("/b/out_2") } && !after.contains { $0.hasPrefix("/a/out_2") }, "French stays unloaded")
        #expect(rig.output.silentRanges(minimumFrames: 48).isEmpty, "sound all through")
        #expect(rig.player.timeControlStatus == .playing, "\(rig.state())")
        rig.player.replaceCurrentItem(with: nil)
    }

    /// The client on its own: a server that fails leaves an error log event each time and is
    /// asked again after twice the last wait (within bounds); the ranking it sends once it answers is handed on, with the
    /// playing pathway and the throughput in the request; `RELOAD-URI` is where it asks next.
    @Test func theClientLogsFailuresAsksAgainAndFollowsTheReloadURI() async throws {
        let server = try LoopbackHTTPServer(root: FileManager.default.temporaryDirectory)
        defer { server.stop() }
        server.setRule(.notFound, for: "/steer.json")
        let log = StreamingLog()
        let ranked = Locked<[[String]]>([])
        let fetcher = HTTPFetcher(headers: [:], userAgent: "test")
        let client = HLSContentSteering(
            url: server.url(for: "steer.json"), wait: 0.05,
            settings: .init(fetcher: fetcher, secure: false, limit: 1 << 16, timeout: 60, retry: 0.05...0.1), log: log,
            pathway: { "CDN-A" }, throughput: { 2_500_000 }, apply: { manifest in ranked.withLock { $0.append(manifest.priority) } })
        client.start()
        defer { client.close() }
        await waitUntil(timeout: 20, "two failures") { log.errorRecords.count >= 2 }
        #expect(log.errorRecords.allSatisfy { $0.status == 404 })
        #expect(ranked.withLock { $0 }.isEmpty)
        #expect(HLSContentSteering.waitAfterFailure(0, within: 10...300) == 10)
        #expect(HLSContentSteering.waitAfterFailure(40, within: 10...300) == 80)
        #expect(HLSContentSteering.waitAfterFailure(200, within: 10...300) == 300)
        let json = #"{"VERSION":1,"TTL":0.05,"RELOAD-URI":"/next.json","PATHWAY-PRIORITY":["CDN-B","CDN-A"]}"#
        server.setRule(.content(Data(json.utf8), contentType: "application/json"), for: "/steer.json")
        server.setRule(.content(Data(json.utf8), contentType: "application/json"), for: "/next.json")
        await waitUntil(timeout: 20, "the reload URI asked") { server.requests.contains { $0.path == "/next.json" } }
        #expect(ranked.withLock { $0 }.first == ["CDN-B", "CDN-A"])
        let asked = try #require(server.requests.first { $0.path == "/next.json" })
        #expect(asked.query?.contains("_HLS_pathway=CDN-A") == true && asked.query?.contains("_HLS_throughput=2500000") == true,
            "\(String(describing: asked.query))")
        client.close()
        // A request sent just before the close is logged once the server reads it: wait until
        // no request has come for a second (a client still asking every 50 ms never lets that be).
        var (count, since) = (server.requests.count, Date())
        await waitUntil("no request for a second") {
            if server.requests.count != count { (count, since) = (server.requests.count, Date()) }
            return Date().timeIntervalSince(since) >= 1
        }
        let closed = server.requests.count
        await mainQueueSleep(nanoseconds: 500_000_000)
        #expect(server.requests.count == closed, "nothing asked once closed")
    }

    /// A server whose root holds the ladder twice (`a/` and `b/`), listed on pathways CDN-A and
    /// CDN-B by `/master.m3u8`, whose steering manifest (`/steer.json`) ranks `priority`.
    static func serve(priority: [String], pathway: String = "CDN-A", ttl: Double = 300) throws -> (LoopbackHTTPServer, URL) {
        let ladder = try AdaptiveMedia.folder().appendingPathComponent("ladder")
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("pathways-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        for name in ["a", "b"] {
            try FileManager.default.createSymbolicLink(at: root.appendingPathComponent(name), withDestinationURL: ladder)
        }
        let server = try LoopbackHTTPServer(root: root)
        var master = "#EXTM3U\n#EXT-X-CONTENT-STEERING:SERVER-URI=\"/steer.json\",PATHWAY-ID=\"\(pathway)\"\n"
        for (folder, id) in [("a", "CDN-A"), ("b", "CDN-B")] {
            for variant in AdaptiveMedia.variants {
                master += "#EXT-X-STREAM-INF:BANDWIDTH=\(variant.bandwidth),RESOLUTION=\(variant.width)x\(variant.height),PATHWAY-ID=\"\(id)\"\n"
                master += "\(folder)/\(variant.name)/index.m3u8\n"
            }
        }
        server.setRule(.content(Data(master.utf8), contentType: "application/vnd.apple.mpegurl"), for: "/master.m3u8")
        setPriority(priority, ttl: ttl, on: server)
        return (server, root)
    }

    /// A fresh folder where `a/` and `b/` both link to the folder of `playlist`, and a
    /// multivariant playlist steered by `/steer.json` (CDN-A until it says) listing `entries`
    /// of each: pathway CDN-A in `a/`, CDN-B in `b/`.
    private static func twoPathways(
        of playlist: URL, entries: (_ folder: String, _ pathway: String) -> String
    ) throws -> (root: URL, master: String) {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("pathways-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        var master = "#EXTM3U\n#EXT-X-CONTENT-STEERING:SERVER-URI=\"/steer.json\",PATHWAY-ID=\"CDN-A\"\n"
        for (name, id) in [("a", "CDN-A"), ("b", "CDN-B")] {
            try FileManager.default.createSymbolicLink(
                at: root.appendingPathComponent(name), withDestinationURL: playlist.deletingLastPathComponent())
            master += entries(name, id)
        }
        return (root, master)
    }

    private static func setPriority(_ priority: [String], ttl: Double, on server: LoopbackHTTPServer) {
        let json = "{\"VERSION\":1,\"TTL\":\(ttl),\"PATHWAY-PRIORITY\":[\(priority.map { "\"\($0)\"" }.joined(separator: ","))]}"
        server.setRule(.content(Data(json.utf8), contentType: "application/json"), for: "/steer.json")
    }

    /// Plays the stream untimed to its end, waiting as long as it takes for the first steering
    /// manifest (a loaded test run can answer later than the 1.5 s a start waits by default).
    private func playToTheEnd(_ server: LoopbackHTTPServer) async -> (AVPlayerItem, [Int]) {
        let asset = AVURLAsset(url: server.url(for: "master.m3u8"), options: patientNetworkOptions)
        let played = await playUntimed(asset)
        return (played.item, played.sink.distinctMillis())
    }

    /// Has the steering server rank `priority` and waits until it was asked again; the
    /// server's request count then.
    private static func rerank(_ priority: [String], on server: LoopbackHTTPServer) async -> Int {
        setPriority(priority, ttl: 0.5, on: server)
        let asked = server.requests.count
        await waitUntil(timeout: 20, "the steering manifest read again") {
            server.requests.dropFirst(asked).contains { $0.path == "/steer.json" }
        }
        return server.requests.count
    }

    private func segments(_ server: LoopbackHTTPServer) -> [String] {
        server.requests.map(\.path).filter { $0.hasSuffix(".ts") }
    }

    @Test func thePathwayTheSteeringServerRanksFirstIsPlayedFromTheStart() async throws {
        let (server, root) = try Self.serve(priority: ["CDN-B", "CDN-A"])
        defer { server.stop(); try? FileManager.default.removeItem(at: root) }
        let (item, times) = await playToTheEnd(server)
        #expect(item.status == .readyToPlay, "\(String(describing: item.error))")
        #expect(times.count == Int(AdaptiveMedia.duration) * 25, "\(times.count) pictures")
        let fetched = segments(server)
        #expect(!fetched.isEmpty && fetched.allSatisfy { $0.hasPrefix("/b/") }, "\(fetched)")
        #expect(!server.requests.contains { $0.path.hasPrefix("/a/") }, "nothing from CDN-A, not even a playlist")
        // The manifest was asked for naming the tag's pathway (the one before any ranking).
        let steering = server.requests.filter { $0.path == "/steer.json" }
        #expect(steering.first?.query?.contains("_HLS_pathway=CDN-A") == true, "\(steering.map(\.query))")
    }

    /// The steering server clones CDN-A as CDN-C, each variant at a URI of its own (by its
    /// `STABLE-VARIANT-ID`, folder `c/`), and ranks the clone first: the stream moves there
    /// (from the open's first segment or so) and plays every picture.
    @Test func aPathwayTheSteeringServerClonesIsPlayedWhenRankedFirst() async throws {
        let (server, root) = try Self.serve(priority: ["CDN-A"])
        defer { server.stop(); try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createSymbolicLink(
            at: root.appendingPathComponent("c"), withDestinationURL: try AdaptiveMedia.folder().appendingPathComponent("ladder"))
        var master = "#EXTM3U\n#EXT-X-CONTENT-STEERING:SERVER-URI=\"/steer.json\",PATHWAY-ID=\"CDN-A\"\n"
        for variant in AdaptiveMedia.variants {
            master += "#EXT-X-STREAM-INF:BANDWIDTH=\(variant.bandwidth),RESOLUTION=\(variant.width)x\(variant.height),"
                + "PATHWAY-ID=\"CDN-A\",STABLE-VARIANT-ID=\"\(variant.name)\"\na/\(variant.name)/index.m3u8\n"
        }
        server.setRule(.content(Data(master.utf8), contentType: "application/vnd.apple.mpegurl"), for: "/master.m3u8")
        let uris = AdaptiveMedia.variants.map { "\"\($0.name)\":\"/c/\($0.name)/index.m3u8\"" }.joined(separator: ",")
        let json = "{\"VERSION\":1,\"TTL\":300,\"PATHWAY-PRIORITY\":[\"CDN-C\",\"CDN-A\"],\"PATHWAY-CLONES\":["
            + "{\"BASE-ID\":\"CDN-A\",\"ID\":\"CDN-C\",\"URI-REPLACEMENT\":{\"PER-VARIANT-URIS\":{\(uris)}}}]}"
        server.setRule(.content(Data(json.utf8), contentType: "application/json"), for: "/steer.json")
        let (item, times) = await playToTheEnd(server)
        #expect(item.status == .readyToPlay, "\(String(describing: item.error))")
        #expect(times.count == Int(AdaptiveMedia.duration) * 25, "\(times.count) pictures")
        let fetched = segments(server)
        let moved = try #require(fetched.firstIndex { $0.hasPrefix("/c/") }, "\(fetched)")
        // The clone is a source before the loader's first request (it used to race the
        // loader's thread, and a segment or two could come from CDN-A).
        #expect(moved == 0 && fetched[moved...].allSatisfy { $0.hasPrefix("/c/") }, "\(fetched)")
    }

    /// Tiered audio groups on two pathways (a low and a high group on each): CDN-A's English
    /// segments fail from the third on, in both tiers; the English rendition's loader gives
    /// way to CDN-B's copy of the version it fetches, as the variants' loader does, and the
    /// sound is read to its end. (Before, a tier's version had no copy to turn to: its segments
    /// were skipped, the sound lost.)
    @Test func aTieredAudioRenditionGivesWayToItsCopyOnTheNextPathway() async throws {
        let tiers = [("lo", 2, 3, 300_000, "160x120"), ("hi", 4, 5, 900_000, "320x240")]
        let (root, master) = try Self.twoPathways(of: SelectionMedia.hlsTieredAudio.url()) { name, id in
            tiers.map { tier, english, french, bandwidth, size in
                "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"\(tier)-\(name)\",NAME=\"English\",LANGUAGE=\"en\",DEFAULT=YES,"
                    + "AUTOSELECT=YES,URI=\"\(name)/out_\(english).m3u8\"\n"
                    + "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"\(tier)-\(name)\",NAME=\"Français\",LANGUAGE=\"fr\","
                    + "AUTOSELECT=YES,URI=\"\(name)/out_\(french).m3u8\"\n"
                    + "#EXT-X-STREAM-INF:BANDWIDTH=\(bandwidth),RESOLUTION=\(size),AUDIO=\"\(tier)-\(name)\",PATHWAY-ID=\"\(id)\"\n"
                    + "\(name)/out_\(tier == "lo" ? 0 : 1).m3u8\n"
            }.joined()
        }
        defer { try? FileManager.default.removeItem(at: root) }
        let server = try LoopbackHTTPServer(root: root)
        defer { server.stop() }
        server.setRule(.content(Data(master.utf8), contentType: "application/vnd.apple.mpegurl"), for: "/master.m3u8")
        Self.setPriority(["CDN-A", "CDN-B"], ttl: 300, on: server)
        for english in [2, 4] {
            for index in 2..<6 { server.setRule(.notFound, for: "/a/out_\(english)\(index).ts") }
        }
        let demuxer = try StreamedOpen.demuxer(
            for: MediaLocation(url: server.url(for: "master.m3u8")), timeout: 15, interrupt: InterruptDeadline()
        ).demuxer
        let englishStream = try #require(demuxer.description.streams.first { $0.kind == .audio && $0.language == "en" }?.index)
        let video: [Int] = demuxer.description.streams.filter { $0.kind == .video }.map(\.index)
        demuxer.setActiveStreams(Set(video + [englishStream]))
        var sound: [Double] = []
        while case .packet(let packet) = demuxer.readPacket() {
            if packet.streamIndex == englishStream { sound.append(packet.pts.seconds) }
        }
        // English all through: no gap of more than a frame or two, to the end.
        #expect(zip(sound, sound.dropFirst()).allSatisfy { $1 - $0 < 0.05 }, "a gap in the sound")
        #expect((sound.last ?? 0) > 11.9, "\(sound.last ?? 0)")
        let english = segments(server).filter { $0.contains("/out_2") || $0.contains("/out_4") }
        // Every English segment from the third on, from CDN-B (after CDN-A's refusal).
        let fromB = Set(english.filter { $0.hasPrefix("/b/") }.compactMap { Int($0.dropLast(3).suffix(1)) })
        #expect(fromB.isSuperset(of: 2..<6), "\(english)")
        let firstRefused = try #require(english.firstIndex { $0.hasPrefix("/a/") && $0.hasSuffix("2.ts") }, "\(english)")
        #expect(english[(firstRefused + 1)...].allSatisfy { $0.hasPrefix("/b/") }, "\(english)")
        // (Opening reads each rendition's first segment to learn its format.)
        let french = segments(server).filter { $0.contains("/out_3") || $0.contains("/out_5") }
        #expect(french.allSatisfy { $0.hasSuffix("0.ts") }, "French stays unloaded: \(french)")
    }

    @Test func aPathwayWhoseSegmentsFailGivesWayToTheNextRanked() async throws {
        let (server, root) = try Self.serve(priority: ["CDN-A", "CDN-B"])
        defer { server.stop(); try? FileManager.default.removeItem(at: root) }
        // CDN-A has no segment from the fifth on, in any variant.
        for variant in AdaptiveMedia.variants {
            for index in 4..<Int(AdaptiveMedia.duration) { server.setRule(.notFound, for: "/a/\(variant.name)/seg\(index).ts") }
        }
        let (item, times) = await playToTheEnd(server)
        #expect(item.status == .readyToPlay, "\(String(describing: item.error))")
        #expect(times.count == Int(AdaptiveMedia.duration) * 25, "\(times.count) pictures")
        #expect(zip(times, times.dropFirst()).allSatisfy { $1 - $0 == 40 }, "no gap, no repeat")
        let fetched = segments(server)
        let firstRefused = try #require(fetched.firstIndex { $0.hasPrefix("/a/") && $0.hasSuffix("/seg4.ts") }, "\(fetched)")
        #expect(fetched[..<firstRefused].allSatisfy { $0.hasPrefix("/a/") }, "CDN-A first: \(fetched)")
        // (On a loaded machine the refused segment may be asked for once more on CDN-A, from a
        // lower variant, before the pathway gives way: nothing after it comes from CDN-A.)
        #expect(
            fetched[(firstRefused + 1)...].allSatisfy { $0.hasPrefix("/b/") || $0.hasSuffix("/seg4.ts") },
            "then CDN-B alone, every variant: \(fetched)")
        let number = { (path: String) in Int(path.split(separator: "/").last?.dropFirst(3).dropLast(3) ?? "") ?? -1 }
        #expect(!fetched.contains { $0.hasPrefix("/a/") && number($0) > 4 }, "nothing past the refused segment from CDN-A: \(fetched)")
        let errors = item.errorLog()?.events ?? []
        #expect(errors.contains { $0.uri?.contains("/a/") == true && $0.errorStatusCode == 404 }, "\(errors.map(\.uri))")
    }
}
