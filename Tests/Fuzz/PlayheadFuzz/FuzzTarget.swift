// Playhead: the libFuzzer entry point: each input's bytes go through open, probe, demux,
// seek and decode (MediaExercise). Built by scripts/build-fuzzer.sh, run by `make fuzz`.
//
// The bytes are written to a per-process file and opened through the normal MediaLocation
// path (the same protocol whitelist and checks as playback). The file's extension comes from
// the input's last byte, so demuxers that look at names are reached too.
import FFmpegBridge
import Foundation

private let extensions = [
    "mp4", "mkv", "webm", "avi", "flv", "mpg", "ts", "ogg", "wmv", "rm", "nut", "mxf", "mp3",
    "aac", "ac3", "aiff", "opus", "wav", "wv", "flac", "caf", "mov", "3gp", "bin",
]

private let scratchDirectory: String = {
    let base =
        FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
    return "\(base)/playhead-fuzz-\(getpid())"
}()

/// libFuzzer's entry point: runs one input; always returns 0 (failures are media failures).
@_cdecl("LLVMFuzzerTestOneInput")
public func playheadFuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let data, size > 0 else { return 0 }
    let bytes = Data(bytes: data, count: size)
    let path =
        "\(scratchDirectory)/input.\(extensions[Int(bytes[bytes.count - 1]) % extensions.count])"
    try? FileManager.default.createDirectory(
        atPath: scratchDirectory, withIntermediateDirectories: true)
    guard FileManager.default.createFile(atPath: path, contents: bytes) else { return 0 }
    defer { unlink(path) }
    guard let location = try? MediaLocation(url: URL(fileURLWithPath: path)) else { return 0 }
    _ = MediaExercise.run(location, timeout: 2, maximumPackets: 600)
    return 0
}
