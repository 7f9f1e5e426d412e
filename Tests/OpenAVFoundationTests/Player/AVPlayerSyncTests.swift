// Playhead: audio and video stay in sync during real-time playback (flash-and-beep smoke test).
import FFmpegBridge
import Foundation
import PlayheadTestSupport
import Testing

@testable import OpenAVFoundation

/// An audio output that renders like `ClockDrivenAudioOutput` and notes the host time at which
/// each beep (a burst of non-silent samples after silence) starts.
final class BeepTimingOutput: AudioOutput {
    /// Stands between the output and the real source, scanning what was rendered.
    private final class Tap: AudioRenderSource {
        let source: any AudioRenderSource
        let sampleRate: Double
        let channels: Int
        let onsets = Locked<[Double]>([])
        let silentRun = Locked(Int.max)

        init(source: any AudioRenderSource, format: AudioOutputFormat) {
            self.source = source
            sampleRate = Double(format.sampleRate)
            channels = format.channelCount
        }

        func render(into buffer: UnsafeMutableBufferPointer<Float>, hostTime: Double) {
            source.render(into: buffer, hostTime: hostTime)
            let frames = buffer.count / channels
            silentRun.withLock { run in
                for frame in 0..<frames {
                    if abs(buffer[frame * channels]) > 0.05 {
                        // A beep starts after at least 0.2 s of silence.
                        if run > Int(sampleRate * 0.2) {
                            let onset = hostTime + Double(frame) / sampleRate
                            onsets.withLock { $0.append(onset) }
                        }
                        run = 0
                    } else if run < Int.max {
                        run += 1
                    }
                }
            }
        }

        func setOutputLatency(_ seconds: Double) { source.setOutputLatency(seconds) }
    }

    private let output = ClockDrivenAudioOutput(clock: SystemHostClock.shared, name: "beeps")
    private let tap = Locked<Tap?>(nil)

    var name: String { output.name }
    var outputLatency: Double { output.outputLatency }

    func open(format: AudioOutputFormat, source: any AudioRenderSource) throws -> AudioOutputFormat {
        let tap = Tap(source: source, format: format)
        self.tap.withLock { $0 = tap }
        return try output.open(format: format, source: tap)
    }

    func start() { output.start() }
    func stop() { output.stop() }
    func close() { output.close() }

    /// Host times at which beeps started to be heard.
    var beepOnsets: [Double] { tap.withLock { $0 }?.onsets.withLock { $0 } ?? [] }
}

@MainActor
@Suite struct AVPlayerSyncTests {
    /// True for a mostly white frame.
    static func isFlash(_ frame: VideoFrame) -> Bool {
        let bytes = frame.packedBytes()
        let luma = bytes.prefix(frame.width * frame.height)
        return luma.reduce(0) { $0 + Int($1) } / max(1, luma.count) > 128
    }

    /// Real time, so it runs in the quiet real-time pass of `make test`.
    @Test(.enabled(if: realTimeTestsEnabled))
    func flashesAreShownWhenTheirBeepsAreHeardInRealTime() async throws {
        let url = try LipSyncMedia.flashAndBeep()
        let audio = BeepTimingOutput()
        let sink = RecordingVideoSink()
        let sinks = VideoSinks()
        sinks.add(sink)
        let environment = PlaybackEnvironment(makeAudioOutput: { audio }, videoSinks: sinks)
        let item = AVPlayerItem(url: url)
        let player = AVPlayer(environment: environment, playerItem: item)
        let log = NotificationLog([AVPlayerItem.didPlayToEndTimeNotification], object: item)
        player.play()
        await waitUntil(timeout: 8, "end") { log.count(AVPlayerItem.didPlayToEndTimeNotification) == 1 }
        // The first flash is shown before playback starts; compare the ones at 1 s and 2 s.
        let flashes = sink.frames.filter { Self.isFlash($0.frame) && $0.pts.seconds > 0.5 }
        let beeps = audio.beepOnsets
        #expect(flashes.map { millis($0.pts) } == [1000, 2000])
        #expect(beeps.count == 3, "beeps at 0, 1 and 2 s: \(beeps)")
        guard flashes.count == 2, beeps.count == 3 else { return }
        for (flash, beep) in zip(flashes, beeps.suffix(2)) {
            let offset = flash.host - beep
            #expect(abs(offset) <= 0.04, "flash at \(flash.pts.seconds) s shown \(offset * 1000) ms after its beep")
        }
        #expect(abs((beeps[2] - beeps[1]) - 1) < 0.01, "audio plays in real time")
    }
}
