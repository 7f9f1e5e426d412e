// Playhead: tests for AudioHandoff, the render source of a player's shared audio device: the
// next ring starts on the frame after the current one's last, and only after its end.
import OpenAVFoundation
import Testing

extension EngineTests {
    @Suite struct AudioHandoffTests {
        let mono = AudioOutputFormat(sampleRate: 1000, channelCount: 1)

        private func render(_ handoff: AudioHandoff, frames: Int, hostTime: Double) -> [Float] {
            var output = [Float](repeating: .nan, count: frames)
            output.withUnsafeMutableBufferPointer { handoff.render(into: $0, hostTime: hostTime) }
            return output
        }

        @Test func theNextRingStartsOnTheFrameAfterTheEndedRingsLast() async {
            let first = AudioRingBuffer(format: mono, capacityFrames: 64)
            let second = AudioRingBuffer(format: mono, capacityFrames: 64)
            #expect(first.write(ramp(1, 6), media: .zero))
            first.markEnd(generation: 0)
            #expect(second.write(ramp(100, 8), media: .zero))
            let handoff = AudioHandoff(format: mono)
            handoff.setOutputLatency(0.05)
            handoff.setCurrent(first)
            handoff.setNext(second)
            #expect(render(handoff, frames: 10, hostTime: 2) == ramp(1, 6) + ramp(100, 4))
            #expect(handoff.current === second && handoff.next == nil)
            #expect(handoff.handOffCount == 1)
            // The second ring's first frame is heard right after the first ring's last.
            let snapshot = second.clockSnapshot
            #expect(snapshot?.media == .zero)
            #expect(abs((snapshot?.host ?? 0) - (2 + 0.006 + 0.05)) < 1e-9)
            #expect(render(handoff, frames: 6, hostTime: 2.01) == ramp(104, 4) + [0, 0])
        }

        @Test func bothRingsLearnTheOutputsWholeRequestSoTheNextTakesOverWithAsMuchAhead() async {
            let first = AudioRingBuffer(format: mono, capacityFrames: 4000)
            let second = AudioRingBuffer(format: mono, capacityFrames: 4000)
            #expect(first.write(ramp(1, 400), media: .zero))
            let handoff = AudioHandoff(format: mono)
            handoff.setCurrent(first)
            handoff.setNext(second)
            _ = render(handoff, frames: 20, hostTime: 1)
            // A request of 300 frames rendered in blocks of 100 (as libpulse hands them over),
            // the output telling what is left before each.
            for left in [300, 200, 100] {
                handoff.setRequestFrames(left)
                _ = render(handoff, frames: 100, hostTime: 1)
            }
            #expect(first.largestRenderRequest == 300)
            #expect(second.largestRenderRequest == 300, "the waiting ring is filled as far ahead")
            #expect(second.fillTarget == first.fillTarget)
        }

        @Test func theNextRingDoesNotLearnTheWholeQueueAskedForWhileTheCurrentSoundWaitsToStart() async {
            let first = AudioRingBuffer(format: mono, capacityFrames: 4000)
            let second = AudioRingBuffer(format: mono, capacityFrames: 4000)
            let handoff = AudioHandoff(format: mono)
            handoff.setCurrent(first)
            handoff.setNext(second)
            // After a flush a server asks for its whole queue (900 frames) before the sound
            // starts: the first ring has nothing yet, so the call renders silence.
            #expect(first.isWaitingToStart)
            handoff.setRequestFrames(900)
            _ = render(handoff, frames: 100, hostTime: 1)
            #expect(first.isWaitingToStart)
            #expect(second.largestRenderRequest == 100, "only the call's own size, not the start's queue")
            // Once the sound plays, a usual request is learnt whole.
            #expect(first.write(ramp(1, 600), media: .zero))
            _ = render(handoff, frames: 20, hostTime: 1.1)
            #expect(!first.isWaitingToStart)
            for left in [300, 200, 100] {
                handoff.setRequestFrames(left)
                _ = render(handoff, frames: 100, hostTime: 1.2)
            }
            #expect(second.largestRenderRequest == 300)
        }

