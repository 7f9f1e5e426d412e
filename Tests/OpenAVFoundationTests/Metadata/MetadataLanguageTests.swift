// Playhead: metadata items picked by language and the cover art's format identifiers; tracks
// picked by characteristic; a player's seek to a date without a dated item.
import Foundation
import PlayheadTestSupport
import Testing

@testable import OpenAVFoundation

@Suite struct MetadataLanguageTests {
    private func item(_ title: String, language: String?) -> AVMetadataItem {
        let item = AVMutableMetadataItem()
        item.identifier = .commonIdentifierTitle
        item.value = title as NSString
        item.extendedLanguageTag = language
        return item
    }

    @Test func itemsArePickedByLocaleAndByPreferredLanguagesInOrder() {
        let items = [
            item("Chapter", language: "en"), item("Kapitel", language: "de-DE"),
            item("Chapitre", language: "fra"),
            item("Chapter (UK)", language: "en-GB"), item("Untagged", language: nil),
        ]
        func titles(_ picked: [AVMetadataItem]) -> [String] { picked.compactMap(\.stringValue) }
        // A locale with a region takes that region's items; one without, any of its language.
        #expect(
            titles(AVMetadataItem.metadataItems(from: items, with: Locale(identifier: "de_DE")))
                == ["Kapitel"])
        #expect(
            titles(AVMetadataItem.metadataItems(from: items, with: Locale(identifier: "de_AT")))
                .isEmpty)
        #expect(
            titles(AVMetadataItem.metadataItems(from: items, with: Locale(identifier: "fr"))) == [
                "Chapitre"
            ])
        #expect(
            titles(AVMetadataItem.metadataItems(from: items, with: Locale(identifier: "en"))) == [
                "Chapter", "Chapter (UK)",
            ])
        // Preferred languages in order; a tag's exact items before its language's others.
        let sorted = AVMetadataItem.metadataItems(
            from: items, filteredAndSortedAccordingToPreferredLanguages: ["fr-CA", "en-GB", "ja"])
        #expect(titles(sorted) == ["Chapitre", "Chapter (UK)", "Chapter"])
    }

    @Test func coverArtAnswersToTheFormatsIdentifiers() async throws {
        let asset = AVURLAsset(url: try Fixture.url(.mp3WithCoverArt))
        let metadata = try await asset.load(.commonMetadata)
        let art = AVMetadataItem.metadataItems(
            from: metadata, filteredByIdentifier: .id3MetadataAttachedPicture)
        #expect(art.count == 1 && (art.first?.dataValue?.count ?? 0) > 0)
        #expect(
            AVMetadataItem.metadataItems(
                from: metadata, filteredByIdentifier: .iTunesMetadataCoverArt
            ).count == 1)
        #expect(
            AVMetadataItem.metadataItems(
                from: metadata, filteredByIdentifier: .id3MetadataTitleDescription
            ).isEmpty)
    }

    @Test func tracksArePickedByCharacteristic() async throws {
        let asset = AVURLAsset(url: try Fixture.url(.mp4))
        let audible = try await asset.loadTracks(withMediaCharacteristic: .audible)
        let visual = try await asset.loadTracks(withMediaCharacteristic: .visual)
        #expect(audible.map(\.mediaType) == [.audio] && visual.map(\.mediaType) == [.video])
        #expect(try await asset.loadTracks(withMediaCharacteristic: .legible).isEmpty)
    }

    @MainActor
    @Test func aPlayersSeekToADateWithoutADatedItemAnswersFalse() async throws {
        let player = AVPlayer()
        #expect(await player.seek(to: Date()) == false, "no item")
        let item = AVPlayerItem(url: try Fixture.url(.mp4))
        player.replaceCurrentItem(with: item)
        await waitUntil("ready") { item.status == .readyToPlay }
        let answered = Locked<Bool?>(nil)
        player.seek(to: Date()) { finished in answered.withLock { $0 = finished } }
        await waitUntil("the handler") { answered.withLock { $0 } != nil }
        #expect(answered.withLock { $0 } == false, "a file has no dates")
    }
}
