// Playhead: AES-128-CBC decryption of HLS segments (`EXT-X-KEY:METHOD=AES-128`) with
// libavutil's AES, for Playhead's own HLS loader.
//
// Concurrency: a stateless function; each call owns its AES context.
internal import CFFmpeg
import Foundation

/// Decrypts HLS segments encrypted with AES-128 in CBC mode and PKCS#7 padding: whole, or
/// the blocks of a byte range inside one.
package enum SegmentDecryptor {
    /// `data` decrypted with the 16-byte `key` and 16-byte `iv`, padding removed; nil when the
    /// key or IV has the wrong size, the length is not whole blocks, or the padding is invalid
    /// (a wrong key).
    package static func decryptAES128CBC(_ data: Data, key: Data, iv: Data) -> Data? {
        guard let output = decryptAES128CBCBlocks(data, key: key, iv: iv),
            let padding = output.last, padding >= 1, padding <= 16,
            output.suffix(Int(padding)).allSatisfy({ $0 == padding })
        else { return nil }
        return output.prefix(output.count - Int(padding))
    }

    /// Whole blocks of AES-128-CBC ciphertext decrypted with the 16-byte `key`, chained from
    /// the 16-byte `iv` (or the ciphertext block before them, for blocks inside a resource),
    /// padding left as it is; nil when the key or IV has the wrong size or the length is not
    /// whole blocks.
    package static func decryptAES128CBCBlocks(_ data: Data, key: Data, iv: Data) -> Data? {
        guard key.count == 16, iv.count == 16, !data.isEmpty, data.count % 16 == 0,
            let aes = av_aes_alloc()
        else { return nil }
        defer { av_free(UnsafeMutableRawPointer(aes)) }
        let initialised = key.withUnsafeBytes { raw in
            av_aes_init(aes, raw.bindMemory(to: UInt8.self).baseAddress, 128, 1)
        }
        guard initialised == 0 else { return nil }
        var output = Data(count: data.count)
        var chain = [UInt8](iv)
        output.withUnsafeMutableBytes { target in
            data.withUnsafeBytes { source in
                av_aes_crypt(
                    aes, target.bindMemory(to: UInt8.self).baseAddress, source.bindMemory(to: UInt8.self).baseAddress,
                    Int32(data.count / 16), &chain, 1)
            }
        }
        return output
    }
}
