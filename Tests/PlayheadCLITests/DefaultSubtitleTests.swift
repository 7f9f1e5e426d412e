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

    /// `url`'s item with `selection` applied, current on a player set up as `playhead play`
    /// sets it up, once the player holds it and its asset is loaded; and the warnings.
    func playheadItem(_ url: URL, _ selection: PlaySelection = PlaySelection()) async throws
        -> (player: AVPlayer, item: AVPlayerItem, group: AVMediaSelectionGroup, warnings: [String])
    {
        let player = AVPlayer()
        player.showsFlaggedDefaultSubtitles = selection.showsFlaggedDefaultSubtitles
        let item = AVPlayerItem(asset: selection.asset(for: url))
        let warnings = await selection.apply(to: item)
        player.replaceCurrentItem(with: item)
        let group = try await legibleGroup(item)
        for _ in 0..<500 where player.currentItem !== item { try await Task.sleep(for: .milliseconds(10)) }
        #expect(player.currentItem === item)
        return (player, item, group, warnings)
    }

    @Test func withoutOptionsTheCLISelectsTheFlaggedTrack() async throws {
        let run = try await playheadItem(try SelectionMedia.secondSubtitleDefault.url())
        #expect(run.warnings.isEmpty)
        #expect(run.item.currentMediaSelection.selectedMediaOption(in: run.group)?.extendedLanguageTag == "fr")
        run.player.replaceCurrentItem(with: nil)
    }

    @Test func noSubSelectsNothing() async throws {
        var selection = PlaySelection()
        selection.noSubtitles = true
        #expect(!selection.showsFlaggedDefaultSubtitles)
        let run = try await playheadItem(try SelectionMedia.secondSubtitleDefault.url(), selection)
        #expect(run.warnings.isEmpty)
        #expect(run.item.currentMediaSelection.selectedMediaOption(in: run.group) == nil)
        run.player.replaceCurrentItem(with: nil)
    }

    @Test func aLanguageAskedForComesFirstAndAMissingOneFallsBackToTheFlaggedTrack() async throws {
        let url = try SelectionMedia.secondSubtitleDefault.url()
        var english = PlaySelection()
        english.subtitleLanguage = "eng"
        let chosen = try await playheadItem(url, english)
        #expect(chosen.warnings.isEmpty)
        #expect(chosen.item.currentMediaSelection.selectedMediaOption(in: chosen.group)?.extendedLanguageTag == "en")
        chosen.player.replaceCurrentItem(with: nil)

        var german = PlaySelection()
        german.subtitleLanguage = "de"
        let fallback = try await playheadItem(url, german)
        #expect(fallback.warnings == ["no subtitles in language de"])
        #expect(
            fallback.item.currentMediaSelection.selectedMediaOption(in: fallback.group)?.extendedLanguageTag == "fr")
        fallback.player.replaceCurrentItem(with: nil)
    }

    @Test func theAPIKeepsSubtitlesOffUnlessSelected() async throws {
        let url = try SelectionMedia.secondSubtitleDefault.url()
        let item = AVPlayerItem(url: url)
        let group = try await legibleGroup(item)
        #expect(group.defaultOption == nil)
        #expect(item.currentMediaSelection.selectedMediaOption(in: group) == nil)
        #expect(item.asset.preferredMediaSelection.selectedMediaOption(in: group) == nil)
        // A plain player (the flag is off by default) leaves them off too.
        let player = AVPlayer(playerItem: item)
        #expect(!player.showsFlaggedDefaultSubtitles)
        for _ in 0..<500 where player.currentItem !== item { try await Task.sleep(for: .milliseconds(10)) }
        #expect(item.currentMediaSelection.selectedMediaOption(in: group) == nil)
        player.replaceCurrentItem(with: nil)
    }

    @Test func anHLSRenditionWithDefaultYesIsTheFlaggedTrack() async throws {
        let url = try SelectionMedia.hlsWithSubtitles.url()
        let playlist = try String(contentsOf: url, encoding: .utf8)
        #expect(playlist.contains("DEFAULT=YES"))
        let run = try await playheadItem(url)
        #expect(run.group.options.first?.isFlaggedDefault == true)
        #expect(run.group.defaultOption == nil)
        #expect(
            run.item.currentMediaSelection.selectedMediaOption(in: run.group)?.fileURL?.lastPathComponent
                == "out_0_vtt.m3u8")
        run.player.replaceCurrentItem(with: nil)
    }

    @Test func subtitleFilesCarryNoFlag() async throws {
        // The sidecar clip's subtitle files are not flagged: nothing is selected.
        let run = try await playheadItem(try SelectionMedia.sidecarClip.url())
        #expect(run.group.flaggedDefaultOption == nil)
        #expect(run.item.currentMediaSelection.selectedMediaOption(in: run.group) == nil)
        run.player.replaceCurrentItem(with: nil)
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
