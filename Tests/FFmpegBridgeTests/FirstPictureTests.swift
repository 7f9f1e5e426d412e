// Playhead: the first picture after opening, decoded on its own (`previewFrame(of:)`), is the
// stream's first picture, arrives before the frame-threaded decoder lets anything out, and
// leaves the decoder to play the whole stream as usual.
@testable import FFmpegBridge
import Foundation
import OpenCoreMedia
import Testing

// Concurrency: each test owns its demuxer and decoder on the test's own task.

@Suite struct FirstPictureTests {
    /// H.264 with B-frames, wavefront HEVC with closed and open GOPs, and VP9.
    static let fixtures = [
        MediaFixtures.h264MP4, SeekCatchUpTests.hevcClosedGOP, SeekCatchUpTests.hevcOpenGOP,
        MediaFixtures.vp9WebM,
    ]

    @Test(arguments: fixtures)
    func theFirstPictureComesAloneAndTheStreamStillDecodesWhole(_ url: URL) throws {
        let linear = try Decode.allVideoFrames(url)
        let first = try #require(linear.first)
        let demuxer = try Demuxer(location: MediaFixtures.location(url))
        let index = try #require(demuxer.bestStream(of: .video))
        demuxer.setActiveStreams([index])
        let decoder = try VideoDecoder(demuxer: demuxer, streamIndex: index)
        decoder.flush()  // as the engine does for the first generation
        guard case .packet(let keyframe) = demuxer.readPacket() else {
            Issue.record("no first packet")
            return
        }
        let preview = try #require(decoder.previewFrame(of: keyframe))
        #expect(preview.pts == first.pts)
        #expect(preview.checksum() == first.checksum())
        // The frame-threaded decoder has nothing to give after the same packet.
        #expect(decoder.send(keyframe) == .accepted)
        #expect(decoder.receiveFrame().frame == nil)
        // Only before the first packet: never again.
        #expect(decoder.previewFrame(of: keyframe) == nil)
        var decoded: [VideoFrame] = []
        while case .packet(let packet) = demuxer.readPacket() {
            while decoder.send(packet) == .outputFull {
                guard let frame = decoder.receiveFrame().frame else { break }
                decoded.append(frame)
            }
            while case .frame(let frame) = decoder.receiveFrame() { decoded.append(frame) }
        }
        decoder.sendEndOfStream()
        while case .frame(let frame) = decoder.receiveFrame() { decoded.append(frame) }
        #expect(decoded.map(\.pts) == linear.map(\.pts))
        #expect(decoded.map { $0.checksum() } == linear.map { $0.checksum() })
    }

    @Test func aDecoderForScrubbingHasNoPreview() throws {
        let demuxer = try Demuxer(location: MediaFixtures.location(MediaFixtures.h264MP4))
        let index = try #require(demuxer.bestStream(of: .video))
        demuxer.setActiveStreams([index])
        let decoder = try VideoDecoder(demuxer: demuxer, streamIndex: index, threadCount: 1)
        guard case .packet(let keyframe) = demuxer.readPacket() else {
            Issue.record("no first packet")
            return
        }
        // One thread already puts the picture out as soon as it can: nothing to gain.
        #expect(decoder.previewFrame(of: keyframe) == nil)
    }
}
