// Playhead: TTML subtitles during playback: a `.ttml` file beside the media (written by
// FFmpeg's own TTML muxer) and a DASH text AdaptationSet of one TTML document whose URL has
// no extension, each showing its cues at their times on a manual clock.
import Foundation
import PlayheadTestSupport
import Testing

@testable import OpenAVFoundation

@MainActor
@Suite struct TTMLPlaybackTests {
    /// A folder holding a copy of the 5 s sidecar clip and, beside it, `clip.en.ttml`: the
    /// SubRip cues (1–2 s "Hello world", 3–4 s "Second line") written as TTML by FFmpeg.
    private func clipWithTTML() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("playhead-ttml-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let clip = folder.appendingPathComponent("clip.mkv")
        try FileManager.default.copyItem(at: try SelectionMedia.sidecarClip.url(), to: clip)
        let source = folder.appendingPathComponent("cues.srt")
        try Data(SelectionMedia.subRip.utf8).write(to: source)
        try GeneratedMedia.runFFmpeg(["-i", source.path, "-f", "ttml", folder.appendingPathComponent("clip.en.ttml").path])
        try FileManager.default.removeItem(at: source)
        return clip
    }

    @Test func aTTMLFileBesideTheMediaIsALegibleOptionWhoseCuesShowOnTime() async throws {
        let clip = try clipWithTTML()
        defer { try? FileManager.default.removeItem(at: clip.deletingLastPathComponent()) }
        let group = try #require(try await AVURLAsset(url: clip).loadMediaSelectionGroup(for: .legible))
        let option = try #require(group.options.first { $0.codecName == "ttml" })
        #expect(option.extendedLanguageTag == "en")
        let clock = ManualClock()
        let (player, recorder) = try await MediaSelectionPlaybackTests.playWithSubtitles(clip, clock: clock) {
            $0.options.first { $0.codecName == "ttml" }
        }
        await MediaSelectionPlaybackTests().expectSubRipTiming(player, recorder, clock: clock)
        player.replaceCurrentItem(with: nil)
    }

    @Test func anMP4TrackOfTTMLDocumentsIsALegibleOptionWhoseCuesShowOnTime() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("playhead-ttml-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = folder.appendingPathComponent("cues.srt"), movie = folder.appendingPathComponent("film.mp4")
        try Data(SelectionMedia.subRip.utf8).write(to: source)
        // FFmpeg's own TTML in MP4: one 'stpp' sample holding the whole document.
        try GeneratedMedia.runFFmpeg([
            "-f", "lavfi", "-i", "testsrc=size=160x120:rate=25:duration=5", "-i", source.path, "-c:v", "libx264",
            "-pix_fmt", "yuv420p", "-c:s", "ttml", "-metadata:s:s:0", "language=deu", movie.path,
        ])
        let asset = AVURLAsset(url: movie)
        let tracks = try await asset.loadTracks(withMediaType: .subtitle)
        #expect(tracks.count == 1)
        let group = try #require(try await asset.loadMediaSelectionGroup(for: .legible))
        let option = try #require(group.options.first { $0.codecName == "ttml" })
        #expect(option.isPlayable && option.extendedLanguageTag == "de")
        let clock = ManualClock()
        let (player, recorder) = try await MediaSelectionPlaybackTests.playWithSubtitles(movie, clock: clock) {
            $0.options.first { $0.codecName == "ttml" }
        }
        await MediaSelectionPlaybackTests().expectSubRipTiming(player, recorder, clock: clock)
        player.replaceCurrentItem(with: nil)
    }

    /// The set names no `contentType`: its MIME type says it is text.
    @Test func aDASHTextSetOfOneTTMLDocumentShowsItsCuesOnTime() async throws {
        let folder = try DASHMedia.folder()
        let server = try LoopbackHTTPServer(root: folder)
        defer { server.stop() }
        let text = try String(contentsOf: folder.appendingPathComponent("template/manifest.mpd"), encoding: .utf8)
        let set = """
            <AdaptationSet mimeType="application/ttml+xml" lang="de"><Label>Deutsch</Label>
            <Role schemeIdUri="urn:mpeg:dash:role:2011" value="subtitle"/>
            <Representation id="ttml" bandwidth="1000"><BaseURL>subtitles/de</BaseURL></Representation></AdaptationSet>
            </Period>
            """
        let manifest = text.replacingOccurrences(of: "</Period>", with: set)
        #expect(manifest != text)
        server.setRule(.content(Data(manifest.utf8), contentType: "application/dash+xml"), for: "/template/ttml.mpd")
        let document = """
            <?xml version="1.0" encoding="UTF-8"?>
            <tt xmlns="http://www.w3.org/ns/ttml" ttp:frameRate="25" xmlns:ttp="http://www.w3.org/ns/ttml#parameter">
              <body><div>
                <p begin="00:00:01:00" end="00:00:02:00">Hello world</p>
                <p begin="75f" end="4s">Second line</p>
              </div></body>
            </tt>
            """
        server.setRule(.content(Data(document.utf8), contentType: "application/ttml+xml"), for: "/template/subtitles/de")
        let url = server.url(for: "template/ttml.mpd")
        let group = try #require(try await AVURLAsset(url: url).loadMediaSelectionGroup(for: .legible))
        #expect(group.options.map(\.extendedLanguageTag) == ["de"])
        #expect(group.options.first?.displayName.contains("Deutsch") == true && group.options.first?.codecName == "ttml")
        let clock = ManualClock()
        let (player, recorder) = try await MediaSelectionPlaybackTests.playWithSubtitles(url, clock: clock) {
            $0.options.first
        }
        await MediaSelectionPlaybackTests().expectSubRipTiming(player, recorder, clock: clock)
        #expect(server.requests.filter { $0.path == "/template/subtitles/de" }.count == 1)
        player.replaceCurrentItem(with: nil)
    }
}
