// Playhead: a byte range inside an HLS segment encrypted whole with AES-128 (CBC, PKCS#7), as
// an I-frame playlist names a keyframe of an encrypted stream: the range's offsets are the
// clear segment's, and CBC ciphertext keeps the clear text's offsets (only the padding is
// added at the end). A block decrypts with the key and the ciphertext block before it (the IV
// for the first block), so the range is fetched from the block before its first to the end
// of its last block, decrypted without a padding check and cut to the range.
//
// Concurrency: pure functions.
import FFmpegBridge
import Foundation

enum HLSEncryptedRange {
    /// The AES block size.
    static let block = 16

    /// The ciphertext to fetch for the clear bytes `range`: from the block before the one
    /// holding its first byte (none when that is the first block) through the block holding
    /// its last byte.
    static func cipherRange(for range: Range<Int>) -> Range<Int> {
        let first = range.lowerBound / block * block
        let end = (range.upperBound + block - 1) / block * block
        return max(0, first - block)..<max(end, first + block)
    }

    /// The clear bytes of `range` from `fetched`, the ciphertext of `cipherRange(for: range)`
    /// (or less, when the resource ended first), decrypted with `key` and, for a range in the
    /// first block, `iv`; nil when too little came or the key cannot decrypt.
    static func plain(_ range: Range<Int>, from fetched: Data, key: Data, iv: Data) -> Data? {
        let cipher = cipherRange(for: range)
        let chained = range.lowerBound >= block
        let bytes = [UInt8](fetched)
        let blocksStart = chained ? block : 0
        let whole = (bytes.count - blocksStart) / block * block
        guard whole > 0, bytes.count >= blocksStart else { return nil }
        let chain = chained ? Data(bytes[0..<block]) : iv
        guard
            let clear = SegmentDecryptor.decryptAES128CBCBlocks(
                Data(bytes[blocksStart..<(blocksStart + whole)]), key: key, iv: chain)
        else { return nil }
        let offset = range.lowerBound - (cipher.lowerBound + blocksStart)
        guard offset >= 0, offset + range.count <= clear.count else { return nil }
        return clear.subdata(in: offset..<(offset + range.count))
    }
}
