// Playhead: the demux thread's read-ahead while an exact seek lands (`LandingReadAhead`).
import FFmpegBridge
import Foundation
import Testing

@testable import OpenAVFoundation

@Suite struct LandingReadAheadTests {
    static let video = 0
    static let audio = 1

    /// A packet of `stream` at `frame` / 30 s.
    static func packet(_ frame: Int64, stream: Int = video) throws -> Packet {
        try #require(Packet(bytes: [0], streamIndex: stream, pts: frame, timeBase: (1, 30)))
    }

    /// Notes video packets `frames` (30 fps) and returns whether reading then holds.
    static func holds(
        after frames: ClosedRange<Int64>, target: CMTime?, landed: Bool = false, now: Double = 0
    ) throws -> Bool {
        var readAhead = LandingReadAhead()
        readAhead.start(exactTarget: target)
        for frame in frames { readAhead.note(try packet(frame), videoStream: video) }
        return readAhead.holds(landed: landed, now: now)
    }

    @Test func holdsOnlyOnceVideoIsWellPastAnUnlandedExactTarget() throws {
        let target = CMTime(value: 1, timescale: 1)  // frame 30
        // 24 packets past the target (frames 31–54, 0.8 s) and over 0.5 s ahead: hold.
        #expect(try Self.holds(after: 0...54, target: target))
        // Only 23 packets past it: keep reading, whatever the time span.
        #expect(try !Self.holds(after: 0...53, target: target))
        // Landed, or not an exact seek: read ahead as usual.
        #expect(try !Self.holds(after: 0...54, target: target, landed: true))
        #expect(try !Self.holds(after: 0...54, target: nil))
    }

    @Test func atALowFrameRateTheTimeMarginDecides() throws {
        var readAhead = LandingReadAhead()
        readAhead.start(exactTarget: CMTime(value: 1, timescale: 1))
        // 50 packets 10 ms apart past the target: still within 0.5 s of it.
        for index in 1...50 {
            let packet = try #require(
                Packet(bytes: [0], streamIndex: Self.video, pts: 100 + Int64(index), timeBase: (1, 100)))
            readAhead.note(packet, videoStream: Self.video)
        }
        let held1 = readAhead.holds(landed: false, now: 0)
        #expect(!held1)
    }

    @Test func audioPacketsDoNotCount() throws {
        var readAhead = LandingReadAhead()
        readAhead.start(exactTarget: CMTime(value: 1, timescale: 1))
        for frame in Int64(0)...90 { readAhead.note(try Self.packet(frame, stream: Self.audio), videoStream: Self.video) }
        let held2 = readAhead.holds(landed: false, now: 0)
        #expect(!held2)
    }

    @Test func aSeekThatNeverLandsIsHeldForAtMostOneSecond() throws {
        var readAhead = LandingReadAhead()
        readAhead.start(exactTarget: CMTime(value: 1, timescale: 1))
        for frame in Int64(0)...60 { readAhead.note(try Self.packet(frame), videoStream: Self.video) }
        let held3 = readAhead.holds(landed: false, now: 10.0)
        #expect(held3)
        let held4 = readAhead.holds(landed: false, now: 10.9)
        #expect(held4)
        let held5 = readAhead.holds(landed: false, now: 11.0)
        #expect(!held5)
        // Given up for this seek: it stays given up.
        let held6 = readAhead.holds(landed: false, now: 11.1)
        #expect(!held6)
        #expect(!readAhead.isWatching)
        // A new seek watches again.
        readAhead.start(exactTarget: CMTime(value: 1, timescale: 1))
        for frame in Int64(0)...60 { readAhead.note(try Self.packet(frame), videoStream: Self.video) }
        let held7 = readAhead.holds(landed: false, now: 20.0)
        #expect(held7)
    }
}
