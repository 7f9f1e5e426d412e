// Playhead: FFmpeg's integer error codes as a Swift error, with FFmpeg's own message.
internal import CFFmpeg
internal import CFFmpegShims

/// An error code returned by an FFmpeg call, with the text FFmpeg gives for it.
package struct FFmpegError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The negative AVERROR value FFmpeg returned.
    package let code: Int32
    /// FFmpeg's description of `code`, e.g. "Invalid data found when processing input".
    package let message: String
    /// The last warning or error FFmpeg logged on the failing thread, if any.
    package let detail: String

    /// Wraps `code`, reading FFmpeg's message and the calling thread's last log line.
    package init(code: Int32) {
        self.code = code
        self.message = FFmpegError.text(for: code)
        self.detail = FFmpegLog.lastMessage
    }

    package var description: String {
        detail.isEmpty ? message : "\(message) (\(detail))"
    }

    /// FFmpeg's text for an error code (what `av_err2str` would print).
    package static func text(for code: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: Int(AV_ERROR_MAX_STRING_SIZE))
        return buffer.withUnsafeMutableBufferPointer { pointer in
            _ = CFFmpeg_error_string(code, pointer.baseAddress, pointer.count)
            let bytes = pointer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
            return String(decoding: bytes, as: UTF8.self)
        }
    }

    // MARK: - Well-known codes

    package static var endOfFile: Int32 { CFFmpeg_AVERROR_EOF() }
    package static var exit: Int32 { CFFmpeg_AVERROR_EXIT() }
    package static var invalidData: Int32 { CFFmpeg_AVERROR_INVALIDDATA() }
    package static var decoderNotFound: Int32 { CFFmpeg_AVERROR_DECODER_NOT_FOUND() }
    package static var demuxerNotFound: Int32 { CFFmpeg_AVERROR_DEMUXER_NOT_FOUND() }
    package static var protocolNotFound: Int32 { CFFmpeg_AVERROR_PROTOCOL_NOT_FOUND() }
    package static var tryAgain: Int32 { CFFmpeg_AVERROR(EAGAIN) }
    /// AVERROR(errno) for a POSIX error number.
    package static func posix(_ errno: Int32) -> Int32 { CFFmpeg_AVERROR(errno) }
}
