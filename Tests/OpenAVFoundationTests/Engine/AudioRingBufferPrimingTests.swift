// Playhead: tests for AudioRingBuffer.primeFrames: a start or a seek waits, silent and
// consuming nothing, until enough audio of the new generation is queued, so the output's first
// (often large) request is never a few milliseconds of sound followed by a gap.
import OpenAVFoundation
import Testing

extension EngineTests {
    @Suite struct AudioRingBufferPrimingTests {
        let mono = AudioOutputFormat(sampleRate: 1000, channelCount: 1)

        private func primedRing(_ frames: Int) -> AudioRingBuffer {
            let ring = AudioRingBuffer(format: mono, capacityFrames: 400)
            ring.primeFrames = frames
            return ring
        }

        @Test func aStartWaitsSilentlyUntilEnoughAudioIsQueued() async {
            let ring = primedRing(100)
            #expect(ring.write(ramp(1, 40), media: .zero))
            // 40 of 100 frames: silence, nothing consumed, no clock, no underrun.
            #expect(ring.render(frames: 30) == [Float](repeating: 0, count: 30))
            #expect(ring.bufferedFrames == 40)
            #expect(ring.clockSnapshot == nil)
            #expect(ring.underrunCount == 0)
            #expect(ring.write(ramp(41, 60), media: ms(40)))
            // Primed: the audio starts with its first frame, unbroken.
            #expect(ring.render(frames: 30) == ramp(1, 30))
            #expect(ring.clockSnapshot?.media == .zero)
            // Once playing, a short queue is played as it is (no second wait).
            #expect(ring.render(frames: 60) == ramp(31, 60))
            #expect(ring.render(frames: 20) == ramp(91, 10) + [Float](repeating: 0, count: 10))
            #expect(ring.underrunCount == 1)
        }

        @Test func aSeekWaitsAgainForItsOwnAudio() async {
            let ring = primedRing(50)
            #expect(ring.write(ramp(1, 60), media: .zero))
            #expect(ring.render(frames: 10) == ramp(1, 10))
            // A seek: generation 1's first 20 frames are not enough, and the stale audio left
            // of generation 0 does not count.
            ring.flush(newGeneration: 1)
            #expect(ring.write(ramp(500, 20), media: ms(500), generation: 1))
            #expect(ring.render(frames: 10) == [Float](repeating: 0, count: 10))
            // The stale audio is dropped meanwhile, so the producer has room for the new.
            #expect(ring.bufferedFrames == 20)
            #expect(ring.write(ramp(520, 40), media: ms(520), generation: 1))
            #expect(ring.render(frames: 10) == ramp(500, 10))
        }

        @Test func theFirstRequestIsFilledWhole() async {
            // A sound server's first request is its whole buffer: 50 frames here, with 30 waiting.
            let ring = primedRing(20)
            #expect(ring.write(ramp(1, 30), media: .zero))
            #expect(ring.render(frames: 50) == [Float](repeating: 0, count: 50))
            #expect(ring.write(ramp(31, 20), media: ms(30)))
            #expect(ring.render(frames: 50) == ramp(1, 50))
        }

        @Test func audioThatEndsShortOfThePrimingPlaysAtOnce() async {
            let ring = primedRing(100)
            #expect(ring.write(ramp(1, 25), media: .zero))
            ring.markEnd(generation: 0)
            #expect(ring.render(frames: 30) == ramp(1, 25) + [Float](repeating: 0, count: 5))
        }

        @Test func theWaitIsCappedBelowTheRingsCapacity() async {
            let ring = AudioRingBuffer(format: mono, capacityFrames: 40)
            ring.primeFrames = 1000
            #expect(ring.primeFrames == 30)
            #expect(ring.write(ramp(1, 30), media: .zero))
            #expect(ring.render(frames: 10) == ramp(1, 10))
        }

        @Test func aRingTakingOverMidCallIsNotHeldBack() async {
            let first = AudioRingBuffer(format: mono, capacityFrames: 64)
            let second = primedRing(50)
            #expect(first.write(ramp(1, 6), media: .zero))
            first.markEnd(generation: 0)
            #expect(second.write(ramp(100, 8), media: .zero))
            let handoff = AudioHandoff(format: mono)
            handoff.setCurrent(first)
            handoff.setNext(second)
            var output = [Float](repeating: .nan, count: 10)
            output.withUnsafeMutableBufferPointer { handoff.render(into: $0, hostTime: 1) }
            // A join plays on without a gap even though the next ring holds only 8 frames.
            #expect(output == ramp(1, 6) + ramp(100, 4))
        }
    }
}
