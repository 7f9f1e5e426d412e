// Playhead: metadata items from real containers (title, artist, album, artwork) and the
// item API itself.
import Foundation
@testable import FFmpegBridge
@testable import OpenAVFoundation
import PlayheadTestSupport
import Testing

@Suite("AVMetadataItem")
struct AVMetadataItemTests {
    // MARK: - From fixtures

    @Test func theMP3sTagsAndCoverArtAreCommonMetadata() async throws {
        let asset = AVURLAsset(url: try Fixture.url(.mp3WithCoverArt))
        let (common, all) = try await asset.load(.commonMetadata, .metadata)
        func value(_ identifier: AVMetadataIdentifier) -> AVMetadataItem? {
            AVMetadataItem.metadataItems(from: common, filteredByIdentifier: identifier).first
        }
        #expect(value(.commonIdentifierTitle)?.stringValue == Fixture.songTags["title"])
        #expect(value(.commonIdentifierArtist)?.stringValue == Fixture.songTags["artist"])
        #expect(value(.commonIdentifierAlbumName)?.stringValue == Fixture.songTags["album"])
        let artwork = try #require(value(.commonIdentifierArtwork))
        #expect(artwork.commonKey == .commonKeyArtwork)
        #expect(artwork.stringValue == nil)
        #expect(artwork.dataType == "image/png")
        let png = try #require(artwork.dataValue)
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
        #expect(png.count > 50)
        #expect(artwork.description == "AVMetadataItem(common/artwork: <\(png.count) bytes>)")
        // Exactly one artwork item, and every common item is also in `metadata`.
        #expect(common.filter { $0.commonKey == .commonKeyArtwork }.count == 1)
        #expect(common.allSatisfy { item in all.contains { $0 === item } })
        #expect(all.allSatisfy { $0.keySpace == .playheadContainer })
        // The tags keep the container's own names as keys.
        let albumByKey = AVMetadataItem.metadataItems(from: all, withKey: "album", keySpace: .playheadContainer)
        #expect(albumByKey.first?.stringValue == Fixture.songTags["album"])
        let albumByCommonKey = AVMetadataItem.metadataItems(
            from: all, withKey: AVMetadataKey.commonKeyAlbumName, keySpace: .common)
        #expect(albumByCommonKey.first === albumByKey.first)
    }

    @Test("Fixture tags arrive as common metadata", arguments: Fixture.allCases)
    func fixtureTagsArriveAsCommonMetadata(_ fixture: Fixture) async throws {
        let url = try Fixture.url(fixture)
        let asset = AVURLAsset(url: url)
        let common = try await asset.load(.commonMetadata)
        let titles = common.filter { $0.commonKey == .commonKeyTitle }.compactMap(\.stringValue)
        // ffprobe's view, since remuxed fixtures (undecodableVideoMP4) inherit their source's title.
        let reference = try FFprobe.summary(of: url)
        #expect(titles == reference.tags["title"].map { [$0] } ?? [])
        if let title = fixture.expectedTags["title"] { #expect(titles == [title]) }
        for key in ["artist", "album"] {
            let item = common.first { ($0.key as? NSString).map { $0 as String } == key }
            #expect(item?.stringValue == reference.tags[key], "\(key)")
        }
        let artwork = common.filter { $0.commonKey == .commonKeyArtwork }
        #expect(artwork.count == fixture.expectedStreams.attachedPictures)
        // Items with a common key appear once per key.
        let keys = common.compactMap(\.commonKey)
        #expect(Set(keys).count == keys.count)
        #expect(common.allSatisfy { $0.time == .invalid && $0.duration == .invalid })
    }

    @Test func anMP4TitleIsTheCommonTitle() async throws {
        let asset = AVURLAsset(url: try Fixture.url(.audioOnlyM4A))
        let items = try await asset.load(.commonMetadata)
        let title = try #require(items.first { $0.identifier == .commonIdentifierTitle })
        #expect(title.stringValue == Fixture.m4aTitle)
        #expect(title.dataType == "com.apple.metadata.datatype.UTF-8")
        #expect((title.key as? NSString) == "title")
        #expect(title.commonKey == .commonKeyTitle)
        #expect(try await title.load(.stringValue) == Fixture.m4aTitle)
        #expect(title.statusOfValue(forKey: "value", error: nil) == .loaded)
    }

    // MARK: - Mapping and values

    @Test func mappingGivesEachCommonKeyToItsFirstTagOnly() async throws {
        let items = MetadataMapping.items(
            tags: [
                MediaTag(key: "date", value: "2024"), MediaTag(key: "creation_time", value: "2024-05-01"),
                MediaTag(key: "major_brand", value: "isom"),
            ],
            artwork: [Artwork(data: [1, 2, 3], mimeType: "image/jpeg")])
        #expect(items.map(\.commonKey) == [.commonKeyCreationDate, nil, nil, .commonKeyArtwork])
        try #require(items.count == 4)
        #expect(items[3].dataValue == Data([1, 2, 3]))
        #expect(items[3].dataType == "image/jpeg")
        #expect(items[2].identifier?.rawValue == "org.ffmpeg.metadata/major_brand")
        #expect(items[0].identifier == .commonIdentifierCreationDate)
    }

    @Test func valuesConvertToNumbersAndDates() async throws {
        func item(_ text: String) -> AVMetadataItem {
            AVMetadataItem(
                key: "x", keySpace: .playheadContainer, commonKey: nil, value: NSString(string: text),
                dataType: nil)
        }
        #expect(item("42").numberValue == NSNumber(value: 42.0))
        #expect(item("forty-two").numberValue == nil)
        let utc = TimeZone(identifier: "UTC")!
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = utc
        let year = try #require(item("2019").dateValue)
        #expect(calendar.component(.year, from: year) == 2019)
        let day = try #require(item("2021-03-04").dateValue)
        #expect(calendar.dateComponents([.year, .month, .day], from: day) == DateComponents(year: 2021, month: 3, day: 4))
        let stamp = try #require(item("2022-01-02T03:04:05.000000Z").dateValue)
        #expect(calendar.component(.second, from: stamp) == 5)
        #expect(item("yesterday").dateValue == nil)
        let data = AVMetadataItem(
            key: "artwork", keySpace: .playheadContainer, commonKey: .commonKeyArtwork,
            value: NSData(bytes: [7], length: 1), dataType: "image/png")
        #expect(data.stringValue == nil && data.numberValue == nil && data.dateValue == nil)
        #expect(item("hello").locale == nil)
    }

    @Test func identifiersJoinKeySpaceAndKey() async {
        #expect(AVMetadataIdentifier.identifier(forKey: "title", keySpace: .common) == .commonIdentifierTitle)
        #expect(
            AVMetadataItem.identifier(forKey: AVMetadataKey.commonKeyArtist, keySpace: .common)
                == .commonIdentifierArtist)
        #expect(
            AVMetadataItem.identifier(forKey: "encoder", keySpace: .playheadContainer)?.rawValue
                == "org.ffmpeg.metadata/encoder")
    }
}
