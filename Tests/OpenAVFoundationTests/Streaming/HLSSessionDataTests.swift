// Playhead: an HLS multivariant playlist's `EXT-X-SESSION-DATA` as the asset's metadata: a
// `VALUE` as a string, a `URI`'s JSON document as data (read with the stream's rules), a
// language, and Apple's title key as the common title; a document that is not JSON or that
// names a local file gives no item and an error-log event.
import Foundation
import PlayheadTestSupport
import Testing

@testable import FFmpegBridge
@testable import OpenAVFoundation

@MainActor
@Suite struct HLSSessionDataTests {
    static let master = """
        #EXTM3U
        #EXT-X-SESSION-DATA:DATA-ID="com.apple.hls.title",VALUE="Test pattern",LANGUAGE="en"
        #EXT-X-SESSION-DATA:DATA-ID="com.apple.hls.title",VALUE="Mire",LANGUAGE="fr"
        #EXT-X-SESSION-DATA:DATA-ID="com.apple.hls.title",VALUE="Again",LANGUAGE="fr"
        #EXT-X-SESSION-DATA:DATA-ID="com.example.poster",URI="poster.bin",FORMAT=RAW
        #EXT-X-SESSION-DATA:DATA-ID="com.example.cast",URI="cast.json"
        #EXT-X-SESSION-DATA:DATA-ID="com.example.broken",URI="broken.json"
        #EXT-X-SESSION-DATA:DATA-ID="com.example.secret",URI="file:///etc/passwd"
        #EXT-X-SESSION-DATA:DATA-ID="com.example.both",VALUE="x",URI="cast.json"
        #EXT-X-SESSION-DATA:VALUE="no id"
        #EXT-X-STREAM-INF:BANDWIDTH=250000,RESOLUTION=160x90,CODECS="avc1.64001e,mp4a.40.2"
        low/index.m3u8
        """

