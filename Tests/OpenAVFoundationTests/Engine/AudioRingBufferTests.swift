// Playhead: tests for AudioRingBuffer: copying, wrap-around, underruns, flush, gain and pause.
import OpenAVFoundation
import Testing

extension AudioRingBuffer {
    /// Writes an array chunk whose media duration is its play duration × `rate`.
    @discardableResult
    func write(_ samples: [Float], media: CMTime, rate: Double = 1, generation: Int = 0) -> Bool {
        let frames = samples.count / format.channelCount
        let duration = CMTimeMultiplyByFloat64(
            CMTime(value: Int64(frames), timescale: Int32(format.sampleRate)), multiplier: rate)
        return samples.withUnsafeBufferPointer {
            write($0, mediaTime: media, mediaDuration: duration, generation: generation)
        }
    }

    /// Renders `frames` frames into a fresh array, pre-filled with garbage to catch gaps.
    func render(frames: Int, hostTime: Double = 0) -> [Float] {
        var output = [Float](repeating: .nan, count: frames * format.channelCount)
        output.withUnsafeMutableBufferPointer { render(into: $0, hostTime: hostTime) }
        return output
    }
}

/// `count` samples counting up from `start`.
func ramp(_ start: Int, _ count: Int) -> [Float] { (start..<(start + count)).map { Float($0) } }

extension EngineTests {
    @Suite struct AudioRingBufferTests {
        let mono = AudioOutputFormat(sampleRate: 1000, channelCount: 1)

        @Test func framesComeOutAsWrittenAcrossTheWrapAround() async {
            let ring = AudioRingBuffer(format: mono, capacityFrames: 8)
            #expect(ring.write(ramp(1, 6), media: .zero))
            #expect(ring.render(frames: 6) == ramp(1, 6))
            #expect(ring.write(ramp(7, 6), media: ms(6)))
            #expect(ring.render(frames: 4) == ramp(7, 4))
            #expect(ring.render(frames: 2) == ramp(11, 2))
            #expect(ring.bufferedFrames == 0)
        }

        @Test func stereoFramesStayInterleaved() async {
            let stereo = AudioOutputFormat(sampleRate: 1000, channelCount: 2)
            let ring = AudioRingBuffer(format: stereo, capacityFrames: 5)
            #expect(ring.write([1, -1, 2, -2, 3, -3], media: .zero))
            #expect(ring.write([4, -4, 5, -5, 6, -6], media: ms(3)) == false)
            #expect(ring.render(frames: 2) == [1, -1, 2, -2])
            #expect(ring.write([4, -4, 5, -5, 6, -6], media: ms(3)))
            #expect(ring.render(frames: 4) == [3, -3, 4, -4, 5, -5, 6, -6])
        }

        @Test func aChunkThatDoesNotFitIsRefusedWhole() async {
            let ring = AudioRingBuffer(format: mono, capacityFrames: 10, markerCapacity: 2)
            #expect(ring.framesAvailableToWrite == 10)
            #expect(ring.write(ramp(0, 7), media: .zero))
            #expect(ring.framesAvailableToWrite == 3)
            #expect(ring.write(ramp(7, 4), media: ms(7)) == false)
            #expect(ring.write(ramp(7, 1), media: ms(7)))
            #expect(ring.framesAvailableToWrite == 0)
            #expect(ring.write(ramp(8, 1), media: ms(8)) == false)
            #expect(ring.bufferedFrames == 8)
            #expect(ring.bufferedDuration == ms(8))
        }

        @Test func anUnderrunRendersSilenceAndIsCountedOnceAudioHasStarted() async {
            let ring = AudioRingBuffer(format: mono, capacityFrames: 16)
            #expect(ring.render(frames: 4) == [0, 0, 0, 0])
            #expect(ring.underrunCount == 0)
            ring.write(ramp(1, 3), media: .zero)
            #expect(ring.render(frames: 5) == [1, 2, 3, 0, 0])
            #expect(ring.underrunCount == 1)
            #expect(ring.render(frames: 2) == [0, 0])
            #expect(ring.underrunCount == 2)
            #expect(ring.renderedFrameCount == 3)
        }

