// Playhead: playlist files on disk: a plain M3U or PLS is read into its entries (paths with
// spaces, absolute paths, stream URLs, Latin-1 text); an HLS playlist, another extension or
// bytes of media are not lists; an asset of a list plays its first entry that opens.
import Foundation
import PlayheadTestSupport
import Testing

@testable import OpenAVFoundation

@Suite struct LocalMediaListTests {
    private func file(_ name: String, _ bytes: Data) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "playhead-local-lists-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent(name)
        try bytes.write(to: url)
        return url
    }

    @Test func aPlainM3UsEntriesArePathsAndURLsInOrder() throws {
        // Latin-1, as older lists are; a BOM-less mix of relative, absolute and stream entries.
        let text =
            "#EXTM3U\r\n#EXTINF:10,Caf\u{E9}\r\nsongs/caf\u{E9} au lait.mp3\r\n/music/b.flac\r\nhttps://radio.example/live?x=1\r\n"
        let list = try file("mix.M3U", try #require(text.data(using: .isoLatin1)))
        let folder = list.deletingLastPathComponent()
        guard case .entries(let entries) = LocalMediaList.read(list) else {
            Issue.record("not read as a list")
            return
        }
        #expect(
            entries.map { $0.isFileURL ? $0.path : $0.absoluteString }
                == [
                    folder.appendingPathComponent("songs/caf\u{E9} au lait.mp3").path,
                    "/music/b.flac", "https://radio.example/live?x=1",
                ])
    }

    @Test func anHLSPlaylistOtherExtensionsAndMediaBytesAreNotLists() throws {
        let hls = try file(
            "index.m3u8",
            Data("#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2,\na.ts\n#EXT-X-ENDLIST\n".utf8))
        #expect(LocalMediaList.read(hls) == .notAList)
        let text = try file("notes.txt", Data("a.mp3\n".utf8))
        #expect(LocalMediaList.read(text) == .notAList)
        let media = try file(
            "fake.m3u", Data([0x49, 0x44, 0x33, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01]))
        #expect(LocalMediaList.read(media) == .notAList)
        #expect(LocalMediaList.read(URL(fileURLWithPath: "/nonexistent/list.m3u")) == .notAList)
        #expect(
            LocalMediaList.read(try file("empty.pls", Data("[playlist]\nNumberOfEntries=0\n".utf8)))
                == .entries([]))
    }

    @MainActor
    @Test func anAssetOfAListPlaysItsFirstEntryThatOpens() async throws {
        let media = try Fixture.url(.audioOnlyM4A)
        let list = try file(
            "one.pls", Data("[playlist]\nFile1=missing.m4a\nFile2=\(media.path)\n".utf8))
        let asset = AVURLAsset(url: list)
        let duration = try await asset.load(.duration)
        let direct = try await AVURLAsset(url: media).load(.duration)
        #expect(duration == direct)
        let empty = AVURLAsset(url: try file("none.m3u", Data("# nothing\n".utf8)))
        await #expect(throws: (any Error).self) { _ = try await empty.load(.duration) }
        let status = empty.status(of: .duration)
        guard case .failed(let error) = status else {
            Issue.record("the empty list's duration is \(status)")
            return
        }
        #expect(
            "\(error.localizedDescription)".contains("the list names no media"),
            "\(error.localizedDescription)")
    }
}
