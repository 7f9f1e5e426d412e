// Playhead: `playhead probe` on Matroska with a hand-written PGS subtitle track, run as a process.

import Foundation
import PlayheadTestSupport
import Testing

@Suite("probe lists PGS subtitles")
struct ProbePGSTests {
    @Test func textAndJSONListThePGSTrackWithItsLanguage() async throws {
        let url = try SelectionMedia.pgsSubtitles.url()
        guard let text = try await PlayheadProcess.run(["probe", url.path]) else { return }
        #expect(text.status == 0)
        let subtitles = text.standardOutput.split(separator: "\n").filter {
            $0.contains(" subtitle ")
        }
        #expect(subtitles.count == 1)
        #expect(
            subtitles.first?.contains("hdmv_pgs_subtitle") == true
                && subtitles.first?.contains("[jpn]") == true)

        guard let result = try await PlayheadProcess.run(["probe", "--json", url.path]) else {
            return
        }
        #expect(result.status == 0)
        let json = try PlayheadProcess.jsonObject(result)
        let tracks = try #require(json["tracks"] as? [[String: Any]])
        let pgs = tracks.filter { $0["mediaType"] as? String == "subtitle" }
        #expect(pgs.map { $0["codec"] as? String } == ["hdmv_pgs_subtitle"])
        #expect(pgs.map { $0["language"] as? String } == ["jpn"])
    }
}
