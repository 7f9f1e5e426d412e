// Playhead: tests for how full the producer keeps the ring: a quarter second (here 100 frames)
// beyond the largest request the output made (the whole of one it renders over several calls,
// as it told), and a start that goes back over the output's queued silence waits until the
// ring holds what that call takes and half the margin beyond (the target holding that much
// until the sound starts), so the sound does not start with the ring emptied (a sound server
// keeping 450 ms queued takes about that much at the start, and 205 ms at a time after).
@testable import OpenAVFoundation
import Testing

extension EngineTests {
    @Suite struct AudioRingBufferFillTargetTests {
        let mono = AudioOutputFormat(sampleRate: 1000, channelCount: 1)

        private func ring() -> AudioRingBuffer {
            let ring = AudioRingBuffer(format: mono, capacityFrames: 2000)
            ring.primeFrames = 10
            ring.fillAheadFrames = 100
            return ring
        }

        @Test func theTargetIsTheMarginBeyondTheLargestBite() {
            let ring = ring()
            #expect(ring.fillTarget == 100, "nothing asked for yet")
            #expect(ring.write(ramp(1, 300), media: .zero))
            _ = ring.render(frames: 30)
            #expect(ring.largestRenderRequest == 30)
            #expect(ring.fillTarget == 130)
            _ = ring.render(frames: 205)
            _ = ring.render(frames: 20)
            #expect(ring.fillTarget == 305, "the largest bite stays")
        }

        @Test func aRequestRenderedOverSeveralCallsCountsWhole() {
            let ring = ring()
            #expect(ring.write(ramp(1, 400), media: .zero))
            _ = ring.render(frames: 20)
            // 250 frames in blocks of 100, the output telling what is left before each.
            for (left, block) in [(250, 100), (150, 100), (50, 50)] {
                ring.setRequestFrames(left)
                _ = ring.render(frames: block)
            }
            #expect(ring.largestRenderRequest == 250, "one request, not three")
            #expect(ring.fillTarget == 350)
        }

        @Test func aWholeQueueAskedForBeforeTheStartCountsOnlyUntilTheSoundStarts() {
            // A sound server asks for its whole queue (450 frames here) after a flush.
            let ring = ring()
            #expect(ring.write(ramp(1, 50), media: .zero))
            ring.setRequestFrames(450)
            #expect(ring.render(frames: 170) == [Float](repeating: 0, count: 170), "the request's worth is not there")
            #expect(ring.fillTarget == 550, "the producer fills for the start")
            #expect(ring.write(ramp(51, 400), media: ms(50)))
            ring.setRequestFrames(450)
            #expect(ring.render(frames: 170) == ramp(1, 170))
            #expect(ring.largestRenderRequest == 170)
            #expect(ring.fillTarget == 270, "started: the margin beyond the largest block")
        }

        @Test func theBiteCountsAtMostASecondAndTheTargetAtMostHalfTheRing() {
            let ring = AudioRingBuffer(format: mono, capacityFrames: 4000)
            ring.fillAheadFrames = 100
            _ = ring.render(frames: 1500)
            #expect(ring.fillTarget == 1100, "a second of the bite")
            ring.fillAheadFrames = 1500
            #expect(ring.fillTarget == 2000, "half the ring")
        }

        @Test func aStartOverQueuedSilenceWaitsForWhatItTakesAndHalfTheMarginBeyond() {
            let ring = ring()
            // The output's first call, before anything is decoded: silence, nothing to go back over.
            #expect(ring.render(frames: 50) == [Float](repeating: 0, count: 50))
            #expect(ring.write(ramp(1, 100), media: .zero))
            // The next call could go back over 40 frames of that silence: it would take 60
            // frames, and 50 more must be left.
            ring.setRewritableFrames(40)
            #expect(ring.render(frames: 20) == [Float](repeating: 0, count: 20), "100 waiting, 110 needed")
            #expect(ring.takeRewindFrames() == 0)
            #expect(ring.fillTarget == 160, "the start's bite (60) is now the largest")
            #expect(ring.write(ramp(101, 10), media: ms(100)))
            ring.setRewritableFrames(40)
            #expect(ring.render(frames: 20) == ramp(1, 20))
            #expect(ring.takeRewindFrames() == 40)
            #expect(ring.fillTarget == 150, "started: the margin beyond the largest request again")
        }

        @Test func aStartOverNothingPlaysOnceTheCallsFramesWait() {
            // An output that cannot go back (a device, a test clock) starts as before.
            let ring = ring()
            #expect(ring.write(ramp(1, 20), media: .zero))
            #expect(ring.render(frames: 20) == ramp(1, 20))
        }
    }
}
