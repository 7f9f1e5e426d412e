// Playhead: the libFuzzer entry point: each input's bytes go through open, probe, demux,
// seek and decode (MediaExercise). Built by scripts/build-fuzzer.sh, run by `make fuzz`.
//
// The bytes are read from memory through a custom AVIOContext (MediaLocation(memory:)): no
// temporary file per input, and no protocol may be opened. The name's extension, which
// format probing looks at, comes from the input's last byte, so demuxers that look at names
// are reached too.
import FFmpegBridge
import Foundation

private let extensions = [
    "mp4", "mkv", "webm", "avi", "flv", "mpg", "ts", "ogg", "wmv", "rm", "nut", "mxf", "mp3",
    "aac", "ac3", "aiff", "opus", "wav", "wv", "flac", "caf", "mov", "3gp", "bin",
]

/// libFuzzer's entry point: runs one input; always returns 0 (failures are media failures).
@_cdecl("LLVMFuzzerTestOneInput")
public func playheadFuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let data, size > 0 else { return 0 }
    let bytes = Data(bytes: data, count: size)
    let name = "input.\(extensions[Int(bytes[bytes.count - 1]) % extensions.count])"
    let location = MediaLocation(memory: MemoryInput(bytes: bytes, name: name))
    _ = MediaExercise.run(location, timeout: 2, maximumPackets: 600)
    return 0
}
