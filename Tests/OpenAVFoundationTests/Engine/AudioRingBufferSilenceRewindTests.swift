// Playhead: tests for a generation's first audio going back over the silence rendered while it
// was awaited (a sound server asks for its whole queue as a seek's flush empties it, before the
// new position is decoded), as far as the output says it could overwrite, never before the
// start gate, and with the clock published that much sooner.
import OpenAVFoundation
import Testing

extension EngineTests {
    @Suite struct AudioRingBufferSilenceRewindTests {
        let mono = AudioOutputFormat(sampleRate: 1000, channelCount: 1)
        let silence10 = [Float](repeating: 0, count: 10)

        /// A ring that played 10 frames of generation 0, then was flushed for generation 1 (a
        /// seek) and rendered 20 frames of silence while generation 1 was not primed.
        private func seekingRing() -> AudioRingBuffer {
            let ring = AudioRingBuffer(format: mono, capacityFrames: 200)
            ring.primeFrames = 20
            ring.setOutputLatency(0.03)
            #expect(ring.write(ramp(1, 60), media: .zero))
            #expect(ring.render(frames: 10) == ramp(1, 10))
            ring.flush(newGeneration: 1)
            #expect(ring.render(frames: 10) == silence10)
            #expect(ring.render(frames: 10) == silence10)
            #expect(ring.takeRewindFrames() == 0, "silence goes back over nothing")
            #expect(ring.write(ramp(500, 40), media: ms(500), generation: 1))
            return ring
        }

        @Test func aSeeksFirstAudioGoesBackOverTheSilenceAsFarAsTheOutputCould() async {
            let ring = seekingRing()
            ring.setRewritableFrames(15)
            #expect(ring.render(frames: 10, hostTime: 2) == ramp(500, 10))
            #expect(ring.takeRewindFrames() == 15, "15 of the 20 silent frames")
            // Heard 15 frames sooner than a call's first frame normally is.
            let snapshot = ring.clockSnapshot
            #expect(snapshot?.media == ms(500))
            #expect(snapshot.map { abs($0.host - (2 + 0.03 - 0.015)) < 1e-9 } == true)
            // The rest follows on.
            #expect(ring.render(frames: 10, hostTime: 2.01) == ramp(510, 10))
            #expect(ring.takeRewindFrames() == 0)
        }

        @Test func neverFurtherThanTheSilence() async {
            let ring = seekingRing()
            ring.setRewritableFrames(100)
            #expect(ring.render(frames: 10, hostTime: 2) == ramp(500, 10))
            #expect(ring.takeRewindFrames() == 20, "the silent frames alone, never the old audio")
        }

        @Test func neverFurtherThanTheRingCanFollow() async {
            // The output renders as much again as the call goes back: only 5 frames are left
            // after this call, so it goes back over 5 (a start's first call takes what was
            // primed; going back further would leave a gap after it).
            let ring = AudioRingBuffer(format: mono, capacityFrames: 200)
            ring.primeFrames = 10
            #expect(ring.render(frames: 10) == silence10)
            #expect(ring.write(ramp(1, 15), media: .zero))
            ring.setRewritableFrames(100)
            #expect(ring.render(frames: 10) == ramp(1, 10))
            #expect(ring.takeRewindFrames() == 5)
        }

        @Test func anOutputThatCannotOverwriteGoesBackOverNothing() async {
            let ring = seekingRing()
            #expect(ring.render(frames: 10, hostTime: 2) == ramp(500, 10))
            #expect(ring.takeRewindFrames() == 0)
            #expect(ring.clockSnapshot.map { abs($0.host - (2 + 0.03)) < 1e-9 } == true)
        }

        @Test func whatTheOutputSaysHoldsForOneCall() async {
            // An output that stops saying it (a lost server's stand-in rendering the same
            // ring) goes back over nothing, and the clock is not moved.
            let ring = seekingRing()
            ring.setRewritableFrames(15)
            #expect(ring.render(frames: 0, hostTime: 1.99) == [])
            #expect(ring.render(frames: 10, hostTime: 2) == ramp(500, 10))
            #expect(ring.takeRewindFrames() == 0)
            #expect(ring.clockSnapshot.map { abs($0.host - (2 + 0.03)) < 1e-9 } == true)
        }

        @Test func notBeforeTheStartGate() async {
            let ring = seekingRing()
            ring.setRewritableFrames(100)
            // Heard at 2.03 normally; the gate at 2.025 leaves 5 frames to go back over.
            ring.startGate = 2.025
            #expect(ring.render(frames: 10, hostTime: 2) == ramp(500, 10))
            #expect(ring.takeRewindFrames() == 5)
        }

        @Test func anUnderrunInMidPlayIsNotGoneBackOver() async {
            let ring = AudioRingBuffer(format: mono, capacityFrames: 200)
            ring.setRewritableFrames(100)
            #expect(ring.write(ramp(1, 10), media: .zero))
            #expect(ring.render(frames: 15) == ramp(1, 10) + [0, 0, 0, 0, 0], "ran dry")
            #expect(ring.write(ramp(11, 10), media: ms(10)))
            #expect(ring.render(frames: 10) == ramp(11, 10))
            #expect(ring.takeRewindFrames() == 0, "the same generation: its sound was heard with the gap")
        }
    }
}
