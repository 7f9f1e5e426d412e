// Playhead: redundant variant streams whose backups name an audio group of their own (a copy
// of the first's on the backup's server, as Apple's authoring guidance has backup streams
// do): one variant and one rendition to choose, and when the first server refuses the sound's
// segments the rendition goes on from its copy in the backup's group.
import Foundation
import PlayheadTestSupport
import Testing

@testable import OpenAVFoundation

@MainActor
@Suite struct HLSRedundantAudioTests {
    /// A master playlist: the ladder's `low` variant playing with French (`aud`, read from
    /// `primary/fr.m3u8`), and its backup playing with `aud-b`, French from `fr/index.m3u8`.
    static let master = """
        #EXTM3U
        #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="Français",LANGUAGE="fr",DEFAULT=YES,AUTOSELECT=YES,URI="primary/fr.m3u8"
        #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud-b",NAME="Français",LANGUAGE="fr",DEFAULT=YES,AUTOSELECT=YES,URI="fr/index.m3u8"
        #EXT-X-STREAM-INF:BANDWIDTH=250000,RESOLUTION=160x90,CODECS="avc1.64001e,mp4a.40.2",AUDIO="aud"
        ladder/low/index.m3u8
        #EXT-X-STREAM-INF:BANDWIDTH=250000,RESOLUTION=160x90,CODECS="avc1.64001e,mp4a.40.2",AUDIO="aud-b"
        backup/low/index.m3u8
        """

    @Test func aBackupsOwnAudioGroupBecomesTheBackupOfTheFirstGroupsRenditions() throws {
        let base = URL(string: "https://media.example/show/master.m3u8")!
        guard case .multivariant(let playlist) = try HLSPlaylist.parse(Self.master, base: base) else {
            Issue.record("not a multivariant playlist")
            return
        }
        #expect(playlist.variants.count == 1, "one variant to adapt over")
        #expect(playlist.variants.first?.backups.map(\.absoluteString) == ["https://media.example/show/backup/low/index.m3u8"])
        #expect(playlist.audioRenditions.count == 1, "one French to choose: \(playlist.audioRenditions)")
        let french = try #require(playlist.audioRenditions.first)
        #expect(french.group == "aud" && french.url?.absoluteString == "https://media.example/show/primary/fr.m3u8")
        #expect(french.backups.map(\.absoluteString) == ["https://media.example/show/fr/index.m3u8"])
        // A group that is no copy (another language) keeps the variants apart, as before.
        let other = Self.master.replacingOccurrences(of: #"GROUP-ID="aud-b",NAME="Français",LANGUAGE="fr""#, with: #"GROUP-ID="aud-b",NAME="English",LANGUAGE="en""#)
        guard case .multivariant(let apart) = try HLSPlaylist.parse(other, base: base) else { return }
        #expect(apart.variants.count == 2 && apart.audioRenditions.count == 2)
    }

    /// A server for `master` over a folder of its own (removed by the caller): the ladder as
    /// `ladder/` and `backup/`, French as `fr/` (returned); `primary/fr.m3u8` is left to the test.
    static func serve() throws -> (LoopbackHTTPServer, URL, URL) {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("redundant-audio-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let ladder = try AdaptiveMedia.folder().appendingPathComponent("ladder")
        let french = try AdaptiveMedia.frenchAudioFolder().appendingPathComponent("fr")
        for (name, target) in [("ladder", ladder), ("backup", ladder), ("fr", french)] {
            try FileManager.default.createSymbolicLink(at: root.appendingPathComponent(name), withDestinationURL: target)
        }
        let server = try LoopbackHTTPServer(root: root)
        server.setRule(.content(Data(master.utf8), contentType: "application/vnd.apple.mpegurl"), for: "/master.m3u8")
        return (server, root, french)
    }

    @Test func theSoundGoesOnFromTheBackupsCopyWhenItsServerRefusesASegment() async throws {
        let (server, root, french) = try Self.serve()
        defer { server.stop(); try? FileManager.default.removeItem(at: root) }
        // The first server has French's first four segments; from the fifth on, none (404).
        var primary = try String(contentsOf: french.appendingPathComponent("index.m3u8"), encoding: .utf8)
        let segments = primary.split(separator: "\n").filter { $0.hasSuffix(".ts") }.count
        for index in 0..<segments {
            primary = primary.replacingOccurrences(
                of: "\nseg\(index).ts\n", with: index < 4 ? "\n../fr/seg\(index).ts\n" : "\ngone/seg\(index).ts\n")
        }
        server.setRule(.content(Data(primary.utf8), contentType: "application/vnd.apple.mpegurl"), for: "/primary/fr.m3u8")

        let asset = AVURLAsset(url: server.url(for: "master.m3u8"))
        let played = await playUntimed(asset, audio: true)
        #expect(played.item.status == .readyToPlay, "\(String(describing: played.item.error))")
        #expect(played.sink.distinctMillis().count == Int(AdaptiveMedia.duration) * 25)
        let paths = server.requests.map(\.path)
        #expect(paths.filter { $0.hasPrefix("/primary/gone/") } == ["/primary/gone/seg4.ts"], "\(paths)")
        // French's segments each fetched once, in order: the first four through the first
        // server's playlist, the rest through the backup's.
        let sound = paths.filter { $0.hasPrefix("/fr/seg") }
        #expect(sound == (0..<segments).map { "/fr/seg\($0).ts" }, "\(paths)")
        #expect(!paths.contains { $0.hasPrefix("/backup/") }, "the pictures stay on the first server")
        let errors = played.item.errorLog()?.events ?? []
        #expect(errors.contains { $0.errorStatusCode == 404 }, "\(errors.map(\.errorComment))")
        let group = try #require(try await asset.loadMediaSelectionGroup(for: .audible))
        let names = group.options.map(\.displayName)
        #expect(group.options.filter { $0.extendedLanguageTag == "fr" }.count == 1, "one French to choose: \(names)")
    }

    /// A rendition whose playlist the first server refuses at the open is opened from its copy
    /// in the backup's group (before, the whole stream went to libavformat, unadapted).
    @Test func aRenditionWhosePlaylistCannotBeReadOpensFromTheBackupsCopy() async throws {
        let (server, root, french) = try Self.serve()
        defer { server.stop(); try? FileManager.default.removeItem(at: root) }
        // No rule for /primary/fr.m3u8: the first server answers 404.
        let asset = AVURLAsset(url: server.url(for: "master.m3u8"))
        let played = await playUntimed(asset, audio: true)
        #expect(played.item.status == .readyToPlay, "\(String(describing: played.item.error))")
        #expect(played.item.accessLog() != nil, "Playhead's loader streamed it")
        let paths = server.requests.map(\.path)
        let segments = try String(contentsOf: french.appendingPathComponent("index.m3u8"), encoding: .utf8)
            .split(separator: "\n").filter { $0.hasSuffix(".ts") }.count
        #expect(paths.filter { $0.hasPrefix("/fr/seg") } == (0..<segments).map { "/fr/seg\($0).ts" }, "\(paths)")
        #expect(paths.filter { $0 == "/primary/fr.m3u8" }.count == 1, "\(paths)")
    }
}
