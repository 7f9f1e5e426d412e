// Playhead: tests for the ring's splice: after `beginSplice(atSeconds:)` the audio queued
// before plays up to the splice point and the audio written after takes over exactly there.
import OpenAVFoundation
import Testing

extension EngineTests {
    @Suite struct AudioRingBufferSpliceTests {
        let mono = AudioOutputFormat(sampleRate: 1000, channelCount: 1)

        @Test func theOldAudioPlaysUpToTheSplicePointAndTheNewFromThere() async {
            let ring = AudioRingBuffer(format: mono, capacityFrames: 64)
            #expect(ring.write(ramp(1, 10), media: .zero))
            #expect(ring.write(ramp(11, 10), media: ms(10)))
            #expect(ring.render(frames: 3) == ramp(1, 3))
            #expect(ring.renderedEndSeconds.map { abs($0 - 0.003) < 1e-9 } == true)
            ring.beginSplice(atSeconds: 0.005)
            // The new audio from 5 ms on, at twice the speed: 10 frames cover 20 ms of media.
            #expect(ring.write(ramp(101, 10), media: ms(5), rate: 2))
            ring.completeSplice()
            #expect(ring.render(frames: 6) == [4, 5, 101, 102, 103, 104])
            // The media time heard runs on from the splice point at the new rate.
            let snapshot = ring.clockSnapshot
            #expect(snapshot?.media == ms(3) && snapshot?.rate == 1)
            #expect(ring.render(frames: 2) == [105, 106])
            #expect(ring.clockSnapshot?.rate == 2)
            #expect(ring.renderedEndSeconds.map { abs($0 - 0.017) < 1e-9 } == true)
        }

        @Test func aSplicePointAlreadyPassedDropsOnlyTheOldAudioAfterIt() async {
            let ring = AudioRingBuffer(format: mono, capacityFrames: 64)
            #expect(ring.write(ramp(1, 10), media: .zero))
            ring.beginSplice(atSeconds: 0.0)
            #expect(ring.write(ramp(201, 4), media: .zero))
            ring.completeSplice()
            #expect(ring.render(frames: 5) == ramp(201, 4) + [0])
            #expect(ring.bufferedFrames == 0, "the old audio was skipped, not kept")
        }

        @Test func reMadeAudioBehindWhatWasRenderedGoesBackOverItOnce() async {
            let ring = AudioRingBuffer(format: mono, capacityFrames: 64)
            ring.setOutputLatency(0.02)
            #expect(ring.write(ramp(1, 20), media: .zero))
            #expect(ring.render(frames: 12, hostTime: 1) == ramp(1, 12))
            #expect(ring.takeRewindFrames() == 0, "plain audio goes back over nothing")
            // The re-made audio is late: the old audio plays on meanwhile (better than silence),
            // also while only part of it is in.
            ring.beginSplice(atSeconds: 0.004)
            #expect(ring.render(frames: 1, hostTime: 1.012) == [13])
            #expect(ring.write(ramp(101, 10), media: ms(4), rate: 2))
            #expect(ring.render(frames: 1, hostTime: 1.013) == [14])
            #expect(ring.takeRewindFrames() == 0)
            // Re-made at twice the speed from 4 ms of media: the output holds the old audio of
            // 4...14 ms (10 frames).
            ring.completeSplice()
            #expect(ring.render(frames: 4, hostTime: 1.014) == ramp(101, 4))
            #expect(ring.takeRewindFrames() == 10)
            #expect(ring.takeRewindFrames() == 0, "read once")
            // Heard 10 frames sooner than a call's first frame normally is.
            let snapshot = ring.clockSnapshot
            #expect(snapshot?.media == ms(4) && snapshot?.rate == 2)
            #expect(snapshot.map { abs($0.host - (1.014 + 0.02 - 0.010)) < 1e-9 } == true)
            #expect(ring.render(frames: 2, hostTime: 1.018) == [105, 106])
            #expect(ring.takeRewindFrames() == 0, "the rest of the re-made audio follows on")
        }

        @Test func silenceRenderedAfterTheOldAudioIsGoneBackOverToo() async {
            let ring = AudioRingBuffer(format: mono, capacityFrames: 64)
            #expect(ring.write(ramp(1, 6), media: .zero))
            #expect(ring.render(frames: 8) == ramp(1, 6) + [0, 0], "ran dry: 2 silent frames")
            ring.beginSplice(atSeconds: 0.002)
            #expect(ring.write(ramp(101, 4), media: ms(2), rate: 2))
            ring.completeSplice()
            #expect(ring.render(frames: 4) == ramp(101, 4))
            #expect(ring.takeRewindFrames() == 6, "the old audio of 2...6 ms and the 2 silent frames")
        }

        @Test func aSpliceAheadOfWhatWasRenderedGoesBackOverNothing() async {
            let ring = AudioRingBuffer(format: mono, capacityFrames: 64)
            #expect(ring.write(ramp(1, 20), media: .zero))
            #expect(ring.render(frames: 5) == ramp(1, 5))
            ring.beginSplice(atSeconds: 0.008)
            #expect(ring.write(ramp(101, 6), media: ms(8), rate: 2))
            ring.completeSplice()
            #expect(ring.render(frames: 3) == [6, 7, 8])
            #expect(ring.takeRewindFrames() == 0)
            #expect(ring.render(frames: 3) == [101, 102, 103])
            #expect(ring.takeRewindFrames() == 0, "the new audio starts where the old stopped")
        }

        @Test func theRenderedEndIsOnlyTrustedForItsOwnGeneration() async {
            let ring = AudioRingBuffer(format: mono, capacityFrames: 64)
            #expect(ring.write(ramp(1, 4), media: .zero))
            _ = ring.render(frames: 4)
            #expect(ring.renderedEndSeconds(ofGeneration: 0) != nil)
            ring.flush(newGeneration: 1)
            #expect(ring.renderedEndSeconds(ofGeneration: 1) == nil)
        }
    }
}
