// Playhead: a source that keeps answering "try again" (EAGAIN) times out instead of spinning.
import Foundation
import OpenCoreMedia
import Testing

@testable import FFmpegBridge

@Suite struct DemuxerRetryTests {
    @Test func endlessTryAgainTimesOutWithinTheReadTimeout() throws {
        // A second: long enough for the open itself on a loaded machine (each blocking phase
        // has the same time-out), short for the retries.
        let demuxer = try Demuxer(location: MediaFixtures.location(MediaFixtures.h264MP4), timeout: 1)
        var attempts = 0
        let started = Date()
        let result = demuxer.readPacket(readingWith: {
            attempts += 1
            // A guard for the old behaviour (the deadline re-armed on every retry): give up
            // after far more retries than a second of 1 ms sleeps can hold.
            return attempts > 20_000 ? FFmpegError.exit : FFmpegError.tryAgain
        })
        guard case .failure(.timedOut) = result else {
            Issue.record("expected a time-out, got \(result)")
            return
        }
        #expect(attempts < 20_000, "the retries postponed the deadline")
        #expect(Date().timeIntervalSince(started) >= 1)
    }

    @Test func aPacketAfterSomeRetriesIsReadNormally() throws {
        let demuxer = try Demuxer(location: MediaFixtures.location(MediaFixtures.h264MP4), timeout: 5)
        var attempts = 0
        let result = demuxer.readPacket(readingWith: {
            attempts += 1
            return attempts < 5 ? FFmpegError.tryAgain : demuxer.readNextFrame()
        })
        guard case .packet(let packet) = result else {
            Issue.record("expected a packet, got \(result)")
            return
        }
        #expect(packet.byteCount > 0)
        #expect(attempts == 5)
    }
}
