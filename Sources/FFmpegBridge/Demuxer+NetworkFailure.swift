// Playhead: telling a broken connection from the end of a network input.
//
// Concurrency: like the rest of `Demuxer`, demux-thread only.
internal import CFFmpeg
internal import CFFmpegShims
import Foundation

extension Demuxer {
    /// The failure behind a read that ended with `status` on a network input whose connection
    /// broke; nil for files, clean ends and non-network errors.
    func networkReadFailure(_ status: Int32) -> MediaFailure? {
        guard isNetwork else { return nil }
        let ioError = container.pointer.pointee.pb.map { $0.pointee.error } ?? 0
        if ioError < 0 && ioError != FFmpegError.endOfFile {
            return FormatContext.networkFailure(ioError)
                ?? .io(detail: "network read failed: \(FFmpegError(code: ioError).message)")
        }
        if status != FFmpegError.endOfFile, let failure = FormatContext.networkFailure(status) {
            return failure
        }
        return nil
    }
}
