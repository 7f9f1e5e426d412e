// Playhead: `AVURLAsset.load(.variants)` for the adaptive streams Playhead's loader reads (an
// HLS multivariant playlist, a DASH manifest) and for an asset that is not adaptive.
import Foundation
import PlayheadTestSupport
import Testing

@testable import OpenAVFoundation

@Suite struct AssetVariantTests {
    @Test func anHLSLaddersVariantsAreItsPlaylistsStreamInfEntries() async throws {
        let server = try LoopbackHTTPServer(root: try AdaptiveMedia.folder())
        defer { server.stop() }
        let variants = try await AVURLAsset(url: server.url(for: "ladder/master.m3u8")).load(.variants)
        #expect(variants.map(\.peakBitRate) == AdaptiveMedia.variants.map { Double($0.bandwidth) })
        #expect(variants.map { $0.videoAttributes?.presentationSize }
            == AdaptiveMedia.variants.map { CGSize(width: $0.width, height: $0.height) })
        #expect(variants.allSatisfy { $0.videoAttributes?.codecTypes == [NSNumber(value: kCMVideoCodecType_H264)] })
        #expect(variants.allSatisfy { $0.audioAttributes?.formatIDs == [NSNumber(value: kAudioFormatMPEG4AAC)] })
        #expect(variants.allSatisfy { $0.averageBitRate == nil })
    }

    @Test func aDASHManifestsVariantsAreItsVideoRepresentations() async throws {
        let server = try LoopbackHTTPServer(root: try DASHMedia.folder())
        defer { server.stop() }
        let variants = try await AVURLAsset(url: server.url(for: "template/manifest.mpd")).load(.variants)
        #expect(variants.map(\.peakBitRate) == DASHMedia.representations.map { Double($0.bitRate) })
        #expect(variants.map { $0.videoAttributes?.presentationSize }
            == DASHMedia.representations.map { CGSize(width: $0.width, height: $0.height) })
        #expect(variants.allSatisfy { $0.videoAttributes?.codecTypes == [NSNumber(value: kCMVideoCodecType_H264)] })
    }

    @Test func anAssetThatDoesNotAdaptHasNoVariants() async throws {
        let asset = AVURLAsset(url: try Fixture.url(.mp4))
        #expect(try await asset.load(.variants).isEmpty)
    }

    @Test func codecsEntriesNameTheirFourCharacterCodes() {
        #expect(AVAssetVariant.videoCodec("avc3.640028") == kCMVideoCodecType_H264)
        #expect(AVAssetVariant.videoCodec("hev1.1.6.L93.B0") == kCMVideoCodecType_HEVC)
        #expect(AVAssetVariant.videoCodec("mp4a.40.2") == nil)
        #expect(AVAssetVariant.audioFormat("mp4a.40.5") == kAudioFormatMPEG4AAC)
        #expect(AVAssetVariant.audioFormat("ec-3") == kAudioFormatEnhancedAC3)
        #expect(AVAssetVariant.audioFormat("avc1.64001e") == nil)
    }
}
