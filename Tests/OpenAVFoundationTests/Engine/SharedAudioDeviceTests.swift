// Playhead: tests for SharedAudioDevice and its lanes: items share one output, a held next
// item joins the playing one on the frame after its last, and a paused item's follower waits.
import Foundation
import PlayheadTestSupport
import Testing

@testable import OpenAVFoundation

extension EngineTests {
    @Suite struct SharedAudioDeviceTests {
        /// An output the test renders by hand; it records how often it was opened and started.
        final class HandOutput: AudioOutput, @unchecked Sendable {
            let name = "hand"
            let outputLatency = 0.0
            private(set) var source: (any AudioRenderSource)?
            private(set) var opens = 0
            private(set) var isRunning = false
            private(set) var discards = 0
            /// "stop" and "play out", in the order they came (the drain thread calls in).
            private let endingLog = Locked<[String]>([])
            var endings: [String] { endingLog.withLock { $0 } }
            var playOuts: Int { endings.filter { $0 == "play out" }.count }
            func discardBuffered() { discards += 1 }
            func stopAfterPlayingOut(timeout: Double) {
                endingLog.withLock { $0.append("play out") }
            }
            func open(format: AudioOutputFormat, source: any AudioRenderSource) throws -> AudioOutputFormat {
                opens += 1
                self.source = source
                return format
            }
            func start() { isRunning = true }
            func stop() {
                endingLog.withLock { $0.append("stop") }
                isRunning = false
            }
            func close() {
                isRunning = false
                source = nil
            }
            func render(_ frames: Int) -> [Float] {
                var samples = [Float](repeating: .nan, count: frames)
                samples.withUnsafeMutableBufferPointer { source?.render(into: $0, hostTime: 0) }
                return samples
            }
        }

        let mono = AudioOutputFormat(sampleRate: 1000, channelCount: 1)

        private func rig(clock: ManualClock = ManualClock()) -> (SharedAudioDevice, HandOutput) {
            let output = HandOutput()
            return (SharedAudioDevice(clock: clock, idleCloseDelay: 0) { _ in output }, output)
        }

        private func ring(_ samples: [Float], ended: Bool) -> AudioRingBuffer {
            let ring = AudioRingBuffer(format: mono, capacityFrames: 64)
            _ = ring.write(samples, media: .zero)
            if ended { ring.markEnd(generation: 0) }
            return ring
        }

        @Test func aHeldNextItemJoinsThePlayingOneOnOneOutput() throws {
            let (device, output) = rig()
            let first = ring(ramp(1, 4), ended: true), second = ring(ramp(100, 8), ended: false)
            let playing = device.makeLane(device: nil), next = device.makeLane(device: nil)
            #expect(try playing.open(format: mono, source: first) == mono)
            #expect(try next.open(format: mono, source: second) == mono)
            playing.start()
            next.followCurrentItem()
            #expect(next.isRenderingWhileStopped, "the next item's ring may be rendered before it starts")
            #expect(output.render(6) == ramp(1, 4) + ramp(100, 2))
            next.start()
            playing.close()
            #expect(output.render(3) == ramp(102, 3))
            #expect(output.opens == 1 && output.isRunning)
            #expect(device.handOffCount == 1)
            next.close()
            #expect(!device.isOpen, "the last lane closed the output")
        }

        @Test func theLastItemsEndIsPlayedOutBeforeTheDeviceStops() async throws {
            let clock = ManualClock()
            let (device, output) = rig(clock: clock)
            let last = ring(ramp(1, 4), ended: true)
            let lane = device.makeLane(device: nil)
            _ = try lane.open(format: mono, source: last)
            lane.start()
            #expect(output.render(6) == ramp(1, 4) + [0, 0])
            // Closed after its end: a drain thread waits for the last frame to be heard, then
            // lets the output play out what it holds (a late sound server keeps its tail).
            lane.close()
            // The drain thread steps on the clock: it moves only while the thread is parked on
            // it (at most 500 steps, as far on a loaded machine as on a fast one), until the
            // play-out (a hang guard only).
            var steps = 0
            var deadline = PatientDeadline(seconds: 20)
            while output.playOuts == 0, !deadline.hasPassed() {
                if steps < 500, clock.waiterCount > 0 {
                    clock.advance(by: 0.01)
                    steps += 1
                }
                try await Task.sleep(nanoseconds: 2_000_000)
            }
            #expect(output.playOuts == 1)
            // Closing the idle output after it stops it again, harmlessly; never before.
            #expect(output.endings.first == "play out", "\(output.endings)")
        }

