// Playhead: a volume change and a mute on a real PulseAudio server are heard at once, not after
// the audio the server already holds at the old volume has played (150 ms on a desktop, 450 ms
// on a machine that stalls). The chirp's level is read from the sink's monitor, 10 ms at a time.
import Foundation
import PlayheadTestSupport
import Testing

@testable import OpenAVFoundation
@testable import OpenAVKit

@MainActor
@Suite struct PulseVolumeTests {
    /// A change measured: to a new volume (0 for a mute), with the queue the stream keeps.
    struct VolumeChange: Sendable, CustomTestStringConvertible {
        var buffer: Double, mutes: Bool
        var testDescription: String { "\(mutes ? "a mute" : "volume 1 to 0.25") with \(buffer) s queued" }
    }

    @Test(
        .enabled(if: ProcessInfo.processInfo.environment["PLAYHEAD_REALTIME_TESTS"] != nil),
        arguments: [
            VolumeChange(buffer: PulseAudioOutput.desktopBuffer, mutes: false),
            VolumeChange(buffer: PulseAudioOutput.stallProneBuffer, mutes: false),
            VolumeChange(buffer: PulseAudioOutput.stallProneBuffer, mutes: true),
        ])
    func aVolumeChangeIsHeardWithinAnEighthOfASecondOnASoundServer(_ change: VolumeChange) async throws {
        let rig = try await ChirpRig(buffer: change.buffer)
        defer { rig.server.stop() }
        let player = rig.player
        player.play()
        await rig.waitForMedia(atLeast: 1.5)
        let changedAt = SystemHostClock.shared.now
        if change.mutes { player.isMuted = true } else { player.volume = 0.25 }
        await rig.waitForMedia(atLeast: 2.5)
        let heard = try await rig.stop()
        let levels = Self.levels(heard.samples, sampleRate: rig.recording.sampleRate, startHost: heard.startHost)
        // The chirp's level is 0.5 / √2 at volume 1, a quarter of that at 0.25, 0 muted.
        let full = 0.5 / 2.0.squareRoot(), after = change.mutes ? 0 : full / 4
        let before = levels.filter { $0.host > changedAt - 0.6 && $0.host < changedAt - 0.05 }.map(\.level)
        #expect(!before.isEmpty && before.allSatisfy { abs($0 - full) < 0.05 }, "the level before: \(before.prefix(5))")
        // The first 10 ms at the new level, and nothing at the old one after it.
        let middle = (full + after) / 2
        let changed = try #require(levels.first { $0.host > changedAt && $0.level < middle }?.host, "never heard")
        let late = changed - changedAt
        print("\(change.testDescription): heard \(Int((late * 1000).rounded())) ms after the call")
        #expect(late < 0.12, "the old volume went on for \(Int((late * 1000).rounded())) ms")
        let lasting = levels.filter { $0.host > changed + 0.02 && $0.host < changedAt + 0.8 }.map(\.level)
        #expect(lasting.allSatisfy { abs($0 - after) < 0.03 }, "the new level holds: \(lasting.filter { abs($0 - after) >= 0.03 }.prefix(5))")
    }

    /// (host time, RMS level) of each 10 ms of the recording.
    static func levels(_ samples: [Float], sampleRate: Int, startHost: Double) -> [(host: Double, level: Double)] {
        let window = sampleRate / 100
        return stride(from: 0, to: samples.count - window + 1, by: window).map { start in
            let power = samples[start..<(start + window)].reduce(0.0) { $0 + Double($1) * Double($1) }
            return (startHost + (Double(start) + Double(window) / 2) / Double(sampleRate), (power / Double(window)).squareRoot())
        }
    }
}
