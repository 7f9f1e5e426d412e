// Playhead: a seek on a real PulseAudio server is heard at once: the audio of the old position
// stops within a few milliseconds of the call, not after the part the server's sink had
// already mixed has played (about 240 ms with the 450 ms queue of a machine that stalls, before
// the stream was corked around its flush), and the new position follows within an eighth of a
// second, not after the silence the server was given while it was decoded.
import Foundation
import PlayheadTestSupport
import Testing

@testable import OpenAVFoundation
@testable import OpenAVKit

@MainActor
@Suite struct PulseSeekTests {
    @Test(
        .enabled(if: ProcessInfo.processInfo.environment["PLAYHEAD_REALTIME_TESTS"] != nil),
        arguments: [PulseAudioOutput.desktopBuffer, PulseAudioOutput.stallProneBuffer])
    func theOldPositionStopsAtASeekOnASoundServer(buffer: Double) async throws {
        let rig = try await ChirpRig(buffer: buffer)
        defer { rig.server.stop() }
        let (player, item) = (rig.player, rig.item)
        player.play()
        await rig.waitForMedia(atLeast: 1.5)
        let calledAt = SystemHostClock.shared.now
        let sought = await player.seek(
            to: CMTime(seconds: 4, preferredTimescale: 600), toleranceBefore: .zero, toleranceAfter: .zero)
        #expect(sought)
        // The item's time as it runs on: it is the time of the sound being heard.
        var reported: [(host: Double, media: Double)] = []
        while item.currentTime().seconds < 4.8, SystemHostClock.shared.now - calledAt < 10 {
            reported.append((SystemHostClock.shared.now, item.currentTime().seconds))
            try? await Task.sleep(nanoseconds: 10_000_000)
        }
        let heard = try await rig.stop()
        let points = PulseRateChangeTests.mediaOverHost(
            heard.samples, sampleRate: rig.recording.sampleRate, startHost: heard.startHost)
        // The old position's chirp reads about 1.5 s of media, the new one from 4 s on. A 10 ms
        // window that straddles silence and sound (or the two positions, or the pause at the
        // end) can read as anything: a position counts where two windows in a row read it.
        let old = { (point: (host: Double, media: Double)) in point.media > 1 && point.media < 2.2 }
        let lastOld = try #require(
            zip(points, points.dropFirst()).filter { old($0) && old($1) && $1.host - $0.host < 0.015 }
                .map(\.1.host).filter { $0 < calledAt + 0.6 }.max())
        let firstNew = try #require(points.first { $0.media > 3.95 && $0.media < 4.3 }?.host)
        print("seek with \(buffer) s queued: the old position heard \(Int(((lastOld - calledAt) * 1000).rounded())) ms after the call, the new one from \(Int(((firstNew - calledAt) * 1000).rounded())) ms")
        #expect(lastOld - calledAt < 0.03, "the old position went on for \(lastOld - calledAt) s")
        // The server asks for its whole queue as the flush empties it, before the new position
        // is decoded; the silence it is answered with is written over by the new position's
        // first audio (before: ~100 ms with 150 ms queued, ~250 ms with 450 ms; now 70-90 ms).
        #expect(firstNew - calledAt < 0.13, "the new position came \(firstNew - calledAt) s after the call")
        // From the new position on, the heard media runs at the rate of play.
        let after = PulseRateChangeTests.line(points.filter { $0.host > firstNew + 0.1 && $0.host < firstNew + 0.6 })
        #expect(abs(after.slope - 1) < 0.1, "media per second after the seek: \(after.slope)")
        // And it starts at the position asked for: the first audio written over the silence
        // lost none of its beginning to what the server had already played.
        let startHeard = after.intercept + after.slope * firstNew
        print("the new position's sound starts at \(startHeard) s of media")
        #expect(abs(startHeard - 4) < 0.03, "the new position's sound starts at \(startHeard) s")
        // The clock the picture follows says what is heard: the audio written back over the
        // silence is heard that much sooner, and the clock knows it.
        let clock = PulseRateChangeTests.line(reported.filter { $0.host > firstNew + 0.1 && $0.host < firstNew + 0.6 })
        let host = firstNew + 0.35
        let skew = (clock.intercept + clock.slope * host) - (after.intercept + after.slope * host)
        print("the item's time against the sound heard after the seek: \(Int((skew * 1000).rounded())) ms")
        #expect(abs(skew) < 0.03, "the item's time is \(skew) s off the sound")
    }
}
