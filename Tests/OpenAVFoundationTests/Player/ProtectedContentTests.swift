// Playhead: encrypted media (Common Encryption, as DRM-protected files are) with no key:
// Playhead cannot decode it, and says so: the player item fails with
// `AVError.contentIsProtected` (before, it "played" to the end in silence with no picture),
// the image generator fails with the same error, and the demuxer reports the first encrypted
// sample instead of handing it to a decoder.
import Foundation
import PlayheadTestSupport
import Testing

@testable import FFmpegBridge
@testable import OpenAVFoundation

@MainActor
@Suite struct ProtectedContentTests {
    @Test func theDemuxerReportsAnEncryptedSample() throws {
        let demuxer = try Demuxer(location: MediaLocation(url: try ProtectedMedia.mp4()))
        guard case .failure(let failure) = demuxer.readPacket() else {
            Issue.record("an encrypted packet was handed out")
            return
        }
        #expect(failure == .protectedContent)
        #expect(failure.reason == "protected content (encrypted media; DRM is not supported)")
    }

    @Test func theItemFailsWithContentIsProtected() async throws {
        let played = await playUntimed(AVURLAsset(url: try ProtectedMedia.mp4()), audio: true)
        #expect(played.failedToEnd, "failed, not played to its end")
        #expect(played.log.count(AVPlayerItem.didPlayToEndTimeNotification) == 0)
        let error = try #require(played.item.error as? NSError, "the item's error")
        #expect(error.domain == AVFoundationErrorDomain && error.code == AVError.Code.contentIsProtected.rawValue, "\(error)")
        #expect(played.sink.frames.isEmpty, "no picture of noise")
    }

    @Test func theImageGeneratorFailsWithContentIsProtected() async throws {
        let generator = AVAssetImageGenerator(asset: AVURLAsset(url: try ProtectedMedia.mp4()))
        await #expect {
            _ = try await generator.image(at: CMTime(seconds: 1, preferredTimescale: 600))
        } throws: { error in
            (error as NSError).code == AVError.Code.contentIsProtected.rawValue
        }
    }
}
