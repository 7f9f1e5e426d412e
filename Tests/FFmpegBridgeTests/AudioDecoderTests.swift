// Playhead: tests for AudioDecoder and AudioFrame.
import FFmpegBridge
import Foundation
import OpenCoreMedia
import Testing

// Concurrency: each test owns its demuxer, decoder and frames on the test's own task.

@Suite struct AudioDecoderTests {
    @Test func aacDecodesAsManySamplesAsFFmpegDoes() async throws {
        let frames = try Decode.allAudioFrames(MediaFixtures.h264MP4)
        let total = frames.reduce(0) { $0 + $1.sampleCount }
        #expect(total == MediaFixtures.referenceSampleCount(MediaFixtures.h264MP4, channels: 1))
        #expect(abs(Double(total) / 44_100 - 3) < 0.05)
        #expect(
            frames.allSatisfy {
                $0.sampleRate == 44_100 && $0.channelCount == 1 && $0.sampleFormatName == "fltp"
            })
        #expect(frames.count > 120)
        #expect(frames.first?.pts == .zero)
    }

    @Test func audioFrameTimestampsFollowOneAnother() async throws {
        for url in [MediaFixtures.h264MP4, MediaFixtures.vp9WebM, MediaFixtures.h264MKV] {
            let frames = try Decode.allAudioFrames(url)
            #expect(!frames.isEmpty)
            for (previous, next) in zip(frames, frames.dropFirst()) {
                #expect(
                    abs((previous.pts + previous.duration - next.pts).seconds) < 0.001,
                    "\(url.lastPathComponent)")
            }
        }
    }

    @Test func opusAndFlacDecodeTheirWholeDuration() async throws {
        let opus = try Decode.allAudioFrames(MediaFixtures.vp9WebM)
        #expect(opus.allSatisfy { $0.sampleRate == 48_000 && $0.channelCount == 2 })
        #expect(
            opus.reduce(0) { $0 + $1.sampleCount }
                == MediaFixtures.referenceSampleCount(MediaFixtures.vp9WebM, channels: 2))
        let flac = try Decode.allAudioFrames(MediaFixtures.h264MKV)
        #expect(flac.first?.sampleFormatName == "s16")
        #expect(
            flac.reduce(0) { $0 + $1.sampleCount }
                == MediaFixtures.referenceSampleCount(MediaFixtures.h264MKV, channels: 1))
    }

    @Test func anAudioDecoderRefusesAVideoStream() async throws {
        let demuxer = try Demuxer(location: MediaFixtures.location(MediaFixtures.h264MP4))
        let video = try #require(demuxer.bestStream(of: .video))
        #expect(throws: MediaFailure.self) {
            try AudioDecoder(demuxer: demuxer, streamIndex: video)
        }
    }
}
