// Playhead: a call on a real PulseAudio server that runs `module-role-cork` (as Debian's and
// Ubuntu's default configuration does) pauses the player, as an audio session interruption
// does on Apple platforms, and its end resumes it: the server muted the stream already, and a
// player that played on would lose what played meanwhile. The "call" is `pacat` with the
// phone role; the player's stream carries the video role the module corks.
import Foundation
import PlayheadTestSupport
import Testing

@testable import OpenAVFoundation
@testable import OpenAVKit

@MainActor
@Suite struct PulseCorkRequestTests {
    @Test(.enabled(if: ProcessInfo.processInfo.environment["PLAYHEAD_REALTIME_TESTS"] != nil))
    func aCallPausesThePlayerAndItsEndResumesItOnASoundServer() async throws {
        let clip = try GeneratedMedia.url(
            named: "tone-20s", fileExtension: "mkv",
            ffmpeg: ["-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=20", "-c:a", "pcm_s16le"])
        let server = try await offPool { try PulseAudioServer() }
        defer { server.stop() }
        try await offPool { try server.loadModule("module-role-cork") }
        let output = PulseAudioOutput(server: server.address, buffer: PulseAudioOutput.desktopBuffer)
        let player = AVPlayer(
            environment: PlaybackEnvironment(makeAudioOutput: { output }, videoSinks: VideoSinks()),
            playerItem: AVPlayerItem(url: clip))
        let item = try #require(player.currentItem)
        let reasons = Locked<[AVPlayer.RateDidChangeReason?]>([])
        let token = NotificationCenter.default.addObserver(
            forName: AVPlayer.rateDidChangeNotification, object: player, queue: nil
        ) { note in
            reasons.withLock { $0.append(note.userInfo?[AVPlayer.rateDidChangeReasonKey] as? AVPlayer.RateDidChangeReason) }
        }
        defer { NotificationCenter.default.removeObserver(token) }
        player.play()
        await waitInRealTime(seconds: 10) { item.currentTime().seconds >= 0.5 }
        #expect(item.currentTime().seconds >= 0.5, "playing on the server")
        let role = try Subprocess.run(
            try Subprocess.tool(named: "pactl"), ["--server=\(server.address)", "list", "sink-inputs"], limit: 5)
        #expect(role.standardOutput.contains("media.role = \"video\""), "\(role.standardOutput)")

        // The call starts: the server asks the player's stream to pause.
        let call = try SpawnedProcess(
            try Subprocess.tool(named: "pacat"),
            ["--server=\(server.address)", "--property=media.role=phone", "/dev/zero"])
        defer { call.terminate() }
        await waitInRealTime(seconds: 5) { player.rate == 0 }
        #expect(player.rate == 0 && player.timeControlStatus == .paused, "paused for the call")
        let stood = item.currentTime()
        try await Task.sleep(nanoseconds: 300_000_000)
        #expect(item.currentTime() == stood, "time stands during the call")

        // The call ends: the player plays on from where it stood.
        call.terminate()
        await waitInRealTime(seconds: 5) { player.rate == 1 }
        #expect(player.rate == 1)
        await waitInRealTime(seconds: 5) { item.currentTime() > stood + CMTime(value: 1, timescale: 5) }
        #expect(item.currentTime() > stood, "time runs again")
        #expect(reasons.withLock { $0 } == [.setRateCalled, .audioSessionInterrupted, .audioSessionInterrupted])
        player.replaceCurrentItem(with: nil)
    }
}

/// Waits (real time, the main queue free) until `condition` holds or `seconds` pass.
@MainActor
private func waitInRealTime(seconds: Double, _ condition: @MainActor () -> Bool) async {
    let deadline = Date().addingTimeInterval(seconds)
    while !condition() && Date() < deadline {
        try? await Task.sleep(nanoseconds: 10_000_000)
    }
}
