// Playhead: media bytes held in memory and read by FFmpeg through a custom AVIOContext, so the
// fuzzer (and any caller with bytes, not a file) opens input without touching the file system.
internal import CFFmpeg
internal import CFFmpegShims
import Foundation

// Concurrency: a `MemoryInput` is immutable and may be shared. Each `FormatContext` opened on
// it gets its own `MemoryReader` (the read position), owned by that context's thread; FFmpeg
// calls the read and seek callbacks on that thread only.

/// Bytes to demux from memory, with a file name whose extension helps format probing.
package final class MemoryInput: Sendable {
    /// The whole input.
    package let bytes: Data
    /// A name such as "input.mp4": FFmpeg's probe looks at its extension.
    package let name: String

    package init(bytes: Data, name: String) {
        self.bytes = bytes
        self.name = name
    }
}

/// One open context's cursor over a `MemoryInput`; the AVIOContext's opaque pointer.
final class MemoryReader {
    let bytes: Data
    var position = 0

    init(_ input: MemoryInput) { bytes = input.bytes }

    /// Copies up to `size` bytes at the cursor into `buffer`; AVERROR_EOF at the end.
    func read(into buffer: UnsafeMutablePointer<UInt8>, size: Int32) -> Int32 {
        let count = min(Int(size), bytes.count - position)
        guard count > 0 else { return CFFmpeg_AVERROR_EOF() }
        bytes.withUnsafeBytes { raw in
            UnsafeMutableRawPointer(buffer).copyMemory(
                from: raw.baseAddress! + position, byteCount: count)
        }
        position += count
        return Int32(count)
    }

    /// Moves the cursor like lseek; `AVSEEK_SIZE` asks for the length. Negative on error.
    func seek(offset: Int64, whence: Int32) -> Int64 {
        if whence & AVSEEK_SIZE != 0 { return Int64(bytes.count) }
        let base: Int64
        switch whence & ~AVSEEK_FORCE {
        case SEEK_SET: base = 0
        case SEEK_CUR: base = Int64(position)
        case SEEK_END: base = Int64(bytes.count)
        default: return Int64(CFFmpeg_AVERROR(EINVAL))
        }
        let target = base.addingReportingOverflow(offset)
        guard !target.overflow, target.partialValue >= 0, target.partialValue <= Int64(bytes.count)
        else { return Int64(CFFmpeg_AVERROR(EINVAL)) }
        position = Int(target.partialValue)
        return target.partialValue
    }
}

/// An AVIOContext of Playhead's own that a format context reads instead of a URL.
protocol CustomIO: AnyObject {
    var context: UnsafeMutablePointer<AVIOContext> { get }
}

/// Frees a custom AVIOContext and the buffer FFmpeg holds in it now (it may have replaced the
/// one it was given).
func freeCustomIOContext(_ context: UnsafeMutablePointer<AVIOContext>) {
    av_freep(&context.pointee.buffer)
    var optional: UnsafeMutablePointer<AVIOContext>? = context
    avio_context_free(&optional)
}

/// An AVIOContext reading a `MemoryReader`; frees both (and FFmpeg's buffer) in `deinit`.
final class MemoryIO: CustomIO {
    private static let bufferSize: Int32 = 32 * 1024

    /// owned by the format context's thread; freed in deinit
    private(set) var context: UnsafeMutablePointer<AVIOContext>
    private let reader: Unmanaged<MemoryReader>

    init?(_ input: MemoryInput) {
        guard let buffer = av_malloc(Int(Self.bufferSize)) else { return nil }
        let reader = Unmanaged.passRetained(MemoryReader(input))
        let read: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<UInt8>?, Int32)
            -> Int32 = { opaque, buffer, size in
                guard let opaque, let buffer else { return CFFmpeg_AVERROR(EINVAL) }
                return Unmanaged<MemoryReader>.fromOpaque(opaque).takeUnretainedValue()
                    .read(into: buffer, size: size)
            }
        let seek: @convention(c) (UnsafeMutableRawPointer?, Int64, Int32) -> Int64 = {
            opaque, offset, whence in
            guard let opaque else { return Int64(CFFmpeg_AVERROR(EINVAL)) }
            return Unmanaged<MemoryReader>.fromOpaque(opaque).takeUnretainedValue()
                .seek(offset: offset, whence: whence)
        }
        guard
            let context = avio_alloc_context(
                buffer.assumingMemoryBound(to: UInt8.self), Self.bufferSize, 0,
                reader.toOpaque(), read, nil, seek)
        else {
            av_free(buffer)
            reader.release()
            return nil
        }
        self.context = context
        self.reader = reader
    }

    deinit {
        freeCustomIOContext(context)
        reader.release()
    }
}
