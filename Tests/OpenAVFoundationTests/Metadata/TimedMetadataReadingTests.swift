// Playhead: tests for reading timed metadata: ID3v2 frames, ICY packets, and the timed ID3
// stream of an MPEG-TS file as an asset track.
import Foundation
import PlayheadTestSupport
import Testing

@testable import OpenAVFoundation

@Suite struct TimedMetadataReadingTests {
    @Test func id3TextFramesBecomeItemsInTheID3KeySpace() throws {
        let tag = TimedMetadataMedia.id3Tag([("TIT2", "Morning news"), ("TPE1", "Radio Ö"), ("TXXX", "ignored")])
        let items = ID3TagReader.items(tag, time: CMTime(value: 2, timescale: 1))
        #expect(items.map(\.identifier) == [.id3MetadataTitleDescription, .id3MetadataLeadPerformer, .id3MetadataUserText])
        #expect(items.map(\.stringValue) == ["Morning news", "Radio Ö", "ignored"])
        #expect(items.first?.commonKey == .commonKeyTitle && items.first?.keySpace == .id3)
        #expect(items.first?.time == CMTime(value: 2, timescale: 1))
        #expect((items.first?.key as? NSString) == "TIT2")
        #expect(AVMetadataItem.metadataItems(from: items, filteredByIdentifier: .id3MetadataLeadPerformer).count == 1)
    }

    @Test func id3v23FramesUTF16AndPrivateDataAreRead() {
        // ID3v2.3: plain 32-bit frame sizes. TIT2 in UTF-16 with a little-endian BOM; TXXX
        // (Latin-1) whose description is dropped; PRIV kept as bytes.
        let title: [UInt8] = [1, 0xFF, 0xFE, 0x48, 0x00, 0x69, 0x00]  // "Hi"
        let user: [UInt8] = [0] + Array("desc".utf8) + [0] + Array("value".utf8)
        let priv: [UInt8] = Array("com.apple.streaming.transportStreamTimestamp".utf8) + [0, 0, 0, 0, 0, 0, 0, 0x2a, 0x30]
        func frame(_ id: String, _ body: [UInt8]) -> [UInt8] {
            Array(id.utf8) + [0, 0, 0, UInt8(body.count)] + [0, 0] + body
        }
        let frames = frame("TIT2", title) + frame("TXXX", user) + frame("PRIV", priv)
        let size = frames.count
        let tag = Array("ID3".utf8) + [3, 0, 0] + [0, 0, UInt8(size >> 7), UInt8(size & 0x7f)] + frames
        let items = ID3TagReader.items(tag)
        #expect(items.map(\.stringValue) == ["Hi", "value", nil])
        // TXXX's description is kept beside its value, as Apple's `.info` extra attribute.
        #expect(items[1].extraAttributes?[.info] as? String == "desc")
        #expect(items[0].extraAttributes == nil)
        // A TXXX with an empty value keeps its description apart too.
        let empty = frame("TXXX", [0] + Array("gain".utf8) + [0])
        let emptyTag = Array("ID3".utf8) + [3, 0, 0] + [0, 0, 0, UInt8(empty.count)] + empty
        let emptyItem = ID3TagReader.items(emptyTag).first
        #expect(emptyItem?.extraAttributes?[.info] as? String == "gain" && emptyItem?.stringValue == "")
        #expect(items.last?.dataValue == Data(priv))
        #expect(ID3TagReader.items(Array("not a tag".utf8)).isEmpty)
        #expect(ID3TagReader.items(Array(tag.prefix(14))).isEmpty)  // cut short: no frame
    }

    @Test func icyPacketsGiveTheStreamTitle() {
        let items = ICYMetadataReader.items(
            "StreamTitle='It's Here - Don't Stop';StreamUrl='http://example.invalid/';\0\0", time: .zero)
        #expect(items.map(\.identifier) == [.icyMetadataStreamTitle, .icyMetadataStreamURL])
        #expect(items.first?.stringValue == "It's Here - Don't Stop")
        #expect(items.first?.commonKey == .commonKeyTitle && items.first?.keySpace == .icy)
        #expect(ICYMetadataReader.items("", time: .zero).isEmpty)
    }

    @Test func theTimedID3StreamIsAMetadataTrack() async throws {
        let asset = AVURLAsset(url: try TimedMetadataMedia.transportStream())
        let tracks = try await asset.load(.tracks)
        let metadata = try #require(tracks.first { $0.mediaType == .metadata })
        #expect(metadata.codec == "timed_id3")
        let format = try #require(try await metadata.load(.formatDescriptions).first)
        #expect(format.mediaType == .metadata && format.mediaSubType.rawValue == kCMMetadataFormatType_ID3)
        #expect(tracks.contains { $0.mediaType == .video } && tracks.contains { $0.mediaType == .audio })
    }
}

extension TimedMetadataReadingTests {
    @Test func aTagWhoseHeaderTheTransportStreamDemuxerDroppedIsStillRead() {
        let tag = TimedMetadataMedia.id3Tag([("TIT2", "Headless"), ("TPE1", "Artist")])
        let items = ID3TagReader.items(Array(tag.dropFirst(5)))
        #expect(items.map(\.stringValue) == ["Headless", "Artist"])
        #expect(ID3TagReader.items([0, 0, 0, 0, 9]).isEmpty)  // a size past the end
    }
}