    @Test func eachTagIsADataIDWithAValueOrADocument() throws {
        let base = URL(string: "https://media.example/show/master.m3u8")
        let entries = HLSSessionData.parse(Self.master, base: base)
        #expect(entries.map(\.dataID) == [
            "com.apple.hls.title", "com.apple.hls.title", "com.example.poster", "com.example.cast", "com.example.broken",
            "com.example.secret",
        ], "a repeated DATA-ID and LANGUAGE, neither or both of VALUE and URI, or no DATA-ID: left out")
        #expect(entries.map(\.isRaw) == [false, false, true, false, false, false])
        try #require(entries.count == 6)
        #expect(entries[0].value == "Test pattern" && entries[0].language == "en" && entries[0].uri == nil)
        #expect(entries[3].uri?.absoluteString == "https://media.example/show/cast.json" && entries[3].value == nil)
        #expect(HLSSessionData.parse("not a playlist", base: base).isEmpty)
    }

    @Test func theTagsAreTheAssetsMetadataReadWithTheStreamsRules() async throws {
        let server = try LoopbackHTTPServer(root: try AdaptiveMedia.folder())
        defer { server.stop() }
        server.setRule(.content(Data(Self.master.utf8), contentType: "application/vnd.apple.mpegurl"), for: "/ladder/session.m3u8")
        let cast = Data(#"{"director":"Colin Levy","year":2010}"#.utf8)
        server.setRule(.content(cast, contentType: "application/json"), for: "/ladder/cast.json")
        server.setRule(.content(Data("<html>".utf8), contentType: "text/html"), for: "/ladder/broken.json")
        let poster = Data([0x89, 0x50, 0x4E, 0x47, 0, 1, 2])
        server.setRule(.content(poster, contentType: "application/octet-stream"), for: "/ladder/poster.bin")
        // No deadline a loaded machine could miss (the default 3 s is tested below).
        let asset = AVURLAsset(url: server.url(for: "ladder/session.m3u8"), options: patientNetworkOptions)
        let (common, all, formats) = try await asset.load(.commonMetadata, .metadata, .availableMetadataFormats)
        let session = all.filter { $0.keySpace == .quickTimeMetadata }
        #expect(session.map { $0.key as? String } == [
            "com.apple.hls.title", "com.apple.hls.title", "com.example.poster", "com.example.cast",
        ])
        #expect(session.map(\.identifier?.rawValue) == [
            "common/title", "common/title", "mdta/com.example.poster", "mdta/com.example.cast",
        ], "an item with a common key is identified by it, as every other is")
        try #require(session.count == 4)
        #expect(session[0].stringValue == "Test pattern" && session[0].extendedLanguageTag == "en")
        #expect(session[1].stringValue == "Mire" && session[1].extendedLanguageTag == "fr")
        #expect(session[2].dataValue == poster && session[2].dataType == "com.apple.metadata.datatype.raw-data")
        #expect(session[3].dataValue == cast && session[3].dataType == "com.apple.metadata.datatype.JSON")
        let titles = AVMetadataItem.metadataItems(from: common, filteredByIdentifier: .commonIdentifierTitle)
        #expect(titles.compactMap(\.stringValue) == ["Test pattern", "Mire"])
        #expect(AVMetadataItem.metadataItems(from: all, withKey: "com.example.cast", keySpace: nil).count == 1)
        // The session data is its own format.
        #expect(formats.contains(.hlsMetadata))
        #expect(asset.metadata(forFormat: .hlsMetadata).count == 4)
        // Read by the asset's inspection alone: an item's open does not read it again.
        let item = AVPlayerItem(asset: asset)
        let player = AVPlayer(environment: untimedEnvironment(RecordingVideoSink()), playerItem: item)
        await waitUntil("ready") { item.status == .readyToPlay || item.status == .failed }
        #expect(server.requests.filter { $0.path == "/ladder/cast.json" }.count == 1)
        player.replaceCurrentItem(with: nil)
    }

    @Test func anItemPlayedWithoutLoadingItsAssetFirstGivesTheAssetTheDocuments() async throws {
        let server = try LoopbackHTTPServer(root: try AdaptiveMedia.folder())
        defer { server.stop() }
        server.setRule(.content(Data(Self.master.utf8), contentType: "application/vnd.apple.mpegurl"), for: "/ladder/session.m3u8")
        let cast = Data(#"{"director":"Colin Levy"}"#.utf8)
        server.setRule(.content(cast, contentType: "application/json"), for: "/ladder/cast.json")
        server.setRule(.content(Data("<html>".utf8), contentType: "text/html"), for: "/ladder/broken.json")
        let item = AVPlayerItem(asset: AVURLAsset(url: server.url(for: "ladder/session.m3u8"), options: patientNetworkOptions))
        let player = AVPlayer(environment: untimedEnvironment(RecordingVideoSink()), playerItem: item)
        await waitUntil("ready") { item.status == .readyToPlay || item.status == .failed }
        let all = try await item.asset.load(.metadata)
        #expect(AVMetadataItem.metadataItems(from: all, withKey: "com.example.cast", keySpace: nil).first?.dataValue == cast)
        #expect(server.requests.filter { $0.path == "/ladder/cast.json" }.count == 1)
        // The item's open read the documents: the one that is not JSON and the local file
        // (never requested) left error events in its log.
        let uris = item.errorLog()?.events.compactMap(\.uri) ?? []
        #expect(uris.contains { $0.hasSuffix("/ladder/broken.json") } && uris.contains("file:///etc/passwd"), "\(uris)")
        player.replaceCurrentItem(with: nil)
    }

    /// A master playlist naming one JSON document, served `delay` seconds late.
    private func serveLateDocument(delay: Double) throws -> LoopbackHTTPServer {
        let server = try LoopbackHTTPServer(root: try AdaptiveMedia.folder())
        let master = """
            #EXTM3U
            #EXT-X-SESSION-DATA:DATA-ID="com.example.cast",URI="cast.json"
            #EXT-X-STREAM-INF:BANDWIDTH=250000,RESOLUTION=160x90,CODECS="avc1.64001e,mp4a.40.2"
            low/index.m3u8
            """
        server.setRule(.content(Data(master.utf8), contentType: "application/vnd.apple.mpegurl"), for: "/ladder/late.m3u8")
        var late = LoopbackHTTPServer.Rule.content(Data(#"{"year":2010}"#.utf8), contentType: "application/json")
        late.headerDelay = delay
        server.setRule(late, for: "/ladder/cast.json")
        return server
    }

    @Test func aDocumentLaterThanTheWaitGivesNoItemAndAnErrorEvent() async throws {
        let server = try serveLateDocument(delay: 1.5)
        defer { server.stop() }
        let asset = AVURLAsset(url: server.url(for: "ladder/late.m3u8"), options: [AVURLAssetPlayheadSessionDataWaitKey: 0.3])
        let item = AVPlayerItem(asset: asset)
        let player = AVPlayer(environment: untimedEnvironment(RecordingVideoSink()), playerItem: item)
        await waitUntil("ready") { item.status == .readyToPlay || item.status == .failed }
        #expect(item.status == .readyToPlay, "the open goes on without the document")
        let all = try await asset.load(.metadata)
        #expect(AVMetadataItem.metadataItems(from: all, withKey: "com.example.cast", keySpace: nil).isEmpty)
        let uris = item.errorLog()?.events.compactMap(\.uri) ?? []
        #expect(uris.contains { $0.hasSuffix("/ladder/cast.json") }, "\(uris)")
        player.replaceCurrentItem(with: nil)
    }

    @Test func theWaitOptionWaitsForALateDocument() async throws {
        let server = try serveLateDocument(delay: 1.5)
        defer { server.stop() }
        let asset = AVURLAsset(url: server.url(for: "ladder/late.m3u8"), options: patientNetworkOptions)
        let all = try await asset.load(.metadata)
        let cast = AVMetadataItem.metadataItems(from: all, withKey: "com.example.cast", keySpace: nil)
        #expect(cast.first?.dataValue == Data(#"{"year":2010}"#.utf8))
    }
}
