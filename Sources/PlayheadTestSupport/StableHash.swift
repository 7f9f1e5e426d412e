// Playhead: a small stable string hash used to name cached fixture files.
import Foundation

/// 64-bit FNV-1a over UTF-8 bytes. Unlike `Hasher`, the value is the same in every process,
/// so it can key a cache that outlives one test run.
enum StableHash {
    /// Returns the hash of `text` as 16 lowercase hex digits.
    static func hex(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
