// Playhead: `playhead probe` lists closed captions (in the video's pictures, named by an HLS
// playlist, and as a caption track), as text and JSON, run as a process.

import Foundation
import PlayheadCLI
import PlayheadTestSupport
import Testing

@Suite("probe lists closed captions")
struct ProbeCaptionsTests {
    @Test func captionsInTheVideoAreListedAsCC1InVideoStream0() async throws {
        let url = try CaptionMedia.h264SEI.url()
        guard let text = try await PlayheadProcess.run(["probe", url.path]) else { return }
        #expect(text.status == 0)
        let lines = text.standardOutput.split(separator: "\n").map(String.init)
        let heading = try #require(lines.firstIndex(of: "Captions:"))
        #expect(lines.dropFirst(heading + 1).first == "  CC1  eia_608  in video stream 0")

        guard let result = try await PlayheadProcess.run(["probe", "--json", url.path]) else { return }
        #expect(result.status == 0)
        let json = try PlayheadProcess.jsonObject(result)
        let captions = try #require(json["captions"] as? [[String: Any]])
        #expect(captions.count == 1)
        #expect(captions.first?["name"] as? String == "CC1")
        #expect(captions.first?["codec"] as? String == "eia_608")
        #expect(captions.first?["stream"] as? Int == 0)
        #expect(captions.first?["inVideo"] as? Bool == true)
        #expect(captions.first?["language"] is NSNull)
    }

    @Test func aCaptionTrackIsListedWithItsLanguage() async throws {
        let url = try CaptionMedia.quickTimeTrack.url()
        guard let result = try await PlayheadProcess.run(["probe", "--json", url.path]) else { return }
        let json = try PlayheadProcess.jsonObject(result)
        let captions = try #require(json["captions"] as? [[String: Any]])
        #expect(captions.map { $0["name"] as? String } == ["English CC"])
        #expect(captions.first?["stream"] as? Int == 1)
        #expect(captions.first?["inVideo"] as? Bool == false)
        #expect(captions.first?["language"] as? String == "en")
    }

    @Test func captionsAnHLSPlaylistNamesAreListedByNameWithTheirLanguage() async throws {
        let master = try CaptionMedia.hlsSEI.url()
        let server = try LoopbackHTTPServer(root: master.deletingLastPathComponent())
        defer { server.stop() }
        let url = server.url(for: master.lastPathComponent).absoluteString
        guard let text = try await PlayheadProcess.run(["probe", url]) else { return }
        #expect(text.status == 0, "\(text.standardError)")
        let lines = text.standardOutput.split(separator: "\n").map(String.init)
        let heading = try #require(lines.firstIndex(of: "Captions:"))
        #expect(lines.dropFirst(heading + 1).first == "  English  eia_608  in video stream 0  [en]")

        guard let result = try await PlayheadProcess.run(["probe", "--json", url]) else { return }
        let json = try PlayheadProcess.jsonObject(result)
        let captions = try #require(json["captions"] as? [[String: Any]])
        #expect(captions.map { $0["name"] as? String } == ["English"])
        #expect(captions.first?["language"] as? String == "en")
        #expect(captions.first?["inVideo"] as? Bool == true)
    }

    @Test func mediaWithoutCaptionsPrintsNoCaptionsSection() async throws {
        let url = try CaptionMedia.noCaptions.url()
        guard let text = try await PlayheadProcess.run(["probe", url.path]) else { return }
        #expect(!text.standardOutput.contains("Captions:"))
        guard let result = try await PlayheadProcess.run(["probe", "--json", url.path]) else { return }
        let json = try PlayheadProcess.jsonObject(result)
        #expect((json["captions"] as? [Any])?.isEmpty == true)
    }

    @Test func theTextSectionAlignsNamesAndShowsLanguages() {
        var summary = ProbeSummary(
            input: "x.ts", durationSeconds: 1, isPlayable: true, format: "mpegts",
            formatDescription: "MPEG-TS (MPEG-2 Transport Stream)")
        summary.captions = [
            .init(name: "CC1", codec: "eia_608", streamIndex: 0, inVideo: true),
            .init(name: "English CC", codec: "eia_608", streamIndex: 2, inVideo: false, language: "en"),
        ]
        let text = ProbeCommand.render(summary, asJSON: false)
        #expect(
            text.hasSuffix(
                """
                Captions:
                  CC1         eia_608  in video stream 0
                  English CC  eia_608  stream 2  [en]
                """))
    }
}
