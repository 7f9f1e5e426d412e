// Playhead: playlist files given to `playhead play` (M3U, PLS) are queued entry by entry, as
// desktop players do; `playhead probe` and an asset read a list's first entry.
import Foundation
import PlayheadTestSupport
import Testing

@Suite struct PlayListFileTests {
    /// A fresh folder holding copies of two fixtures: "first song.mp4" and "more/second.webm".
    private func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "playhead-lists-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("more"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: try Fixture.url(.mp4), to: folder.appendingPathComponent("first song.mp4"))
        try FileManager.default.copyItem(
            at: try Fixture.url(.webM), to: folder.appendingPathComponent("more/second.webm"))
        return folder
    }

    private func write(_ text: String, to url: URL) throws {
        try Data(text.utf8).write(to: url)
    }

    private func items(_ result: SubprocessResult) throws -> [[String: Any]] {
        try #require(try PlayheadProcess.jsonObject(result)["items"] as? [[String: Any]])
    }

    @Test func anM3UOfFilesQueuesEachEntryInItsOrder() async throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let absolute = folder.appendingPathComponent("first song.mp4").path
        // Relative paths (one with a space), an absolute one, comments and titles.
        try write(
            "#EXTM3U\n#EXTINF:2,Second\nmore/second.webm\n\n# a comment\n#EXTINF:2,First\nfirst song.mp4\n\(absolute)\n",
            to: folder.appendingPathComponent("songs.m3u"))
        let result = try #require(
            try await PlayheadProcess.run([
                "play", "--untimed", "--report", "json",
                folder.appendingPathComponent("songs.m3u").path,
            ]))
        #expect(result.status == 0, "\(result.standardError)")
        let items = try items(result)
        #expect(
            items.compactMap { $0["input"] as? String } == [
                folder.appendingPathComponent("more/second.webm").path, absolute, absolute,
            ])
        #expect(items.allSatisfy { $0["status"] as? String == "completed" })
        #expect(items.allSatisfy { (48...51).contains($0["videoFramesPresented"] as? Int ?? 0) })
    }

    @Test func aPLSNamingAnM3UIsFollowedAndAMissingEntryFailsAlone() async throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try write("more/second.webm\n", to: folder.appendingPathComponent("more.m3u"))
        // The PLS's numbers order it, not its lines.
        try write(
            "[playlist]\nFile3=first song.mp4\nFile1=more.m3u\nTitle1=More\nFile2=gone.mp4\nNumberOfEntries=3\nVersion=2\n",
            to: folder.appendingPathComponent("all.pls"))
        let result = try #require(
            try await PlayheadProcess.run([
                "play", "--untimed", "--report", "json",
                folder.appendingPathComponent("all.pls").path,
            ]))
        #expect(result.status == 1)
        let gone = folder.appendingPathComponent("gone.mp4").path
        #expect(result.errorLines == ["playhead: \(gone): no such file"])
        let items = try items(result)
        #expect(
            items.compactMap { $0["input"] as? String }
                == [
                    folder.appendingPathComponent("more/second.webm").path, gone,
                    folder.appendingPathComponent("first song.mp4").path,
                ])
        #expect(items.map { $0["status"] as? String } == ["completed", "failed", "completed"])
    }

    @Test func anEmptyListFailsSayingSoAndProbeSaysAListIsNotMedia() async throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let empty = folder.appendingPathComponent("empty.m3u")
        try write("#EXTM3U\n# nothing here\n", to: empty)
        let failed = try #require(try await PlayheadProcess.run(["play", "--untimed", empty.path]))
        #expect(failed.status == 1)
        #expect(failed.errorLines == ["playhead: \(empty.path): the list names no media"])
        // probe takes one input, and a list is not media: it says what it is.
        let list = folder.appendingPathComponent("list.m3u")
        try write("gone.mp4\nmore/second.webm\nfirst song.mp4\n", to: list)
        let probed = try #require(try await PlayheadProcess.run(["probe", list.path]))
        #expect(probed.status == 1)
        #expect(
            probed.errorLines
                == [
                    "playhead: \(list.path): a playlist file of 3 entries, not media (play its entries as items of their own)"
                ])
    }

    @Test func aListNamingItselfIsLeftOutOnceWithAWarning() async throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let list = folder.appendingPathComponent("loop.m3u")
        try write("first song.mp4\nloop.m3u\n./loop.m3u\n", to: list)
        let result = try #require(
            try await PlayheadProcess.run(["play", "--untimed", "--report", "json", list.path]))
        #expect(result.status == 0, "\(result.standardError)")
        #expect(
            result.errorLines
                == Array(
                    repeating: "playhead: \(list.path): warning: the list names itself; left out",
                    count: 2))
        #expect(
            try items(result).compactMap { $0["input"] as? String } == [
                folder.appendingPathComponent("first song.mp4").path
            ])
    }
}
