// Playhead: a track's media characteristics: HDR video is told by its transfer function (PQ,
// HLG), as its codec parameters state it; the typed asset keys an item loads.
import Foundation
import PlayheadTestSupport
import Testing

@testable import OpenAVFoundation

@Suite struct TrackCharacteristicsTests {
    private func clip(_ name: String, transfer: String?) throws -> URL {
        let colour =
            transfer.map {
                ["-color_trc", $0, "-color_primaries", "bt2020", "-colorspace", "bt2020nc"]
            } ?? []
        return try GeneratedMedia.url(
            named: name, fileExtension: "mp4",
            ffmpeg: [
                "-f", "lavfi", "-i", "testsrc2=size=64x64:rate=25:duration=1", "-c:v", "libx264",
            ] + colour)
    }

    @Test func pqAndHLGVideoIsHDRAndOtherVideoIsNot() async throws {
        for (name, transfer, isHDR) in [
            ("hdr-pq", "smpte2084", true), ("hdr-hlg", "arib-std-b67", true),
            ("sdr-bt709", "bt709", false),
            ("sdr-untagged", nil, false),
        ] as [(String, String?, Bool)] {
            let asset = AVURLAsset(url: try clip(name, transfer: transfer))
            let track = try #require(try await asset.loadTracks(withMediaType: .video).first)
            #expect(track.hasMediaCharacteristic(.containsHDRVideo) == isHDR, "\(name)")
            let characteristics = try await track.load(.mediaCharacteristics)
            #expect(
                characteristics == (isHDR ? [.visual, .containsHDRVideo] : [.visual]), "\(name)")
        }
        #expect(!AVPlayer.eligibleForHDRPlayback)
        #expect(AVMediaCharacteristic.containsHDRVideo.rawValue == "public.contains-hdr-video")
    }

    @Test func theFormatDescriptionStatesTheColourAsCoreMediaNamesIt() async throws {
        // The HDR test the porting guides show: the transfer function of the format description.
        let hdr = AVURLAsset(url: try clip("hdr-hlg", transfer: "arib-std-b67"))
        let track = try #require(try await hdr.loadTracks(withMediaType: .video).first)
        let descriptions = try await track.load(.formatDescriptions)
        let format = try #require(descriptions.first)
        let transfer = CMFormatDescriptionGetExtension(format, extensionKey: kCMFormatDescriptionExtension_TransferFunction)
        #expect(transfer == kCMFormatDescriptionTransferFunction_ITU_R_2100_HLG)
        #expect(
            CMFormatDescriptionGetExtension(format, extensionKey: kCMFormatDescriptionExtension_YCbCrMatrix)
                == kCMFormatDescriptionYCbCrMatrix_ITU_R_2020)
        #expect(
            CMFormatDescriptionGetExtension(format, extensionKey: kCMFormatDescriptionExtension_ColorPrimaries)
                == kCMFormatDescriptionColorPrimaries_ITU_R_2020)
        // An untagged stream states no colour.
        let plain = AVURLAsset(url: try clip("sdr-untagged", transfer: nil))
        let plainTrack = try #require(try await plain.loadTracks(withMediaType: .video).first)
        let plainFormat = try #require(try await plainTrack.load(.formatDescriptions).first)
        #expect(CMFormatDescriptionGetExtension(plainFormat, extensionKey: kCMFormatDescriptionExtension_TransferFunction) == nil)
        #expect(CMFormatDescriptionGetExtension(plainFormat, extensionKey: kCMFormatDescriptionExtension_YCbCrMatrix) == nil)
    }

    @MainActor
    @Test func anItemLoadsTheTypedAssetKeysItIsGiven() async throws {
        let asset = AVURLAsset(url: try Fixture.url(.mp4))
        let item = AVPlayerItem(
            asset: asset, automaticallyLoadedAssetKeys: [.duration, .tracks, .isPlayable])
        #expect(item.automaticallyLoadedAssetKeys == ["duration", "tracks", "playable"])
    }
}
