// Playhead: `playhead probe` on media with subtitle tracks and chapters, run as a process.

import Foundation
import PlayheadTestSupport
import Testing

@Suite("probe lists subtitles and chapters")
struct ProbeSelectionTests {
    @Test func textListsSubtitleTracksAndChapters() async throws {
        let url = try SelectionMedia.film.url()
        guard let result = try await PlayheadProcess.run(["probe", url.path]) else { return }
        #expect(result.status == 0)
        let lines = result.standardOutput.split(separator: "\n").map(String.init)
        let subtitles = lines.filter { $0.contains(" subtitle ") }
        #expect(subtitles.count == 2)
        #expect(
            subtitles.first?.contains("subrip") == true
                && subtitles.first?.contains("[eng]") == true)
        #expect(
            subtitles.last?.contains("ass") == true && subtitles.last?.contains("[fre]") == true)
        #expect(lines.contains("Chapters:"))
        #expect(lines.contains("  #1  00:00:00.000 - 00:00:02.000  Opening"))
        #expect(lines.contains("  #2  00:00:02.000 - 00:00:06.000  Finale"))
    }

    @Test func jsonHasChapters() async throws {
        let url = try SelectionMedia.film.url()
        guard let result = try await PlayheadProcess.run(["probe", "--json", url.path]) else {
            return
        }
        #expect(result.status == 0)
        let json = try PlayheadProcess.jsonObject(result)
        let chapters = try #require(json["chapters"] as? [[String: Any]])
        #expect(chapters.map { $0["title"] as? String } == ["Opening", "Finale"])
        #expect(chapters.map { $0["start"] as? Double } == [0, 2])
        #expect(chapters.map { $0["end"] as? Double } == [2, 6])
        let tracks = try #require(json["tracks"] as? [[String: Any]])
        #expect(
            tracks.filter { $0["mediaType"] as? String == "subtitle" }.map {
                $0["codec"] as? String
            } == ["subrip", "ass"])
    }
}
