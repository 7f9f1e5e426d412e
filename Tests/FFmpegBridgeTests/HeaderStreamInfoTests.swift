// Playhead: tests for opening a local MP4 from its header alone (HeaderStreamInfo).
import FFmpegBridge
import Foundation
import Testing

// Concurrency: each test owns its demuxer on the test's own task.

@Suite struct HeaderStreamInfoTests {
    /// 1 s of 320×240 H.264 High 4:2:2 with 5.1 AAC at 44.1 kHz, in MP4.
    static let highProfile422MP4: URL = MediaFixtures.make(
        "h264-422-51.mp4",
        [
            "-f", "lavfi", "-i", "testsrc2=d=1:s=320x240:r=25", "-f", "lavfi", "-i",
            "sine=f=330:d=1:sample_rate=44100", "-ac", "6",
            "-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv422p", "-c:a", "aac",
        ])

    /// 1 s of 320×240 MPEG-4 Part 2 with MP3, in MP4: codecs the header path does not take.
    static let mpeg4MP4: URL = MediaFixtures.make(
        "mpeg4-mp3.mp4",
        [
            "-f", "lavfi", "-i", "testsrc2=d=1:s=320x240:r=25", "-f", "lavfi", "-i",
            "sine=f=330:d=1", "-c:v", "mpeg4", "-c:a", "libmp3lame",
        ])

    @Test(arguments: [MediaFixtures.h264MP4, highProfile422MP4])
    func aLocalMP4IsDescribedFromItsHeaderExactlyAsTheProbeDescribesIt(_ url: URL) throws {
        let demuxer = try Demuxer(location: MediaFixtures.location(url))
        #expect(demuxer.describedFromHeader)
        let probed = try MediaInspector.describe(MediaFixtures.location(url))
        #expect(demuxer.description.streams == probed.streams)
        #expect(demuxer.description.duration == probed.duration)
        #expect(demuxer.description.startTime == probed.startTime)
        #expect(demuxer.description.bitRate == probed.bitRate)
        let video = try #require(demuxer.description.streams.first { $0.kind == .video })
        let audio = try #require(demuxer.description.streams.first { $0.kind == .audio })
        #expect(video.profileName != nil && video.pixelFormat != nil, "\(video)")
        #expect(audio.profileName == "LC", "\(audio)")
    }

    @Test func thePacketsReadWhileDescribingAreReturnedFirstAndNoneIsLost() throws {
        let url = Self.highProfile422MP4
        let demuxer = try Demuxer(location: MediaFixtures.location(url))
        var counts = [Int](repeating: 0, count: demuxer.description.streams.count)
        while case .packet(let packet) = demuxer.readPacket() { counts[packet.streamIndex] += 1 }
        #expect(counts == MediaFixtures.probePacketCounts(url))
    }

    @Test(arguments: [MediaFixtures.h264MKV, MediaFixtures.vp9WebM, mpeg4MP4])
    func otherContainersAndCodecsAreProbedAsBefore(_ url: URL) throws {
        let demuxer = try Demuxer(location: MediaFixtures.location(url))
        #expect(!demuxer.describedFromHeader, "\(url.lastPathComponent)")
        #expect(demuxer.description.streams == (try MediaInspector.describe(MediaFixtures.location(url))).streams)
    }
}
