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

    @Test func noURLReachesTheLavfiInput() throws {
        for text in ["lavfi:testsrc", "playhead-demo:builtin", "movie:x"] {
            #expect(throws: MediaFailure.self) { try MediaLocation(url: URL(string: text)!) }
        }
        #expect(try MediaLocation(url: URL(fileURLWithPath: "/tmp/x.mp4")).inputFormat == nil)
    }
}
