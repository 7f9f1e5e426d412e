// Playhead: tests for ClockDrivenAudioOutput and RecordingAudioOutput under a ManualClock.
import OpenAVFoundation
import PlayheadTestSupport
import Testing

extension EngineTests {
    @Suite struct ClockDrivenAudioOutputTests {
        let stereo = AudioOutputFormat(sampleRate: 48_000, channelCount: 2)

        /// A ring holding `seconds` of a constant signal, starting at `media`, played at `rate`.
        func filledRing(seconds: Double, media: CMTime, rate: Double = 1) -> AudioRingBuffer {
            let frames = Int(seconds * 48_000)
            let ring = AudioRingBuffer(format: stereo, capacityFrames: frames)
            let chunk = 960
            for index in 0..<(frames / chunk) {
                let offset = CMTime(value: Int64(index * chunk), timescale: 48_000)
                let chunkMedia = media + CMTimeMultiplyByFloat64(offset, multiplier: rate)
                #expect(
                    ring.write(
                        Array(repeating: 0.25, count: chunk * 2), media: chunkMedia, rate: rate))
            }
            return ring
        }

        @Test func advancingTheManualClockRendersExactlyTheElapsedFrames() async throws {
            let clock = ManualClock(now: 100)
            let output = ClockDrivenAudioOutput(clock: clock)
            let ring = filledRing(seconds: 2, media: ms(5_000))
            #expect(try output.open(format: stereo, source: ring) == stereo)
            output.start()
            #expect(output.waitUntilCaughtUp())
            #expect(output.renderedFrameCount == 0)
            clock.advance(by: 0.5)
            #expect(output.waitUntilCaughtUp())
            #expect(output.renderedFrameCount == 24_000)
            #expect(ring.renderedFrameCount == 24_000)
            for _ in 0..<7 { clock.advance(by: 0.001) }
            #expect(output.waitUntilCaughtUp())
            #expect(output.renderedFrameCount == 24_336)
            output.stop()
            clock.advance(by: 1)
            #expect(output.renderedFrameCount == 24_336)
            output.close()
        }

        @Test(arguments: [0.5, 1.0, 2.0])
        func theAudioClockFollowsTheManualClock(rate: Double) async throws {
            let clock = ManualClock(now: 10)
            let output = ClockDrivenAudioOutput(clock: clock)
            let ring = filledRing(seconds: 2, media: ms(60_000), rate: rate)
            _ = try output.open(format: stereo, source: ring)
            output.start()
            output.waitUntilCaughtUp()
            for step in 1...20 {
                clock.advance(by: 0.025)
                output.waitUntilCaughtUp()
                let expected =
                    ms(60_000)
                    + CMTime(seconds: Double(step) * 0.025 * rate, preferredTimescale: 1_000_000)
                #expect(isClose(ring.audioClock(atHost: clock.now), expected, tolerance: 1e-8))
            }
            output.close()
        }

        @Test func theReportedLatencyDelaysTheAudioClock() async throws {
            let clock = ManualClock()
            let output = ClockDrivenAudioOutput(clock: clock, outputLatency: 0.1)
            let ring = filledRing(seconds: 1, media: .zero)
            _ = try output.open(format: stereo, source: ring)
            #expect(ring.outputLatency == 0.1)
            output.start()
            clock.advance(by: 0.05)
            output.waitUntilCaughtUp()
            #expect(ring.audioClock(atHost: clock.now) == .zero)
            clock.advance(by: 0.1)
            output.waitUntilCaughtUp()
            #expect(isClose(ring.audioClock(atHost: clock.now), ms(50), tolerance: 1e-8))
            output.close()
        }

        @Test func restartingContinuesCountingFrames() async throws {
            let clock = ManualClock()
            let output = ClockDrivenAudioOutput(clock: clock)
            _ = try output.open(format: stereo, source: filledRing(seconds: 1, media: .zero))
            output.start()
            clock.advance(by: 0.1)
            output.waitUntilCaughtUp()
            output.stop()
            clock.advance(by: 5)
            output.start()
            clock.advance(by: 0.1)
            output.waitUntilCaughtUp()
            #expect(output.renderedFrameCount == 9_600)
            output.close()
        }

        @Test func theRecordingOutputKeepsWhatWasHeardIncludingGaps() async throws {
            let clock = ManualClock()
            let output = RecordingAudioOutput(clock: clock)
            let mono = AudioOutputFormat(sampleRate: 1_000, channelCount: 1)
            let ring = AudioRingBuffer(format: mono, capacityFrames: 1_000)
            ring.write(Array(repeating: 1, count: 100), media: .zero)
            _ = try output.open(format: mono, source: ring)
            output.start()
            clock.advance(by: 0.2)
            output.waitUntilCaughtUp()
            ring.write(Array(repeating: 0.5, count: 50), media: ms(100))
            clock.advance(by: 0.1)
            output.waitUntilCaughtUp()
            output.stop()
            let samples = output.samples
            #expect(output.frameCount == 300)
            try #require(samples.count >= 300)
            #expect(samples[0..<100].allSatisfy { $0 == 1 })
            #expect(samples[200..<250].allSatisfy { $0 == 0.5 })
            #expect(output.silentRanges(minimumFrames: 10) == [100..<200, 250..<300])
            #expect(ring.underrunCount > 0)
            output.close()
        }
    }
}