        @Test func anItemStartedWhileTheLastOnePlaysOutIsHeardWhenTheCallbackIsLate() async throws {
            // A queue moving past a failed item: the next one starts while the device plays out
            // the item before it, so it waits in the next slot for the callback to go on to it.
            // Here the callback is held up (a loaded machine) until the play-out is over.
            let clock = ManualClock()
            let (device, output) = rig(clock: clock)
            let ended = device.makeLane(device: nil), next = device.makeLane(device: nil)
            _ = try ended.open(format: mono, source: ring(ramp(1, 4), ended: true))
            ended.start()
            #expect(output.render(4) == ramp(1, 4))
            ended.close()
            #expect(device.isPlayingOut)
            _ = try next.open(format: mono, source: ring(ramp(100, 8), ended: false))
            next.start()
            // The clock moves only while the drain thread is parked on it (at most 500 steps),
            // until the play-out is over (a hang guard only).
            var steps = 0
            var deadline = PatientDeadline(seconds: 20)
            while device.isPlayingOut, !deadline.hasPassed() {
                if steps < 500, clock.waiterCount > 0 {
                    clock.advance(by: 0.01)
                    steps += 1
                }
                try await Task.sleep(nanoseconds: 2_000_000)
            }
            #expect(!device.isPlayingOut)
            #expect(output.isRunning && output.endings.isEmpty, "the device plays on: \(output.endings)")
            #expect(output.render(3) == ramp(100, 3), "the started item is heard")
            next.close()
        }

        @Test func aPausedItemsFollowerWaitsUntilItPlaysAgain() throws {
            let (device, output) = rig()
            let first = ring(ramp(1, 4), ended: true), second = ring(ramp(100, 8), ended: false)
            let playing = device.makeLane(device: nil), next = device.makeLane(device: nil)
            _ = try playing.open(format: mono, source: first)
            _ = try next.open(format: mono, source: second)
            playing.start()
            next.followCurrentItem()
            playing.stop()
            #expect(!output.isRunning, "nothing left to play: the device stops")
            #expect(output.render(6) == [0, 0, 0, 0, 0, 0], "the follower does not play while paused")
            #expect(second.bufferedFrames == 8)
            playing.start()
            #expect(output.render(6) == ramp(1, 4) + ramp(100, 2), "and joins again once it plays")
        }

        @Test func aReplacedItemsSuccessorKeepsTheDeviceStreamWithoutTheOldItemsQueuedAudio() throws {
            let output = HandOutput()
            let device = SharedAudioDevice(clock: ManualClock(), idleCloseDelay: 30) { _ in output }
            let old = device.makeLane(device: nil)
            _ = try old.open(format: mono, source: ring(ramp(1, 8), ended: false))
            old.start()
            #expect(output.render(2) == ramp(1, 2))
            old.close()
            #expect(output.discards == 1, "what the device held of the replaced item is dropped")
            #expect(device.isOpen, "the device waits a moment for the next item")
            let new = device.makeLane(device: nil)
            _ = try new.open(format: mono, source: ring(ramp(50, 4), ended: false))
            new.start()
            #expect(output.render(4) == ramp(50, 4))
            #expect(output.opens == 1, "one device stream for both items")
            new.close()
        }

        @Test func anIdleDeviceReopensForAnItemOfAnotherFormatAndAPlayingOneConvertsIt() throws {
            let output = HandOutput()
            let device = SharedAudioDevice(clock: ManualClock(), idleCloseDelay: 30) { _ in output }
            let stereo = AudioOutputFormat(sampleRate: 1000, channelCount: 2)
            let first = device.makeLane(device: nil)
            _ = try first.open(format: mono, source: ring(ramp(1, 8), ended: false))
            first.start()
            // While the first item plays, the next is asked to take the device's format.
            let next = device.makeLane(device: nil)
            #expect(try next.open(format: stereo, source: AudioRingBuffer(format: stereo, capacityFrames: 8)) == mono)
            first.close()
            #expect(output.opens == 1)
            // Idle, the device reopens in the format the next item wants.
            let later = device.makeLane(device: nil)
            #expect(try later.open(format: stereo, source: AudioRingBuffer(format: stereo, capacityFrames: 8)) == stereo)
            #expect(output.opens == 2)
            later.close()
        }

        @Test func aLaneOnAnotherSinkWhileTheDeviceIsBusyGetsAnOutputOfItsOwn() throws {
            let outputs = Locked<[HandOutput]>([])
            let device = SharedAudioDevice(clock: ManualClock()) { _ in
                let output = HandOutput()
                outputs.withLock { $0.append(output) }
                return output
            }
            let usual = device.makeLane(device: nil), other = device.makeLane(device: "headset")
            _ = try usual.open(format: mono, source: ring(ramp(1, 4), ended: false))
            _ = try other.open(format: mono, source: ring(ramp(1, 4), ended: false))
            #expect(outputs.withLock { $0.count } == 2)
            #expect(!other.playsOutWhenClosed)
            other.close()
            usual.close()
        }
    }
}
