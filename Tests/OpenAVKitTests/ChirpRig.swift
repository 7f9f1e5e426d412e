// Playhead: a player on a real PulseAudio server playing a chirp whose pitch tells the media
// time, with the sink's monitor recorded: what the rate-change and seek tests measure with.
import Foundation
import PlayheadTestSupport

@testable import OpenAVFoundation
@testable import OpenAVKit

/// A player on a PulseAudio server the rig starts, with the sink's monitor recorded, about to
/// play a 6 s chirp (300 Hz rising 1000 Hz per second of media).
@MainActor
struct ChirpRig {
    let server: PulseAudioServer
    let recording: MonitorRecording
    let player: AVPlayer
    let item: AVPlayerItem

    init(buffer: Double = PulseAudioOutput.desktopBuffer) async throws {
        let clip = try GeneratedMedia.url(
            named: "chirp-6s", fileExtension: "mkv",
            ffmpeg: [
                "-f", "lavfi", "-i",
                "aevalsrc=0.5*sin(2*PI*(\(PulseRateChangeTests.baseFrequency)*t+\(PulseRateChangeTests.sweep / 2)*t*t)):s=48000:d=6",
                "-c:a", "pcm_s16le",
            ])
        server = try await offPool { try PulseAudioServer() }
        recording = try await offPool { [server] in try MonitorRecording(server: server) }
        let output = PulseAudioOutput(server: server.address, buffer: buffer)
        let environment = PlaybackEnvironment(makeAudioOutput: { output }, videoSinks: VideoSinks())
        item = AVPlayerItem(url: clip)
        player = AVPlayer(environment: environment, playerItem: item)
    }

    /// Waits (10 s at most) until the item's time reaches `seconds`.
    func waitForMedia(atLeast seconds: Double) async {
        let deadline = Date().addingTimeInterval(10)
        while item.currentTime().seconds < seconds, Date() < deadline {
            try? await Task.sleep(nanoseconds: 10_000_000)
        }
    }

    /// Pauses, lets the last sound reach the monitor, and returns what it heard.
    func stop() async throws -> (samples: [Float], startHost: Double) {
        player.pause()
        try await Task.sleep(nanoseconds: 200_000_000)
        let heard = recording.stop()
        player.replaceCurrentItem(with: nil)
        return heard
    }
}
