// Playhead: an asset's media selection groups as now-playing language options, and the
// language option types ported code builds by hand.
import Foundation
import OpenAVFoundation
import OpenMediaPlayer
import PlayheadTestSupport
import Testing

@Suite struct LanguageOptionTests {
    @Test func aFilmsSoundAndSubtitleGroupsBecomeLanguageOptionGroups() async throws {
        let asset = AVURLAsset(url: try SelectionMedia.film.url())
        let audible = try #require(try await asset.loadMediaSelectionGroup(for: .audible))
        let legible = try #require(try await asset.loadMediaSelectionGroup(for: .legible))

        let sound = audible.makeNowPlayingInfoLanguageOptionGroup()
        #expect(sound.languageOptions.map(\.languageOptionType) == [.audible, .audible])
        #expect(sound.languageOptions.map(\.languageTag) == ["en", "fr"], "BCP 47 tags")
        #expect(sound.languageOptions.map(\.displayName) == audible.options.map(\.displayName))
        #expect(
            sound.defaultLanguageOption === sound.languageOptions[0], "the track flagged default")
        #expect(!sound.allowEmptySelection)
        // Each option is known by the selection option's own identity.
        #expect(Set(sound.languageOptions.compactMap(\.identifier)).count == 2)
        #expect(sound.languageOptions[1].identifier == "\(audible.options[1].propertyList())")

        let text = legible.makeNowPlayingInfoLanguageOptionGroup()
        #expect(text.languageOptions.map(\.languageOptionType) == [.legible, .legible])
        #expect(text.languageOptions.map(\.languageTag) == ["en", "fr"], "BCP 47 tags")
        #expect(text.allowEmptySelection, "subtitles may be off")
        #expect(text.languageOptions.allSatisfy { !$0.isAutomaticLegibleLanguageOption() })
    }

    @Test func theAutomaticOptionsAndCharacteristicsAreApplesValues() {
        let automatic = MPNowPlayingInfoLanguageOption(
            type: .legible, languageTag: MPLangaugeOptionAutoLangaugeTag,
            characteristics: [MPLanguageOptionCharacteristicContainsOnlyForcedSubtitles],
            displayName: "Auto",
            identifier: "auto")
        #expect(automatic.isAutomaticLegibleLanguageOption())
        #expect(!automatic.isAutomaticAudibleLanguageOption())
        #expect(MPLanguageOptionCharacteristicIsMainProgramContent == "public.main-program-content")
        #expect(
            MPLanguageOptionCharacteristicDescribesMusicAndSound
                == "public.accessibility.describes-music-and-sound")
        #expect(
            MPLanguageOptionCharacteristicContainsOnlyForcedSubtitles
                == "public.subtitles.forced-only")
        // The keys and the commands exist for ported code; an app's info may carry them.
        let group = MPNowPlayingInfoLanguageOptionGroup(
            languageOptions: [automatic], defaultLanguageOption: nil, allowEmptySelection: true)
        let info: [String: Any] = [
            MPNowPlayingInfoPropertyAvailableLanguageOptions: [group],
            MPNowPlayingInfoPropertyCurrentLanguageOptions: [automatic],
            MPMediaItemPropertyMediaType: MPMediaType.movie.rawValue,
        ]
        #expect(
            (info[MPNowPlayingInfoPropertyAvailableLanguageOptions]
                as? [MPNowPlayingInfoLanguageOptionGroup])?.count == 1)
        #expect(MPMediaType.anyVideo.contains(.movie) && !MPMediaType.anyAudio.contains(.movie))
        #expect(MPMediaType.any.contains([.music, .homeVideo]))
        let command = MPRemoteCommandCenter.shared().enableLanguageOptionCommand
        #expect(command !== MPRemoteCommandCenter.shared().disableLanguageOptionCommand)
    }
}
