// Playhead: encrypted media (Common Encryption, as DRM-protected files are) with no key:
// Playhead cannot decode it, and says so: the player item fails with
// `AVError.contentIsProtected` (before, it "played" to the end in silence with no picture),
// the image generator fails with the same error, and the demuxer reports the first encrypted
// sample instead of handing it to a decoder. An HLS stream whose keys come from a DRM system
// (FairPlay, Widevine, PlayReady) is refused at its playlist, before any segment: the asset
// has protected content and the item fails with the same error (before, libavformat played
// the still-encrypted segments: noise and broken pictures, "completed").
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
        // Failed, not played to its end. (Whether it failed at the open or once playing, with
        // `failedToPlayToEndTimeNotification`, depends on which read the first encrypted
        // sample first: the asset's inspection or the player's open.)
        #expect(played.item.status == .failed)
        #expect(played.log.count(AVPlayerItem.didPlayToEndTimeNotification) == 0)
        let error = try #require(played.item.error as? NSError, "the item's error")
        #expect(error.domain == AVFoundationErrorDomain && error.code == AVError.Code.contentIsProtected.rawValue, "\(error)")
        #expect(played.sink.frames.isEmpty, "no picture of noise")
    }

    /// FFmpeg's CENC muxer writes no `pssh` box, so nothing marks the tracks: the first
    /// encrypted samples the open reads tell it, before anything plays.
    @Test func anAssetEncryptedWithoutAPsshBoxIsKnownProtectedWhenLoaded() async throws {
        let asset = AVURLAsset(url: try ProtectedMedia.mp4())
        #expect(try await asset.load(.hasProtectedContent))
        #expect(try await asset.load(.isPlayable) == false)
        let clear = AVURLAsset(url: try Fixture.url(.mp4))
        #expect(try await clear.load(.hasProtectedContent) == false)
        #expect(try await clear.load(.isPlayable))
        // Sound alone: its first samples tell.
        let audio = AVURLAsset(url: try ProtectedMedia.audioOnlyM4A())
        #expect(try await audio.load(.hasProtectedContent))
        #expect(try await audio.load(.isPlayable) == false)
        let clearAudio = AVURLAsset(url: try Fixture.url(.audioOnlyM4A))
        #expect(try await clearAudio.load(.hasProtectedContent) == false)
        #expect(try await clearAudio.load(.isPlayable))
    }

    @Test func keysFromADRMSystemAreTold() {
        #expect(HLSKey.drmSystem(of: ["METHOD": "SAMPLE-AES", "KEYFORMAT": "com.apple.streamingkeydelivery", "URI": "skd://a"])
            == "com.apple.streamingkeydelivery")
        #expect(HLSKey.drmSystem(of: ["METHOD": "SAMPLE-AES-CTR", "URI": "data:text/plain;base64,AAAA"]) == "SAMPLE-AES-CTR")
        #expect(HLSKey.drmSystem(of: ["METHOD": "AES-128", "URI": "key.bin"]) == nil, "a plain key")
        #expect(HLSKey.drmSystem(of: ["METHOD": "SAMPLE-AES", "KEYFORMAT": "identity", "URI": "key.bin"]) == nil)
        #expect(HLSKey.drmSystem(of: ["METHOD": "NONE"]) == nil)
    }

    @Test(arguments: [false, true])
    func anHLSStreamWithFairPlayKeysIsRefusedAtItsPlaylist(sessionKey: Bool) async throws {
        let folder = try AdaptiveMedia.folder().appendingPathComponent("ladder")
        let server = try LoopbackHTTPServer(root: folder)
        defer { server.stop() }
        let key = "METHOD=SAMPLE-AES,URI=\"skd://key42\",KEYFORMAT=\"com.apple.streamingkeydelivery\",KEYFORMATVERSIONS=\"1\""
        var master = "#EXTM3U\n"
        if sessionKey { master += "#EXT-X-SESSION-KEY:\(key)\n" }
        master += "#EXT-X-STREAM-INF:BANDWIDTH=250000,RESOLUTION=160x90\nlow/index.m3u8\n"
        server.setRule(.content(Data(master.utf8), contentType: "application/vnd.apple.mpegurl"), for: "/master.m3u8")
        if !sessionKey {
            let playlist = try String(contentsOf: folder.appendingPathComponent("low/index.m3u8"), encoding: .utf8)
                .replacingOccurrences(of: "#EXT-X-PLAYLIST-TYPE:VOD\n", with: "#EXT-X-PLAYLIST-TYPE:VOD\n#EXT-X-KEY:\(key)\n")
            server.setRule(.content(Data(playlist.utf8), contentType: "application/vnd.apple.mpegurl"), for: "/low/index.m3u8")
        }
        let asset = AVURLAsset(url: server.url(for: "master.m3u8"))
        // Known to be protected, and not playable here; the rest fails to load, saying why.
        #expect(try await asset.load(.hasProtectedContent))
        #expect(try await asset.load(.isPlayable) == false)
        #expect(asset.hasProtectedContent && !asset.isPlayable)
        await #expect {
            _ = try await asset.load(.duration)
        } throws: { error in
            (error as NSError).code == AVError.Code.contentIsProtected.rawValue
        }
        let played = await playUntimed(AVURLAsset(url: server.url(for: "master.m3u8")))
        #expect(played.item.status == .failed)
        #expect((played.item.error as? NSError)?.code == AVError.Code.contentIsProtected.rawValue, "\(String(describing: played.item.error))")
        #expect(!server.requests.contains { $0.path.hasSuffix(".ts") }, "no segment fetched")
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
