// Playhead: tests for chapters, media selection groups and options, and sidecar discovery.
import FFmpegBridge
import Foundation
import PlayheadTestSupport
import Testing

@testable import OpenAVFoundation

@Suite struct MediaSelectionAPITests {
    @Test func chaptersHaveTitlesAndTimeRanges() async throws {
        let asset = AVURLAsset(url: try SelectionMedia.film.url())
        let groups = try await asset.loadChapterMetadataGroups(bestMatchingPreferredLanguages: [
            "en"
        ])
        #expect(groups.count == 2)
        let titles = groups.map {
            AVMetadataItem.metadataItems(
                from: $0.items, withKey: AVMetadataKey.commonKeyTitle, keySpace: .common
            ).first?.stringValue
        }
        #expect(titles == ["Opening", "Finale"])
        try #require(groups.count >= 2)
        #expect(
            groups[0].timeRange == CMTimeRange(start: .zero, end: CMTime(value: 2, timescale: 1)))
        #expect(groups[1].timeRange.start.seconds == 2)
        #expect(abs(groups[1].timeRange.end.seconds - 6) < 1e-6)
        #expect(groups[0].items.first?.time == .zero)
        let sync = asset.chapterMetadataGroups(
            withTitleLocale: Locale(identifier: "en"), containingItemsWithCommonKeys: nil)
        #expect(sync.map(\.timeRange) == groups.map(\.timeRange))
        #expect(asset.availableChapterLocales.count == 1)
    }

    @Test func assetWithoutChaptersHasNone() async throws {
        let asset = AVURLAsset(url: try SelectionMedia.twoLanguagesAudio.url())
        #expect(
            try await asset.loadChapterMetadataGroups(bestMatchingPreferredLanguages: []).isEmpty)
        #expect(asset.availableChapterLocales.isEmpty)
    }

    @Test func audibleAndLegibleGroupsDescribeTheTracks() async throws {
        let asset = AVURLAsset(
            url: try SelectionMedia.film.url(),
            options: [AVURLAssetPlayheadDiscoversSubtitleFilesKey: false])
        let characteristics = try await asset.load(
            .availableMediaCharacteristicsWithMediaSelectionOptions)
        #expect(characteristics == [.audible, .legible])
        let audible = try #require(try await asset.loadMediaSelectionGroup(for: .audible))
        #expect(audible.options.map(\.extendedLanguageTag) == ["en", "fr"])
        #expect(audible.options.map(\.mediaType) == [.audio, .audio])
        #expect(
            audible.options.allSatisfy {
                $0.hasMediaCharacteristic(.audible) && !$0.hasMediaCharacteristic(.legible)
            })
        #expect(
            audible.options.map { $0.displayName(with: Locale(identifier: "en")) } == [
                "English", "French",
            ])
        try #require(audible.options.count >= 2)
        #expect(audible.options[1].locale?.identifier == "fr")
        #expect(audible.defaultOption == audible.options[0])
        #expect(!audible.allowsEmptySelection)

        let legible = try #require(asset.mediaSelectionGroup(forMediaCharacteristic: .legible))
        #expect(legible.allowsEmptySelection)
        #expect(legible.defaultOption == nil)
        #expect(legible.options.map(\.codecName) == ["subrip", "ass"])
        #expect(legible.options.map(\.mediaType) == [.subtitle, .subtitle])
        let french = AVMediaSelectionGroup.mediaSelectionOptions(
            from: legible.options, with: Locale(identifier: "fr"))
        try #require(legible.options.count >= 2)
        #expect(french == [legible.options[1]])
        let sorted = AVMediaSelectionGroup.mediaSelectionOptions(
            from: legible.options, filteredAndSortedAccordingToPreferredLanguages: ["fr-FR", "en"])
        #expect(sorted == [legible.options[1], legible.options[0]])
        #expect(
            legible.mediaSelectionOption(withPropertyList: legible.options[1].propertyList())
                == legible.options[1])
        #expect(asset.mediaSelectionGroup(forMediaCharacteristic: .visual) == nil)
    }

    @Test func sidecarFilesBecomeLegibleOptions() async throws {
        let clip = try SelectionMedia.sidecarClip.url()
        let asset = AVURLAsset(url: clip)
        let legible = try #require(try await asset.loadMediaSelectionGroup(for: .legible))
        #expect(legible.options.count == 2)
        let names = legible.options.map {
            ($0.propertyList() as? String)?.split(separator: "/").last.map(String.init)
        }
        #expect(names == ["clip.fr.vtt", "clip.srt"])
        try #require(legible.options.count >= 2)
        #expect(legible.options[0].extendedLanguageTag == "fr")
        #expect(legible.options[0].codecName == "webvtt")
        #expect(legible.options[1].extendedLanguageTag == nil)

        let off = AVURLAsset(
            url: clip, options: [AVURLAssetPlayheadDiscoversSubtitleFilesKey: false])
        #expect(try await off.loadMediaSelectionGroup(for: .legible) == nil)

        let extra = clip.deletingLastPathComponent().appendingPathComponent("other.srt")
        let given = AVURLAsset(
            url: clip,
            options: [
                AVURLAssetPlayheadDiscoversSubtitleFilesKey: false,
                AVURLAssetPlayheadSubtitleFilesKey: [extra],
            ])
        let explicit = try #require(try await given.loadMediaSelectionGroup(for: .legible))
        try #require(explicit.options.count == 1)
        #expect(explicit.options[0].codecName == "subrip")
    }

    @Test func hlsMasterPlaylistSubtitleRenditionsAreParsed() throws {
        let text = """
            #EXTM3U
            #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",NAME="Main",URI="audio.m3u8"
            #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="s",NAME="English, SDH",LANGUAGE="en",DEFAULT=YES,URI="subs/en.m3u8"
            #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="s",NAME="Français",LANGUAGE="fr",FORCED=YES,URI="https://cdn.example/fr.m3u8"
            #EXT-X-STREAM-INF:BANDWIDTH=1000,SUBTITLES="s"
            video.m3u8
            """
        let renditions = HLSSubtitleRenditions.parse(
            text, base: URL(string: "https://example.com/show/master.m3u8"))
        try #require(renditions.count == 2)
        #expect(
            renditions[0]
                == SubtitleRendition(
                    name: "English, SDH", language: "en",
                    url: "https://example.com/show/subs/en.m3u8", isDefault: true, isForced: false))
        #expect(renditions[1].url == "https://cdn.example/fr.m3u8" && renditions[1].isForced)
        #expect(HLSSubtitleRenditions.parse("not a playlist", base: nil).isEmpty)
    }

    @Test func sidecarNamesGiveLanguageAndForced() {
        let folder = URL(fileURLWithPath: "/media")
        #expect(
            SidecarSubtitles.parse(name: "film.eng.srt", stem: "film", folder: folder)?.languageCode
                == "eng")
        #expect(
            SidecarSubtitles.parse(name: "film.pt-BR.vtt", stem: "film", folder: folder)?
                .languageCode == "pt-BR")
        let forced = SidecarSubtitles.parse(
            name: "film.en.forced.ass", stem: "film", folder: folder)
        #expect(forced?.languageCode == "en" && forced?.isForced == true)
        #expect(
            SidecarSubtitles.parse(name: "film.srt", stem: "film", folder: folder)?.languageCode
                == nil)
        #expect(SidecarSubtitles.parse(name: "film.mkv", stem: "film", folder: folder) == nil)
        #expect(
            SidecarSubtitles.parse(name: "filmography.srt", stem: "film", folder: folder) == nil)
    }

    @MainActor
    @Test func selectingChangesTheCurrentSelectionAndNotifies() async throws {
        let asset = AVURLAsset(url: try SelectionMedia.film.url())
        let item = AVPlayerItem(asset: asset)
        let audible = try #require(try await asset.loadMediaSelectionGroup(for: .audible))
        let legible = try #require(try await asset.loadMediaSelectionGroup(for: .legible))
        try #require(audible.options.count >= 2 && !legible.options.isEmpty)
        #expect(item.currentMediaSelection.selectedMediaOption(in: audible) == audible.options[0])
        #expect(item.currentMediaSelection.selectedMediaOption(in: legible) == nil)
        let log = NotificationLog([AVPlayerItem.mediaSelectionDidChangeNotification], object: item)
        item.select(audible.options[1], in: audible)
        item.select(legible.options[0], in: legible)
        #expect(item.currentMediaSelection.selectedMediaOption(in: audible) == audible.options[1])
        #expect(item.currentMediaSelection.selectedMediaOption(in: legible) == legible.options[0])
        item.select(nil, in: audible)  // audio cannot be empty: ignored
        #expect(item.currentMediaSelection.selectedMediaOption(in: audible) == audible.options[1])
        item.select(nil, in: legible)
        #expect(item.currentMediaSelection.selectedMediaOption(in: legible) == nil)
        item.selectMediaOptionAutomatically(in: audible)
        #expect(item.currentMediaSelection.selectedMediaOption(in: audible) == audible.options[0])
        await waitUntil("notifications") {
            log.count(AVPlayerItem.mediaSelectionDidChangeNotification) == 4
        }
    }
}