        @Test func runningDryAfterTheEndIsNoUnderrun() async {
            let ring = AudioRingBuffer(format: mono, capacityFrames: 16)
            ring.write(ramp(1, 3), media: .zero)
            ring.markEnd(generation: 0)
            #expect(ring.render(frames: 5) == [1, 2, 3, 0, 0])
            #expect(ring.render(frames: 2) == [0, 0])
            #expect(ring.underrunCount == 0)
            // A seek's new generation counts again.
            ring.write(ramp(7, 2), media: ms(500), generation: 1)
            #expect(ring.render(frames: 3) == [7, 8, 0])
            #expect(ring.underrunCount == 1)
        }

        @Test func aFlushSkipsStaleAudioWithoutAnyoneDraining() async {
            let ring = AudioRingBuffer(format: mono, capacityFrames: 16)
            ring.write(ramp(1, 4), media: .zero, generation: 0)
            _ = ring.render(frames: 2)
            ring.write(ramp(5, 4), media: ms(4), generation: 0)
            ring.flush(newGeneration: 1)
            #expect(ring.audioClock(atHost: 0) == nil)
            #expect(ring.write(ramp(100, 2), media: ms(500), generation: 0))
            ring.write(ramp(200, 3), media: ms(9_000), generation: 1)
            #expect(ring.render(frames: 3) == [200, 201, 202])
            #expect(ring.bufferedFrames == 0)
            #expect(ring.underrunCount == 0)
            #expect(ring.audioClock(atHost: 0) == ms(9_000))
        }

        @Test func discardingStaleAudioFreesItsSpaceAndKeepsTheNewGeneration() async {
            let ring = AudioRingBuffer(format: mono, capacityFrames: 8)
            ring.write(ramp(1, 4), media: .zero, generation: 0)
            _ = ring.render(frames: 1)  // part of the head chunk was heard
            ring.write(ramp(5, 4), media: ms(4), generation: 0)
            ring.flush(newGeneration: 1)
            // Stale audio fills the ring until something consumes it.
            #expect(ring.write(ramp(100, 3), media: ms(900), generation: 1) == false)
            ring.discardStale()
            #expect(ring.bufferedFrames == 0)
            #expect(ring.framesAvailableToWrite == 8)
            #expect(ring.write(ramp(100, 3), media: ms(900), generation: 1))
            // The new generation is never discarded, and plays from its first frame.
            ring.discardStale()
            #expect(ring.bufferedFrames == 3)
            #expect(ring.render(frames: 3) == [100, 101, 102])
            #expect(ring.audioClock(atHost: 0) == ms(900))
        }

        @Test func writingANewerGenerationFlushesImplicitly() async {
            let ring = AudioRingBuffer(format: mono, capacityFrames: 16)
            ring.write(ramp(1, 4), media: .zero, generation: 0)
            ring.write(ramp(50, 2), media: ms(100), generation: 3)
            #expect(ring.generation == 3)
            #expect(ring.render(frames: 2) == [50, 51])
        }

        @Test func volumeAndMuteScaleTheOutputButStillConsume() async {
            let ring = AudioRingBuffer(format: mono, capacityFrames: 16)
            ring.write([1, 2, 3, 4, 5, 6], media: .zero)
            ring.volume = 0.5
            #expect(ring.render(frames: 2) == [0.5, 1])
            ring.isMuted = true
            #expect(ring.render(frames: 2) == [0, 0])
            #expect(ring.underrunCount == 0)
            ring.isMuted = false
            ring.volume = 1
            #expect(ring.render(frames: 2) == [5, 6])
            #expect(ring.audioClock(atHost: 0) == ms(4))
        }

        @Test func pausingRendersSilenceWithoutConsuming() async {
            let ring = AudioRingBuffer(format: mono, capacityFrames: 16)
            ring.write(ramp(1, 4), media: .zero)
            ring.isPaused = true
            #expect(ring.render(frames: 3) == [0, 0, 0])
            #expect(ring.bufferedFrames == 4)
            #expect(ring.underrunCount == 0)
            ring.isPaused = false
            #expect(ring.render(frames: 4) == ramp(1, 4))
        }

        @Test func resetEmptiesTheRingAndClearsTheClock() async {
            let ring = AudioRingBuffer(format: mono, capacityFrames: 4)
            ring.write(ramp(1, 4), media: .zero)
            _ = ring.render(frames: 2)
            ring.reset()
            #expect(ring.bufferedFrames == 0 && ring.framesAvailableToWrite == 4)
            #expect(ring.audioClock(atHost: 0) == nil)
            ring.write(ramp(9, 4), media: ms(9))
            #expect(ring.render(frames: 4) == ramp(9, 4))
        }
    }
}
