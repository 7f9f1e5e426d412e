// Playhead: 5.1 sources on the sound server: each channel reaches its own speaker of a 5.1
// sink, and a stereo sink gets FFmpeg's downmix (the stream itself is stereo).
import FFmpegBridge
import Foundation
import PlayheadTestSupport
import Testing

@testable import OpenAVFoundation
@testable import OpenAVKit

private let realTimeTestsEnabled = ProcessInfo.processInfo.environment["PLAYHEAD_REALTIME_TESTS"] != nil

/// Tones of 300, 400, 500, 100 (LFE), 600 and 700 Hz on FL, FR, FC, LFE, BL and BR.
private let toneOfChannel: [Double] = [300, 400, 500, 100, 600, 700]

private func surroundClip() throws -> URL {
    var arguments: [String] = []
    for frequency in toneOfChannel {
        arguments += ["-f", "lavfi", "-i", "sine=f=\(Int(frequency)):d=3:sample_rate=48000"]
    }
    arguments += [
        "-filter_complex", "join=inputs=6:channel_layout=5.1:map=0.0-FL|1.0-FR|2.0-FC|3.0-LFE|4.0-BL|5.0-BR[a]", "-map", "[a]", "-c:a", "pcm_s16le",
    ]
    return try GeneratedMedia.url(named: "surround-tones", fileExtension: "mka", ffmpeg: arguments)
}

/// The frequency of channel `channel` of interleaved `samples`, from its zero crossings in the
/// middle of the recording's loud part.
private func frequency(of channel: Int, in samples: [Float], channels: Int, sampleRate: Int) -> Double {
    let frames = samples.count / channels
    let loud = (0..<frames).filter { abs(samples[$0 * channels + channel]) > 0.01 }
    guard let first = loud.first, let last = loud.last, last - first > sampleRate / 2 else { return 0 }
    let start = first + (last - first) / 4, end = last - (last - first) / 4
    var crossings = 0
    for frame in (start + 1)..<end where (samples[(frame - 1) * channels + channel] < 0) != (samples[frame * channels + channel] < 0) {
        crossings += 1
    }
    return Double(crossings) / 2 / (Double(end - start) / Double(sampleRate))
}

@MainActor
@Suite struct PulseSurroundTests {
    @Test(.enabled(if: realTimeTestsEnabled))
    func eachChannelOfA51SourceReachesItsSpeakerOnASoundServer() async throws {
        let clip = try surroundClip()
        let server = try await offPool { try PulseAudioServer(channels: 6) }
        defer { server.stop() }
        let recording = try await offPool { try MonitorRecording(server: server, channels: 6) }
        let output = PulseAudioOutput(server: server.address, buffer: PulseAudioOutput.desktopBuffer)
        let item = AVPlayerItem(url: clip)
        let player = AVPlayer(environment: PlaybackEnvironment(makeAudioOutput: { output }, videoSinks: VideoSinks()), playerItem: item)
        player.play()
        let deadline = Date().addingTimeInterval(10)
        while item.currentTime().seconds < 2, Date() < deadline { try await Task.sleep(nanoseconds: 20_000_000) }
        let channels = engine(of: player)?.pipeline?.ring?.format.channelCount
        #expect(channels == 6, "the ring carries all six channels")
        player.pause()
        let heard = recording.stop()
        player.replaceCurrentItem(with: nil)
        for (channel, tone) in toneOfChannel.enumerated() {
            let measured = frequency(of: channel, in: heard.samples, channels: 6, sampleRate: recording.sampleRate)
            #expect(abs(measured - tone) < tone * 0.05, "channel \(channel): \(measured) Hz, wanted \(tone)")
        }
    }

    @Test(.enabled(if: realTimeTestsEnabled))
    func aStereoSinkGetsFFmpegsDownmixOnASoundServer() async throws {
        let clip = try surroundClip()
        let server = try await offPool { try PulseAudioServer() }
        defer { server.stop() }
        let output = PulseAudioOutput(server: server.address, buffer: PulseAudioOutput.desktopBuffer)
        let item = AVPlayerItem(url: clip)
        let player = AVPlayer(environment: PlaybackEnvironment(makeAudioOutput: { output }, videoSinks: VideoSinks()), playerItem: item)
        player.play()
        let deadline = Date().addingTimeInterval(10)
        while item.currentTime().seconds < 0.5, Date() < deadline { try await Task.sleep(nanoseconds: 20_000_000) }
        // The sink has two channels: the output asks for two, and the resampler mixes down.
        // (Read before the expectation: the macro's own reading of this optional chain gave 0.)
        let channels = engine(of: player)?.pipeline?.ring?.format.channelCount
        #expect(channels == 2)
        player.replaceCurrentItem(with: nil)
    }
}

/// The current item's engine.
@MainActor
private func engine(of player: AVPlayer) -> ItemPlayback? { player.state.withLock { $0.engine } }