        @Test func aCallWrittenBackHearsTheNextRingThatMuchSoonerToo() async {
            let first = AudioRingBuffer(format: mono, capacityFrames: 64)
            let second = AudioRingBuffer(format: mono, capacityFrames: 64)
            let handoff = AudioHandoff(format: mono)
            handoff.setOutputLatency(0.05)
            handoff.setCurrent(first)
            #expect(first.write(ramp(1, 12), media: .zero))
            #expect(render(handoff, frames: 12, hostTime: 1.988) == ramp(1, 12))
            // A rate change re-makes the first ring's audio from 4 ms of media at twice the
            // speed, to its end; the output held the old audio of 4...12 ms (8 frames).
            first.beginSplice(atSeconds: 0.004)
            #expect(first.write(ramp(101, 4), media: ms(4), rate: 2))
            first.completeSplice()
            first.markEnd(generation: 0)
            #expect(second.write(ramp(200, 8), media: .zero))
            handoff.setNext(second)
            #expect(render(handoff, frames: 10, hostTime: 2) == ramp(101, 4) + ramp(200, 6))
            #expect(handoff.takeRewindFrames() == 8)
            // The second ring's first frame is heard right after the first ring's last, both
            // 8 frames sooner than the call's host time says.
            #expect(abs((first.clockSnapshot?.host ?? 0) - (2 - 0.008 + 0.05)) < 1e-9)
            #expect(abs((second.clockSnapshot?.host ?? 0) - (2 + 0.004 - 0.008 + 0.05)) < 1e-9)
        }

        @Test func aRingThatRunsDryBeforeItsEndIsNotHandedOver() async {
            let first = AudioRingBuffer(format: mono, capacityFrames: 64)
            let second = AudioRingBuffer(format: mono, capacityFrames: 64)
            #expect(first.write(ramp(1, 4), media: .zero))
            #expect(second.write(ramp(100, 4), media: .zero))
            let handoff = AudioHandoff(format: mono)
            handoff.setCurrent(first)
            handoff.setNext(second)
            // An underrun, not the end: silence, and the next ring waits.
            #expect(render(handoff, frames: 6, hostTime: 0) == ramp(1, 4) + [0, 0])
            #expect(handoff.current === first && handoff.next === second)
            first.markEnd(generation: 0)
            // Once the end is marked, the next ring takes over from the start of the call.
            #expect(render(handoff, frames: 6, hostTime: 0.006) == ramp(100, 4) + [0, 0])
            #expect(handoff.current === second)
        }

        @Test func aSeekAfterTheEndIsNotTheEnd() async {
            let ring = AudioRingBuffer(format: mono, capacityFrames: 64)
            #expect(ring.write(ramp(1, 2), media: .zero))
            ring.markEnd(generation: 0)
            #expect(ring.isAtEnd)
            ring.flush(newGeneration: 1)
            #expect(!ring.isAtEnd && !ring.hasPlayedToEnd)
        }

        @Test func emptySlotsRenderSilenceAndAClearedRingIsNotRendered() async {
            let ring = AudioRingBuffer(format: mono, capacityFrames: 64)
            #expect(ring.write(ramp(1, 4), media: .zero))
            let handoff = AudioHandoff(format: mono)
            #expect(render(handoff, frames: 3, hostTime: 0) == [0, 0, 0])
            handoff.setCurrent(ring)
            #expect(handoff.holds(ring))
            #expect(handoff.clearCurrent(ifItIs: ring))
            handoff.waitUntilReleased()
            #expect(!handoff.holds(ring))
            #expect(render(handoff, frames: 3, hostTime: 0) == [0, 0, 0])
            #expect(ring.bufferedFrames == 4)
        }
    }
}
