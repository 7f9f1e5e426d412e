// Playhead: a fixed-seed SplitMix64 generator for reproducible randomized tests.

import OpenCoreMedia

/// A tiny, deterministic random number generator (SplitMix64), so that every
/// randomized test run sees the same cases.
struct SplitMix64: RandomNumberGenerator {
    /// The generator state.
    private var state: UInt64

    /// Creates a generator from a seed.
    init(seed: UInt64) {
        state = seed
    }

    /// The next 64 random bits.
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    // MARK: - Test-data helpers

    /// A timescale drawn from common media timescales, small odd ones and the full positive `Int32` range.
    mutating func timescale() -> CMTimeScale {
        let common: [CMTimeScale] = [1, 2, 3, 7, 24, 25, 30, 600, 1000, 1001, 30000, 44100, 48000, 90000,
                                     1_000_000, 1_000_000_000, Int32.max, Int32.max - 1]
        switch Int.random(in: 0..<4, using: &self) {
        case 0: return common.randomElement(using: &self)!
        case 1: return CMTimeScale.random(in: 1...100, using: &self)
        case 2: return CMTimeScale.random(in: 1...1_000_000, using: &self)
        default: return CMTimeScale.random(in: 1...Int32.max, using: &self)
        }
    }

    /// A value: usually small or medium, sometimes anywhere in `Int64`.
    mutating func value() -> CMTimeValue {
        switch Int.random(in: 0..<5, using: &self) {
        case 0: return CMTimeValue.random(in: -10...10, using: &self)
        case 1: return CMTimeValue.random(in: -1_000_000...1_000_000, using: &self)
        case 2: return CMTimeValue.random(in: -(1 << 40)...(1 << 40), using: &self)
        case 3: return CMTimeValue.random(in: -(1 << 62)...(1 << 62), using: &self)
        default: return CMTimeValue.random(in: .min ... .max, using: &self)
        }
    }

    /// A finite time in epoch 0.
    mutating func numericTime() -> CMTime {
        CMTime(value: value(), timescale: timescale())
    }
}
