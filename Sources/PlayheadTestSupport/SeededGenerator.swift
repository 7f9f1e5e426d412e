// Playhead: a deterministic random number generator for reproducible junk files.
import Foundation

/// SplitMix64: a tiny generator whose output depends only on its seed.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    /// Creates a generator that always produces the same sequence for `seed`.
    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state = state &+ 0x9e37_79b9_7f4a_7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }

    /// Returns `count` bytes from the sequence.
    mutating func bytes(count: Int) -> Data {
        var data = Data(capacity: count)
        while data.count < count {
            withUnsafeBytes(of: next().littleEndian) { word in
                data.append(contentsOf: word.prefix(count - data.count))
            }
        }
        return data
    }
}
