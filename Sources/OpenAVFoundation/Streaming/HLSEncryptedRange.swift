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
    /// first block, `iv`; nil when too little came or the key has the wrong size. A wrong key
    /// gives garbage (no padding to check): see `looksLikeMedia`.
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

    /// True when `data` starts as a keyframe's range or its initialisation section does: an
    /// MPEG-TS packet (its sync byte, and the next packet's), or an MP4 box of a kind such
    /// ranges start with. Garbage from a wrong key or IV almost never does.
    static func looksLikeMedia(_ data: Data) -> Bool {
        let bytes = [UInt8](data.prefix(189))
        guard bytes.count >= 8 else { return false }
        if bytes[0] == 0x47 { return bytes.count < 189 || bytes[188] == 0x47 }
        let type = String(decoding: bytes[4..<8], as: UTF8.self)
        return ["ftyp", "styp", "moov", "moof", "sidx", "emsg", "prft", "free", "mdat"].contains(type)
    }

    /// True when `segments` (an I-frame playlist's keyframes) can be decrypted range by range:
    /// every keyed range that starts in its file's first block, and every keyed
    /// initialisation section, has its key's own IV (the segment's sequence number in the
    /// media playlist is not known here), and no section left without a key lies in a file
    /// whose keyframes are encrypted.
    static func canDecryptRanges(of segments: [HLSSegment]) -> Bool {
        let encryptedFiles = Set(segments.filter { $0.key != nil }.map(\.url))
        return segments.allSatisfy { segment in
            if let key = segment.key, key.iv == nil, (segment.byteRange?.lowerBound ?? 0) < block { return false }
            guard let map = segment.map else { return true }
            if let key = map.key { return key.iv != nil || (map.byteRange?.lowerBound ?? 0) >= block }
            return !encryptedFiles.contains(map.url)
        }
    }
}
