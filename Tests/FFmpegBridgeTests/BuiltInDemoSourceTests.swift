// Playhead: tests for the built-in demo input (a lavfi graph opened through libavdevice).
import FFmpegBridge
import Foundation
import OpenCoreMedia
import Testing

// Concurrency: each test owns its demuxer and decoders on the test's own task.

@Suite struct BuiltInDemoSourceTests {
    @Test func theDemoHasAMovingPictureATitleAToneAndADeclaredDuration() throws {
        let demuxer = try Demuxer(location: .builtInDemo)
        let description = demuxer.description
        #expect(description.formatName == "lavfi")
        #expect(description.duration.seconds == MediaLocation.builtInDemoDuration)
        #expect(description.tags.contains(MediaTag(key: "title", value: "Playhead demo")))
        let video = try #require(demuxer.bestStream(of: .video))
        let audio = try #require(demuxer.bestStream(of: .audio))
        #expect(description.streams[video].width == 1280)
        #expect(description.streams[video].height == 720)
        #expect(description.streams[audio].sampleRate == 48_000)

        // Two pictures a second apart differ (the pattern moves) and the tone is not silence.
        let decoder = try VideoDecoder(demuxer: demuxer, streamIndex: video)
        var pictures: [UInt64] = []
        var audioPackets = 0
        var nonSilentAudio = false
        while pictures.count < 31 {
            guard case .packet(let packet) = demuxer.readPacket() else {
                Issue.record("the demo ended early")
                return
            }
            if packet.streamIndex == audio {
                audioPackets += 1
                nonSilentAudio = nonSilentAudio || packet.bytes.contains { $0 != 0 }
                continue
            }
            #expect(decoder.send(packet) == .accepted)
            while let frame = decoder.receiveFrame().frame { pictures.append(frame.checksum()) }
        }
        #expect(pictures[0] != pictures[30], "the picture should move")
        #expect(audioPackets > 0 && nonSilentAudio, "the tone should be audible")
    }

    @Test func theDemoSeeksBackwardAndForwardToTheExactFrame() throws {
        let demuxer = try Demuxer(location: .builtInDemo)
        let video = try #require(demuxer.bestStream(of: .video))
        demuxer.setActiveStreams([video])
        func nextVideoPacket() throws -> Packet {
            guard case .packet(let packet) = demuxer.readPacket() else { throw DemoTestError.ended }
            return packet
        }
        var firstPass: [Double: [UInt8]] = [:]
        for _ in 0..<60 {
            let packet = try nextVideoPacket()
            firstPass[packet.pts.seconds] = packet.bytes
        }
        // Back to 0.5 s (behind what was read: the graph restarts) lands on the frame at 0.5 s,
        // the same picture as the first time.
        #expect(
            demuxer.seek(
                to: CMTime(value: 1, timescale: 2), earliest: .negativeInfinity,
                latest: .positiveInfinity))
        let back = try nextVideoPacket()
        #expect(abs(back.pts.seconds - 0.5) < 0.001)
        #expect(back.bytes == firstPass[back.pts.seconds])
        // Ahead to 10 s: the packets in between are dropped.
        #expect(
            demuxer.seek(
                to: CMTime(value: 10, timescale: 1), earliest: .negativeInfinity,
                latest: .positiveInfinity))
        #expect(abs(try nextVideoPacket().pts.seconds - 10) < 0.001)
        // And to the very start again (the replay button).
        #expect(demuxer.seek(to: .zero, earliest: .negativeInfinity, latest: .positiveInfinity))
        #expect(try nextVideoPacket().pts.seconds == 0)
    }

    private enum DemoTestError: Error { case ended }

    @Test func noURLReachesTheLavfiInput() throws {
        for text in ["lavfi:testsrc", "playhead-demo:builtin", "movie:x"] {
            #expect(throws: MediaFailure.self) { try MediaLocation(url: URL(string: text)!) }
        }
        #expect(try MediaLocation(url: URL(fileURLWithPath: "/tmp/x.mp4")).inputFormat == nil)
    }
}
