// Playhead: `playhead play` shows the subtitle track the file flags as default (as mpv and VLC
// do) unless --no-sub, with --sub/--sub-lang first; the API keeps Apple's default (off).
import Foundation
import OpenAVFoundation
import PlayheadTestSupport
import Testing

@testable import PlayheadCLI

@MainActor
@Suite struct DefaultSubtitleTests {
    func legibleGroup(_ item: AVPlayerItem) async throws -> AVMediaSelectionGroup {
        try #require(try await item.asset.loadMediaSelectionGroup(for: .legible))
    }

    @Test func theFixtureFlagsOnlyTheSecondSubtitleTrack() async throws {
        let url = try SelectionMedia.secondSubtitleDefault.url()
        let group = try await legibleGroup(AVPlayerItem(url: url))
        #expect(group.options.map(\.extendedLanguageTag) == ["en", "fr"])
        #expect(group.options.map(\.isFlaggedDefault) == [false, true])
        #expect(group.flaggedDefaultOption?.extendedLanguageTag == "fr")
    }

    @Test func withoutOptionsTheCLISelectsTheFlaggedTrack() async throws {
        let item = AVPlayerItem(url: try SelectionMedia.secondSubtitleDefault.url())
        #expect(await PlaySelection().apply(to: item).isEmpty)
        let group = try await legibleGroup(item)
        #expect(item.currentMediaSelection.selectedMediaOption(in: group)?.extendedLanguageTag == "fr")
    }

    @Test func noSubSelectsNothing() async throws {
        var selection = PlaySelection()
        selection.noSubtitles = true
        let item = AVPlayerItem(url: try SelectionMedia.secondSubtitleDefault.url())
        #expect(await selection.apply(to: item).isEmpty)
        let group = try await legibleGroup(item)
        #expect(item.currentMediaSelection.selectedMediaOption(in: group) == nil)
        #expect(selection.subtitleChoice(in: group).option == nil)
    }

    @Test func aLanguageAskedForComesFirstAndAMissingOneFallsBackToTheFlaggedTrack() async throws {
        let url = try SelectionMedia.secondSubtitleDefault.url()
        var english = PlaySelection()
        english.subtitleLanguage = "eng"
        let item = AVPlayerItem(url: url)
        #expect(await english.apply(to: item).isEmpty)
        let group = try await legibleGroup(item)
        #expect(item.currentMediaSelection.selectedMediaOption(in: group)?.extendedLanguageTag == "en")

        var german = PlaySelection()
        german.subtitleLanguage = "de"
        let fallback = AVPlayerItem(url: url)
        #expect(await german.apply(to: fallback) == ["no subtitles in language de"])
        #expect(fallback.currentMediaSelection.selectedMediaOption(in: group)?.extendedLanguageTag == "fr")
    }

    @Test func theAPIKeepsSubtitlesOffUnlessSelected() async throws {
        let item = AVPlayerItem(url: try SelectionMedia.secondSubtitleDefault.url())
        let group = try await legibleGroup(item)
        #expect(group.defaultOption == nil)
        #expect(item.currentMediaSelection.selectedMediaOption(in: group) == nil)
        #expect(item.asset.preferredMediaSelection.selectedMediaOption(in: group) == nil)
    }

    @Test func anHLSRenditionWithDefaultYesIsTheFlaggedTrack() async throws {
        let url = try SelectionMedia.hlsWithSubtitles.url()
        let playlist = try String(contentsOf: url, encoding: .utf8)
        #expect(playlist.contains("DEFAULT=YES"))
        let item = AVPlayerItem(url: url)
        let group = try await legibleGroup(item)
        #expect(group.options.first?.isFlaggedDefault == true)
        #expect(group.defaultOption == nil)
        #expect(await PlaySelection().apply(to: item).isEmpty)
        #expect(item.currentMediaSelection.selectedMediaOption(in: group)?.fileURL?.lastPathComponent == "out_0_vtt.m3u8")
    }

    @Test func aFileWithoutFlaggedSubtitlesStaysWithTheForcedDefault() async throws {
        // The sidecar clip's subtitle files carry no flag: nothing is selected.
        let item = AVPlayerItem(url: try SelectionMedia.sidecarClip.url())
        #expect(await PlaySelection().apply(to: item).isEmpty)
        let group = try await legibleGroup(item)
        #expect(group.flaggedDefaultOption == nil)
        #expect(item.currentMediaSelection.selectedMediaOption(in: group) == nil)
    }

    @Test func playingTheFlaggedFileHeadlessCompletes() async throws {
        let path = try SelectionMedia.secondSubtitleDefault.url().path
        for extra in [[], ["--no-sub"]] {
            guard
                let result = try await PlayheadProcess.run(
                    ["play", "--untimed", "--no-audio", "--report", "json"] + extra + [path])
            else { return }
            #expect(result.status == 0, "\(extra)")
            #expect(try PlayheadProcess.jsonObject(result)["status"] as? String == "completed")
        }
    }
}
