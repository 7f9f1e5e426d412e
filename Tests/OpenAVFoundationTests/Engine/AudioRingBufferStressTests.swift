// Playhead: a two-thread stress test of AudioRingBuffer's lock-free hand-off.
import Foundation
import OpenAVFoundation
import Synchronization
import Testing

extension EngineTests {
    @Suite struct AudioRingBufferStressTests {
        @Test func aMillionSamplesCrossThreadsIntactAndInOrder() async {
            let total = 1_000_000
            let format = AudioOutputFormat(sampleRate: 48_000, channelCount: 1)
            let ring = AudioRingBuffer(format: format, capacityFrames: 1_024, markerCapacity: 16)
            let producerDone = Atomic<Bool>(false)

            let producer = TestThread {
                var random = SplitMix(seed: 0x5EED)
                var next = 1
                var chunk = [Float](repeating: 0, count: 700)
                while next <= total {
                    let count = min(Int(random.next() % 700) + 1, total - next + 1)
                    for index in 0..<count { chunk[index] = Float(next + index) }
                    let media = CMTime(value: Int64(next - 1), timescale: 48_000)
                    let duration = CMTime(value: Int64(count), timescale: 48_000)
                    while !chunk.withUnsafeBufferPointer({
                        ring.write(
                            UnsafeBufferPointer(rebasing: $0[0..<count]), mediaTime: media,
                            mediaDuration: duration, generation: 0)
                    }) {
                        sched_yield()
                    }
                    next += count
                }
                producerDone.store(true, ordering: .releasing)
            }

            // The consumer runs here, rendering fixed periods like a device callback; silence
            // (underruns) shows up as zeros, which never occur in the data.
            var expected = 1
            var mismatches = 0
            var period = [Float](repeating: 0, count: 256)
            var host = 0.0
            while expected <= total {
                let finished = producerDone.load(ordering: .acquiring)
                period.withUnsafeMutableBufferPointer { ring.render(into: $0, hostTime: host) }
                host += 256.0 / 48_000
                for sample in period where sample != 0 {
                    if sample != Float(expected) { mismatches += 1 }
                    expected += 1
                }
                if finished && ring.bufferedFrames == 0 { break }
                if period.last == 0 { sched_yield() }
            }
            #expect(producer.join())
            #expect(mismatches == 0)
            #expect(expected == total + 1)
            #expect(ring.renderedFrameCount == total)
            let end = CMTime(value: Int64(total), timescale: 48_000)
            #expect(isClose(ring.audioClock(atHost: host), end, tolerance: 1e-8))
        }
    }
}

/// A small deterministic random generator (SplitMix64).
struct SplitMix {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
