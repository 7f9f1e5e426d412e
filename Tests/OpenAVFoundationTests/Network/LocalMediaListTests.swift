// Playhead: playlist files on disk: a plain M3U or PLS is read into its entries (paths with
// spaces, absolute paths, stream URLs, Latin-1 text); an HLS playlist, another extension,
// bytes of media, a pipe or an empty file are not lists; an asset of a list fails saying it is
// one (its entries are items of their own).
import Foundation
import PlayheadTestSupport
import Testing

@testable import OpenAVFoundation

@Suite final class LocalMediaListTests {
    /// This test's own folder, removed when it ends.
    private let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
        "playhead-local-lists-\(UUID().uuidString)")

    deinit { try? FileManager.default.removeItem(at: folder) }

    private func file(_ name: String, _ bytes: Data) throws -> URL {
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

    @Test func aPipeNamedLikeAListIsNotReadAndNeitherIsAnEmptyFile() throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let pipe = folder.appendingPathComponent("radio.m3u")
        #expect(mkfifo(pipe.path, 0o600) == 0)
        // Nothing writes to it: reading would block for good.
        #expect(LocalMediaList.read(pipe) == .notAList)
        let empty = folder.appendingPathComponent("empty.m3u")
        try Data().write(to: empty)
        #expect(LocalMediaList.read(empty) == .notAList)
    }

    @MainActor
    @Test func anAssetOfAListFailsSayingItIsAListNotMedia() async throws {
        let media = try Fixture.url(.audioOnlyM4A)
        let list = try file(
            "one.pls", Data("[playlist]\nFile1=missing.m4a\nFile2=\(media.path)\n".utf8))
        let asset = AVURLAsset(url: list)
        await #expect(throws: (any Error).self) { _ = try await asset.load(.duration) }
        guard case .failed(let error) = asset.status(of: .duration) else {
            Issue.record("the list's duration is \(asset.status(of: .duration))")
            return
        }
        #expect(
            error.localizedDescription.contains("a playlist file of 2 entries, not media"),
            "\(error.localizedDescription)")
        let empty = AVURLAsset(url: try file("none.m3u", Data("# nothing\n".utf8)))
        await #expect(throws: (any Error).self) { _ = try await empty.load(.duration) }
        guard case .failed(let emptyError) = empty.status(of: .duration) else { return }
        #expect(
            emptyError.localizedDescription.contains("the list names no media"),
            "\(emptyError.localizedDescription)")
    }
}
