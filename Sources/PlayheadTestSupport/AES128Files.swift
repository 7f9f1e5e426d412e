// Playhead: AES-128-CBC encryption of test files with the `openssl` command, as an HLS
// packager encrypts segments for `EXT-X-KEY:METHOD=AES-128` (PKCS#7 padding).
//
// Concurrency: stateless; runs `openssl` on the calling thread.
import Foundation

/// Encrypting fixture files for HLS's AES-128 method.
public enum AES128Files {
    /// `key` or `iv` as the hex digits `openssl` and an `EXT-X-KEY`'s `IV=0x…` take.
    public static func hex(_ bytes: Data) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    /// Writes `source` encrypted with `key` and `iv` to `target`.
    public static func encrypt(_ source: URL, to target: URL, key: Data, iv: Data) throws {
        let result = try Subprocess.run(
            try Subprocess.tool(named: "openssl"),
            ["enc", "-aes-128-cbc", "-K", hex(key), "-iv", hex(iv), "-in", source.path, "-out", target.path])
        guard result.status == 0 else { throw TestSupportError("openssl could not encrypt \(source.lastPathComponent)") }
    }

    /// `data` encrypted with `key` and `iv`.
    public static func encrypted(_ data: Data, key: Data, iv: Data) throws -> Data {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("aes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let clear = folder.appendingPathComponent("clear"), sealed = folder.appendingPathComponent("sealed")
        try data.write(to: clear)
        try encrypt(clear, to: sealed, key: key, iv: iv)
        return try Data(contentsOf: sealed)
    }
}
