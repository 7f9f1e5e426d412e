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
            item("Untagged", language: nil),
        ]
        #expect(
            AVMetadataItem.metadataItems(from: items, with: Locale(identifier: "de_AT")).compactMap(
                \.stringValue) == ["Kapitel"])
        #expect(
            AVMetadataItem.metadataItems(from: items, with: Locale(identifier: "fr")).compactMap(
                \.stringValue) == ["Chapitre"])
        let sorted = AVMetadataItem.metadataItems(
            from: items, filteredAndSortedAccordingToPreferredLanguages: ["fr-CA", "en", "ja"])
        #expect(sorted.compactMap(\.stringValue) == ["Chapitre", "Chapter"])
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
        player.replaceCurrentItem(with: AVPlayerItem(url: try Fixture.url(.mp4)))
        let answered = Locked<Bool?>(nil)
        player.seek(to: Date()) { finished in answered.withLock { $0 = finished } }
        await waitUntil("the handler") { answered.withLock { $0 } != nil }
        #expect(answered.withLock { $0 } == false, "a file has no dates")
    }
}
