// Playhead: tests for the audio clock AudioRingBuffer publishes from its render callback.
import OpenAVFoundation
import Testing

extension EngineTests {
    @Suite struct AudioRingBufferClockTests {
        let mono = AudioOutputFormat(sampleRate: 1000, channelCount: 1)

        @Test(arguments: [0.5, 1.0, 2.0])
        func theClockIsTheFirstFrameHeardAfterTheLatency(rate: Double) async {
            let ring = AudioRingBuffer(format: mono, capacityFrames: 256)
            ring.setOutputLatency(0.2)
            ring.write(ramp(1, 100), media: ms(10_000), rate: rate)
            #expect(ring.audioClock(atHost: 5) == nil)
            _ = ring.render(frames: 40, hostTime: 5)
            let snapshot = ring.clockSnapshot
            #expect(snapshot?.host == 5.2 && snapshot?.rate == rate && snapshot?.span == 0.04)
            #expect(ring.audioClock(atHost: 5.2) == ms(10_000))
            #expect(isClose(ring.audioClock(atHost: 5.22), ms(10_000) + seconds(0.02 * rate)))
            // Not heard yet: the clock holds at the first frame rather than reading earlier.
            #expect(ring.audioClock(atHost: 5.1) == ms(10_000))
            // Past the rendered audio the clock stops where the audio ends.
            #expect(isClose(ring.audioClock(atHost: 9), ms(10_000) + seconds(0.04 * rate)))
        }

        @Test func audioTakenByADeviceThatIsNotPlayingYetPublishesNoClock() async {
            // A sound server's stream before its sink runs: the audio goes, but when it will be
            // heard is unknown, so the clock says nothing until a call made while it plays.
            let ring = AudioRingBuffer(format: mono, capacityFrames: 256)
            ring.setOutputLatency(0)
            ring.setOutputPlaying(false)
            ring.write(ramp(1, 100), media: ms(10_000))
            #expect(ring.render(frames: 40, hostTime: 5) == ramp(1, 40))
            #expect(ring.clockSnapshot == nil && ring.audioClock(atHost: 5.5) == nil)
            // Playing now, with those 40 frames still queued in the device ahead of the next.
            ring.setOutputPlaying(true)
            ring.setOutputLatency(0.04)
            #expect(ring.render(frames: 20, hostTime: 7) == ramp(41, 20))
            #expect(ring.clockSnapshot?.host == 7.04)
            #expect(ring.audioClock(atHost: 7.04) == ms(10_040))
            // The run began with the first frame taken: the clock never reads before it.
            #expect(ring.clockSnapshot?.floor == ms(10_000))
        }

        @Test func beforeTheStartGateTheOutputIsSilentAndTheAudioBeginsExactlyAtIt() async {
            let ring = AudioRingBuffer(format: mono, capacityFrames: 256)
            ring.setOutputLatency(0.01)
            ring.startGate = 5.05
            ring.write(ramp(1, 100), media: ms(2_000), rate: 1)
            // Heard from 5.01: 40 frames of silence up to the gate, then the ring's first frames.
            let first = ring.render(frames: 60, hostTime: 5)
            #expect(first == [Float](repeating: 0, count: 40) + ramp(1, 20))
            #expect(ring.clockSnapshot?.host == 5.05, "the first frame is heard at the gate")
            #expect(ring.audioClock(atHost: 5.05) == ms(2_000))
            #expect(ring.underrunCount == 0, "a gated lead is no underrun")
            // After the gate, nothing is held back.
            #expect(ring.render(frames: 20, hostTime: 5.06) == ramp(21, 20))
        }

        @Test(arguments: [0.5, 1.0, 2.0])
        func theClockIsContinuousAcrossCallbacksAndChunks(rate: Double) async {
            let ring = AudioRingBuffer(format: mono, capacityFrames: 1024)
            ring.setOutputLatency(0.05)
            let start = ms(30_000)
            for chunk in 0..<10 {
                let media = start + seconds(Double(chunk) * 0.1 * rate)
                #expect(ring.write(ramp(chunk * 100, 100), media: media, rate: rate))
            }
            let period = 64
            var previousReading: CMTime?
            for call in 0..<15 {
                let host = 1 + Double(call * period) / 1000
                let heard = host + 0.05
                let before = ring.audioClock(atHost: heard)
                #expect(ring.render(frames: period, hostTime: host) == ramp(call * period, period))
                let after = ring.audioClock(atHost: heard)
                let expected = start + seconds(Double(call * period) / 1000 * rate)
                #expect(isClose(after, expected, tolerance: 1e-8))
                if let before { #expect(isClose(before, expected, tolerance: 1e-8)) }
                let midway = ring.audioClock(atHost: heard + 0.032)
                #expect(isClose(midway, expected + seconds(0.032 * rate), tolerance: 1e-8))
                if let previousReading, let after { #expect(previousReading <= after) }
                previousReading = midway
            }
        }

        @Test func afterAnUnderrunTheClockFreezesAndNeverRunsBackwards() async {
            let ring = AudioRingBuffer(format: mono, capacityFrames: 256)
            ring.setOutputLatency(0.1)
            ring.write(ramp(1, 50), media: .zero)
            _ = ring.render(frames: 64, hostTime: 0)
            #expect(ring.audioClock(atHost: 0.125) == ms(25))
            #expect(ring.audioClock(atHost: 1) == ms(50))
            _ = ring.render(frames: 64, hostTime: 1)
            #expect(ring.audioClock(atHost: 1.5) == ms(50))
            ring.write(ramp(51, 50), media: ms(50))
            _ = ring.render(frames: 64, hostTime: 2)
            #expect(ring.audioClock(atHost: 2) == ms(50))
            #expect(ring.audioClock(atHost: 2.1) == ms(50))
            #expect(ring.audioClock(atHost: 2.11) == ms(60))
        }

        @Test func pausingFreezesTheClockAtTheEndOfTheAudibleAudio() async {
            let ring = AudioRingBuffer(format: mono, capacityFrames: 256)
            ring.write(ramp(1, 200), media: ms(1_000))
            _ = ring.render(frames: 50, hostTime: 0)
            ring.isPaused = true
            _ = ring.render(frames: 50, hostTime: 0.05)
            #expect(ring.audioClock(atHost: 0.5) == ms(1_050))
            ring.isPaused = false
            _ = ring.render(frames: 50, hostTime: 0.6)
            #expect(ring.audioClock(atHost: 0.6) == ms(1_050))
            #expect(ring.audioClock(atHost: 0.62) == ms(1_070))
        }

        @Test func theClockIsNilFromAFlushUntilNewAudioIsRendered() async {
            let ring = AudioRingBuffer(format: mono, capacityFrames: 256)
            ring.write(ramp(1, 100), media: .zero)
            _ = ring.render(frames: 10, hostTime: 0)
            #expect(ring.audioClock(atHost: 0.005) == ms(5))
            ring.flush(newGeneration: 1)
            #expect(ring.audioClock(atHost: 0.005) == nil)
            _ = ring.render(frames: 10, hostTime: 0.01)
            #expect(ring.audioClock(atHost: 0.02) == nil)
            ring.write(ramp(1, 100), media: ms(42_000), generation: 1)
            _ = ring.render(frames: 10, hostTime: 0.02)
            #expect(ring.audioClock(atHost: 0.025) == ms(42_005))
        }

        private func seconds(_ value: Double) -> CMTime {
            CMTime(seconds: value, preferredTimescale: 1_000_000_000)
        }
    }
}
