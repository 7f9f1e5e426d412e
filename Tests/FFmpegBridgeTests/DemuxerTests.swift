// Playhead: tests for Demuxer and Packet.
import FFmpegBridge
import Foundation
import OpenCoreMedia
import Testing

// Concurrency: each test owns its demuxer on the test's own task.

@Suite struct DemuxerTests {
    @Test func demuxingReadsEveryPacketToEndOfFileAsFFprobeCountsThem() async throws {
        for url in [MediaFixtures.h264MP4, MediaFixtures.vp9WebM, MediaFixtures.h264MKV] {
            let demuxer = try Demuxer(location: MediaFixtures.location(url))
            var counts = [Int](repeating: 0, count: demuxer.description.streams.count)
            var ended = false
            loop: while true {
                switch demuxer.readPacket() {
                case .packet(let packet): counts[packet.streamIndex] += 1
                case .endOfFile:
                    ended = true
                    break loop
                case .failure(let failure):
                    Issue.record("read failed: \(failure)")
                    break loop
                }
            }
            #expect(ended)
            #expect(counts == MediaFixtures.probePacketCounts(url), "\(url.lastPathComponent)")
            // Reading past the end keeps saying so.
            if case .endOfFile = demuxer.readPacket() {
            } else {
                Issue.record("expected endOfFile again")
            }
        }
    }

    @Test func theDescriptionAndBestStreamsMatchTheContainer() async throws {
        let demuxer = try Demuxer(location: MediaFixtures.location(MediaFixtures.h264MP4))
        #expect(demuxer.description.streams.count == 2)
        let video = try #require(demuxer.bestStream(of: .video))
        let audio = try #require(demuxer.bestStream(of: .audio))
        #expect(demuxer.description.streams[video].codecName == "h264")
        #expect(demuxer.description.streams[audio].codecName == "aac")
        #expect(demuxer.bestStream(of: .subtitle) == nil)
        #expect(demuxer.isSeekable)
    }

    @Test func activeStreamsLimitWhichPacketsAreReturned() async throws {
        let demuxer = try Demuxer(location: MediaFixtures.location(MediaFixtures.h264MP4))
        let audio = try #require(demuxer.bestStream(of: .audio))
        demuxer.setActiveStreams([audio])
        var count = 0
        while case .packet(let packet) = demuxer.readPacket() {
            #expect(packet.streamIndex == audio)
            count += 1
        }
        #expect(count == MediaFixtures.probePacketCounts(MediaFixtures.h264MP4)[audio])
    }

    @Test func packetsCarryTimestampsKeyframeFlagsAndSizes() async throws {
        let demuxer = try Demuxer(location: MediaFixtures.location(MediaFixtures.h264MP4))
        let video = try #require(demuxer.bestStream(of: .video))
        demuxer.setActiveStreams([video])
        var packets: [Packet] = []
        while case .packet(let packet) = demuxer.readPacket() { packets.append(packet) }
        #expect(packets.count == 90)
        #expect(packets.first?.isKeyframe == true)
        #expect(packets.filter(\.isKeyframe).count == 3)
        #expect(packets.allSatisfy { $0.pts.isNumeric && $0.dts.isNumeric && $0.byteCount > 0 })
        #expect(packets.allSatisfy { abs($0.duration.seconds - 1.0 / 30) < 1e-6 })
        // B-frames: presentation order differs from decode order, but dts never goes back.
        let dts = packets.map(\.dts.seconds)
        #expect(dts == dts.sorted())
        #expect(packets.map(\.pts.seconds) != packets.map(\.pts.seconds).sorted())
    }

    @Test func seekingToZeroAfterEndOfFileReadsTheFirstVideoPacketAgain() async throws {
        for url in [MediaFixtures.h264MP4, MediaFixtures.vp9WebM, MediaFixtures.h264MKV] {
            let demuxer = try Demuxer(location: MediaFixtures.location(url))
            let video = try #require(demuxer.bestStream(of: .video))
            func firstVideoPacket() -> Packet? {
                while case .packet(let packet) = demuxer.readPacket() {
                    if packet.streamIndex == video { return packet }
                }
                return nil
            }
            let first = try #require(firstVideoPacket())
            while case .packet = demuxer.readPacket() {}
            #expect(demuxer.seek(to: .zero, earliest: .negativeInfinity, latest: .positiveInfinity))
            let again = try #require(firstVideoPacket())
            #expect(again.pts == first.pts, "\(url.lastPathComponent)")
            #expect(again.byteCount == first.byteCount && again.bytes == first.bytes)
        }
    }

    @Test func aKeyframeSeekLandsOnAKeyframeAtOrBeforeTheTarget() async throws {
        let demuxer = try Demuxer(location: MediaFixtures.location(MediaFixtures.h264MP4))
        let video = try #require(demuxer.bestStream(of: .video))
        demuxer.setActiveStreams([video])
        let target = CMTime(value: 1500, timescale: 1000)
        #expect(demuxer.seek(to: target, earliest: .negativeInfinity, latest: target))
        guard case .packet(let packet) = demuxer.readPacket() else {
            Issue.record("no packet")
            return
        }
        #expect(packet.isKeyframe)
        #expect(packet.pts <= target)
        #expect(abs(packet.pts.seconds - 1.0) < 0.001)
    }

    @Test func openingFailuresAreClassified() async throws {
        let missing = MediaFixtures.directory.appendingPathComponent("missing.mp4")
        #expect(throws: MediaFailure.fileNotFound) {
            try Demuxer(location: MediaFixtures.location(missing))
        }
        let text = MediaFixtures.directory.appendingPathComponent("notes.mp4")
        try Data(repeating: 0x41, count: 4096).write(to: text)
        #expect(throws: MediaFailure.notMediaFile) {
            try Demuxer(location: MediaFixtures.location(text))
        }
    }

    @Test func anAbortedInterruptCancelsReading() async throws {
        let interrupt = InterruptDeadline()
        let demuxer = try Demuxer(
            location: MediaFixtures.location(MediaFixtures.h264MP4), interrupt: interrupt)
        interrupt.abort()
        // Local reads may be served from FFmpeg's buffer first, but must stop soon.
        var outcome: DemuxResult = .endOfFile
        for _ in 0..<1000 {
            outcome = demuxer.readPacket()
            if case .packet = outcome { continue }
            break
        }
        guard case .failure(let failure) = outcome else {
            Issue.record("expected a failure, got \(outcome)")
            return
        }
        #expect(failure == .cancelled)
    }

    @Test func packetsMadeFromBytesKeepTheirPayload() async throws {
        let packet = try #require(
            Packet(bytes: [1, 2, 3], streamIndex: 4, pts: 90, isKeyframe: true))
        #expect(packet.bytes == [1, 2, 3])
        #expect(packet.byteCount == 3)
        #expect(packet.streamIndex == 4)
        #expect(packet.pts == CMTime(value: 90, timescale: 90_000))
        #expect(packet.duration == .invalid)
        #expect(packet.isKeyframe)
        let untimed = try #require(Packet(bytes: [], streamIndex: 0))
        #expect(!untimed.pts.isValid)
    }
}
