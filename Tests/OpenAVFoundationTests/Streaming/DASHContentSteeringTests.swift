// Playhead: DASH content steering: the `ContentSteering` element and the order of a
// manifest's locations as values, then the template presentation on two locations of one
// loopback server played with a steering server that ranks them.
import Foundation
import PlayheadTestSupport
import Testing

@testable import OpenAVFoundation

/// DASH content steering: a manifest's top-level `BaseURL`s named by `serviceLocation` are the
/// pathways, a `ContentSteering` element names the server that ranks them.
@MainActor
@Suite struct DASHContentSteeringTests {
    @Test func theSteeringElementAndTheLocationsOrderAreRead() throws {
        let text = """
            <?xml version="1.0"?>
            <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="static" mediaPresentationDuration="PT4S">
            <BaseURL serviceLocation="alpha">https://a.example/show/</BaseURL>
            <BaseURL serviceLocation="beta">https://b.example/show/</BaseURL>
            <BaseURL>https://c.example/show/</BaseURL>
            <ContentSteering defaultServiceLocation="beta alpha" queryBeforeStart="true" proxyServerURL="proxy/steer?id=4">steer/dcsm.json</ContentSteering>
            <Period/>
            </MPD>
            """
        let mpd = try #require(XMLTree.parse(Data(text.utf8)))
        let base = URL(string: "https://origin.example/show/manifest.mpd")!
        let tag = try #require(DASHManifest.steering(of: mpd, base: base))
        #expect(tag.serverURL.absoluteString == "https://origin.example/show/steer/dcsm.json")
        #expect(tag.defaultLocations == ["beta", "alpha"] && tag.queryBeforeStart)
        #expect(tag.proxyURL?.absoluteString == "https://origin.example/show/proxy/steer?id=4")
        let order = { (preferring: [String]) in
            DASHManifest.baseURLElements(of: mpd, preferring: preferring).map(DASHManifest.serviceLocation(of:))
        }
        #expect(order([]) == ["alpha", "beta", "https://c.example/show/"], "as written without a preference")
        #expect(order(["beta"]) == ["beta", "alpha", "https://c.example/show/"])
        #expect(order(["https://c.example/show/", "alpha"]) == ["https://c.example/show/", "alpha", "beta"])
        let manifest = HLSSteeringManifest(
            json: Data(#"{"VERSION":1,"SERVICE-LOCATION-PRIORITY":["beta"]}"#.utf8), base: base, dialect: .dash)
        #expect(manifest?.priority == ["beta"])
        #expect(HLSSteeringManifest(json: Data(#"{"VERSION":1,"PATHWAY-PRIORITY":["beta"]}"#.utf8), base: base, dialect: .dash) == nil)
    }

    @Test func aClonedServiceLocationReadsEachSegmentOnAnotherHostWithItsParameters() throws {
        let base = URL(string: "https://steer.example/dcsm.json")!
        let json = """
            {"VERSION":1,"SERVICE-LOCATION-PRIORITY":["gamma","alpha"],"PATHWAY-CLONES":[
             {"BASE-ID":"alpha","ID":"gamma","URI-REPLACEMENT":{"HOST":"c.example","PARAMS":{"cdn":"gamma"},
              "PER-VARIANT-URIS":{"v1":"/other.mpd"}}}]}
            """
        let manifest = try #require(HLSSteeringManifest(json: Data(json.utf8), base: base, dialect: .dash))
        let clone = try #require(manifest.clones.first)
        #expect(manifest.clones.count == 1 && clone.baseID == "alpha" && clone.id == "gamma")
        #expect(clone.variantURLs.isEmpty, "a DASH clone names no stream's own URI")
        let text = """
            #EXTM3U
            #EXT-X-TARGETDURATION:1
            #EXT-X-MAP:URI="https://a.example/show/init.mp4"
            #EXTINF:1,
            https://a.example/show/seg-1.m4s?token=x
            #EXTINF:1,
            seg-2.m4s
            #EXT-X-ENDLIST
            """
        guard case .media(let playlist) = try HLSPlaylist.parse(text, base: URL(string: "https://a.example/show/index.m3u8")!) else {
            Issue.record("not a media playlist")
            return
        }
        let cloned = playlist.cloned(by: clone)
        #expect(cloned.initialisation?.absoluteString == "https://c.example/show/init.mp4?cdn=gamma")
        #expect(cloned.segments.map(\.url.absoluteString)
            == ["https://c.example/show/seg-1.m4s?token=x&cdn=gamma", "https://c.example/show/seg-2.m4s?cdn=gamma"])
        #expect(cloned.segments.allSatisfy { $0.map?.url.absoluteString == "https://c.example/show/init.mp4?cdn=gamma" })
        #expect(cloned.segments.map(\.start) == playlist.segments.map(\.start) && cloned.duration == playlist.duration)
    }

    /// With `queryBeforeStart`, a location the steering server makes by cloning alpha (its
    /// segments asked for with `cdn=gamma` added) and ranks first plays from the start, sound
    /// and picture, to the end.
    @Test func aLocationTheSteeringServerClonesIsPlayedWhenRankedFirst() async throws {
        let json = #"{"VERSION":1,"TTL":300,"SERVICE-LOCATION-PRIORITY":["gamma","alpha"],"PATHWAY-CLONES":["#
            + #"{"BASE-ID":"alpha","ID":"gamma","URI-REPLACEMENT":{"PARAMS":{"cdn":"gamma"}}}]}"#
        let (server, root) = try serveTwoLocations(queryBeforeStart: true, steeringManifest: json)
        defer { server.stop(); try? FileManager.default.removeItem(at: root) }
        let played = await playUntimed(Self.waitingForTheRanking(server.url(for: "cdn.mpd")), audio: true)
        #expect(played.item.status == .readyToPlay, "\(String(describing: played.item.error))")
        #expect(played.sink.distinctMillis().count == Int(DASHMedia.duration) * 25)
        let media = server.requests.filter { $0.path.hasSuffix(".m4s") }
        let described = media.map { $0.path + "?" + ($0.query ?? "") }
        let moved = try #require(media.firstIndex { $0.query?.contains("cdn=gamma") == true }, "\(described)")
        #expect(moved == 0, "from the first segment: \(described)")
        #expect(media.allSatisfy { $0.path.hasPrefix("/a/") && $0.query?.contains("cdn=gamma") == true }, "\(described)")
    }

    /// A server whose root holds the template presentation twice, `a/` ("alpha", written
    /// first) and `b/` ("beta"), served as `/cdn.mpd` with a `ContentSteering` element
    /// (`queryBeforeStart` as given) whose server (`/dcsm.json`) ranks beta first. With
    /// `proxied`, the element names `/proxy?session=7` as its `proxyServerURL`, which answers
    /// what the steering server would.
    private func serveTwoLocations(
        queryBeforeStart: Bool, ttl: Int = 300, proxied: Bool = false, steeringManifest: String? = nil
    ) throws -> (LoopbackHTTPServer, URL) {
        let folder = try DASHMedia.folder().appendingPathComponent("template")
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("locations-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        for name in ["a", "b"] {
            try FileManager.default.createSymbolicLink(at: root.appendingPathComponent(name), withDestinationURL: folder)
        }
        let server = try LoopbackHTTPServer(root: root)
        let plain = try String(contentsOf: folder.appendingPathComponent("manifest.mpd"), encoding: .utf8)
        let text = plain.replacingOccurrences(of: "<Period", with: """
            <BaseURL serviceLocation="alpha">a/</BaseURL>
            <BaseURL serviceLocation="beta">b/</BaseURL>
            <ContentSteering defaultServiceLocation="alpha" queryBeforeStart="\(queryBeforeStart)"\(proxied ? #" proxyServerURL="/proxy?session=7""# : "")>/dcsm.json</ContentSteering>
            <Period
            """)
        server.setRule(.content(Data(text.utf8), contentType: "application/dash+xml"), for: "/cdn.mpd")
        let json = steeringManifest ?? #"{"VERSION":1,"TTL":"# + "\(ttl)" + #","SERVICE-LOCATION-PRIORITY":["beta","alpha"]}"#
        server.setRule(.content(Data(json.utf8), contentType: "application/json"), for: proxied ? "/proxy" : "/dcsm.json")
        return (server, root)
    }

    /// Without `queryBeforeStart` the default location plays first and the steering server is
    /// asked once an engine takes the stream; its ranking moves the segments after it to beta
    /// (on a manual clock, in the serial pass: `OverLoopback`). The requests after it name
    /// every location used since the one before (`_DASH_pathway=alpha,beta`), then beta.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["PLAYHEAD_REALTIME_TESTS"] != nil))
    func withoutQueryBeforeStartTheDefaultLocationPlaysUntilTheRankingComesOverLoopback() async throws {
        let (server, root) = try serveTwoLocations(queryBeforeStart: false, ttl: 1)
        defer { server.stop(); try? FileManager.default.removeItem(at: root) }
        let rig = try await LoopbackPlaybackRig(server, path: "cdn.mpd")
        await waitUntil(timeout: 20, "the steering server asked") { server.requests.contains { $0.path == "/dcsm.json" } }
        await rig.play(for: 5)
        let paths = server.requests.map(\.path)
        let asked = try #require(paths.firstIndex(of: "/dcsm.json"))
        #expect(paths[..<asked].filter { $0.hasSuffix(".m4s") }.allSatisfy { $0.hasPrefix("/a/") }, "alpha first: \(paths)")
        // Each loader (video, sound) moves once the ranking is applied (a segment it was asked
        // for before may still come from alpha): beta alone after its first request there.
        for loader in [["stream0", "stream1"], ["stream2"]] {
            let own = paths.filter { path in path.hasSuffix(".m4s") && loader.contains { path.contains($0) } }
            let moved = try #require(own.firstIndex { $0.hasPrefix("/b/") }, "\(loader): \(paths)")
            #expect(own[moved...].allSatisfy { $0.hasPrefix("/b/") }, "\(loader): \(paths)")
        }
        #expect(rig.output.silentRanges(minimumFrames: 48).isEmpty, "sound all through")
        await waitUntil(timeout: 20, "the steering server asked three times") {
            server.requests.filter { $0.path == "/dcsm.json" }.count >= 3
        }
        let named = server.requests.filter { $0.path == "/dcsm.json" }.prefix(3).map {
            URLComponents(string: "http://x/?" + ($0.query ?? ""))?.queryItems?.first { $0.name == "_DASH_pathway" }?.value
        }
        #expect(named == ["alpha", "alpha,beta", "beta"], "\(named)")
        rig.player.replaceCurrentItem(with: nil)
    }

    /// An asset for `url` whose start waits as long as it takes for the first ranking (a loaded
    /// test run can answer later than the 1.5 s a start waits by default).
    private static func waitingForTheRanking(_ url: URL) -> AVURLAsset {
        AVURLAsset(url: url, options: patientNetworkOptions)
    }

    /// With `queryBeforeStart`, the location the steering server ranks first plays from the
    /// first request.
    @Test func theLocationTheSteeringServerRanksFirstIsPlayedFromTheStart() async throws {
        let (server, root) = try serveTwoLocations(queryBeforeStart: true)
        defer { server.stop(); try? FileManager.default.removeItem(at: root) }
        let played = await playUntimed(Self.waitingForTheRanking(server.url(for: "cdn.mpd")), audio: true)
        #expect(played.item.status == .readyToPlay, "\(String(describing: played.item.error))")
        #expect(played.sink.distinctMillis().count == Int(DASHMedia.duration) * 25)
        let media = server.requests.map(\.path).filter { $0.hasSuffix(".m4s") }
        #expect(!media.isEmpty && media.allSatisfy { $0.hasPrefix("/b/") }, "\(media)")
        let asked = server.requests.first { $0.path == "/dcsm.json" }
        #expect(asked?.query?.contains("_DASH_pathway=alpha") == true, "\(String(describing: asked?.query))")
    }

    /// With a `proxyServerURL` every steering request goes to the proxy, naming the steering
    /// server in its `url` parameter (as video.js's VHS asks), the pathway beside it.
    @Test func aProxyServerIsAskedInsteadOfTheSteeringServer() async throws {
        let (server, root) = try serveTwoLocations(queryBeforeStart: true, proxied: true)
        defer { server.stop(); try? FileManager.default.removeItem(at: root) }
        let played = await playUntimed(Self.waitingForTheRanking(server.url(for: "cdn.mpd")), audio: true)
        #expect(played.item.status == .readyToPlay, "\(String(describing: played.item.error))")
        let media = server.requests.map(\.path).filter { $0.hasSuffix(".m4s") }
        #expect(!media.isEmpty && media.allSatisfy { $0.hasPrefix("/b/") }, "the proxy's ranking: \(media)")
        #expect(!server.requests.contains { $0.path == "/dcsm.json" }, "never the steering server itself")
        let asked = try #require(server.requests.first { $0.path == "/proxy" })
        let items = URLComponents(string: "http://x/?" + (asked.query ?? ""))?.queryItems ?? []
        let value = { (name: String) in items.first { $0.name == name }?.value }
        #expect(value("session") == "7" && value("_DASH_pathway") == "alpha", "\(items)")
        #expect(value("url") == server.url(for: "dcsm.json").absoluteString, "\(items)")
    }
}
