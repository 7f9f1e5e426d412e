// Playhead: after a seek the audio of the new position goes into the ring at once, though the
// ring still holds the old position's audio (the output skips that at its next callback): the
// audio thread counts only its own generation's audio against the ring's fill target. It
// once counted the old audio too, found the ring full and slept until the clock moved on (up
// to 20 ms: the output's next callback could find the ring empty), and on a clock that moves
// only when the ring is full it never came. Played over a loopback server
// on a manual clock (`OverLoopback`, the serial pass).
import Foundation
import PlayheadTestSupport
import Testing

@testable import OpenAVFoundation

@MainActor
@Suite(.enabled(if: ProcessInfo.processInfo.environment["PLAYHEAD_REALTIME_TESTS"] != nil))
struct SeekRingRefillOverLoopbackTests {
    @Test func aSeekWithAFullRingWritesTheNewAudioBeforeTheClockMoves() async throws {
        let server = try networkMediaServer()
        defer { server.stop() }
        let rig = try await LoopbackPlaybackRig(server, path: "progressive.mp4")
        await rig.play(for: 1)
        let ring = rig.ring
        // The audio thread's fill target (the ring's further room is for re-made audio).
        let target = Int(Double(ring.format.sampleRate) * ItemPlayback.ringFillSeconds)
        // The clock stands: the audio thread fills the ring to its target and waits.
        var settled = PatientDeadline(seconds: 20)
        var last = -1
        while ring.bufferedFrames != last, !settled.hasPassed() {
            last = ring.bufferedFrames
            await mainQueueSleep(nanoseconds: 200_000_000)
        }
        let old = ring.bufferedFrames
        #expect(old > target / 2, "the ring is full of the old position's audio: \(old) of \(target)")
        let landed = Locked<Bool?>(nil)
        rig.player.seek(to: CMTime(seconds: 3, preferredTimescale: 1000), toleranceBefore: .zero, toleranceAfter: .zero) {
            done in landed.withLock { $0 = done }
        }
        await waitUntil("the seek lands with the clock standing") { landed.withLock { $0 } != nil }
        // Still without the clock moving: the new position's audio fills up to the target.
        await waitUntil("the new audio written") { ring.bufferedFrames - old >= target * 3 / 4 }
        #expect(ring.bufferedFrames - old >= target * 3 / 4, "\(ring.bufferedFrames - old) new frames: \(rig.state())")
        #expect(rig.clock.now == 1, "the clock did not move")
        // Played on, the new position is heard without a silence.
        let heard = rig.output.samples.count
        await rig.play(for: 0.5)
        let gaps = rig.output.silentRanges(minimumFrames: 48).filter { $0.lowerBound >= heard }
        #expect(gaps.isEmpty, "\(gaps)")
        #expect(abs(rig.player.currentTime().seconds - 3.5) < 0.03, "\(rig.player.currentTime().seconds)")
        rig.player.replaceCurrentItem(with: nil)
    }
}
