// Playhead: telling a broken connection from the end of a network input, and reading again
// after a read was cut short for a seek.
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

    /// Makes the input readable again after a kick cut a read short (a seek leaving a stalled
    /// connection): libavformat marked the byte input at its end with an error, so a seek it
    /// served by reading on (a target within the socket's receive buffer, megabytes once TCP
    /// autotuning grew it) met that "end" at once, and the item ended there without a picture
    /// or a new request. The marks are cleared, and until the next packet arrives every byte
    /// seek goes to the protocol (`direct`), which over HTTP asks again from the new offset
    /// instead of reading on, or waiting on, the connection that was cut.
    func recoverFromCutRead() {
        guard readWasCut else { return }
        readWasCut = false
        guard streamed == nil, let io = container.pointer.pointee.pb else { return }
        io.pointee.eof_reached = 0
        io.pointee.error = 0
        if isNetwork, io.pointee.direct == 0 {
            io.pointee.direct = 1
            seeksDirectly = true
        }
    }

    /// Buffered reading and seeking again (after the first packet read following
    /// `recoverFromCutRead()`).
    func endDirectSeeks() {
        seeksDirectly = false
        container.pointer.pointee.pb?.pointee.direct = 0
    }
}
