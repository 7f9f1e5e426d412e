// Playhead: the single owner of an AVFormatContext (an open demuxer).
internal import CFFmpeg
internal import CFFmpegShims
import Foundation

/// An open container. Owns its `AVFormatContext` and the interrupt switch FFmpeg polls
/// while it blocks; closes both in `deinit`.
///
/// Concurrency: not thread-safe. One thread at a time may call into it (the thread that
/// inspects or demuxes). Only `interrupt.abort()` may be called from other threads.
package final class FormatContext: @unchecked Sendable {
    /// owned by the calling thread; freed in deinit
    private(set) var pointer: UnsafeMutablePointer<AVFormatContext>
    /// Polled by FFmpeg during blocking I/O; abort it from any thread to unblock a read.
    package let interrupt: InterruptDeadline
    /// The custom I/O of an in-memory or streamed input; freed after the format context in deinit.
    private let customIO: (any CustomIO)?
    /// Headers, user agent and reconnection of a network input, for the extra requests made
    /// on its behalf (an HLS master playlist read again); nil for other inputs.
    let networkOptions: NetworkOptions?

    /// Opens `location`, giving up after `timeout` seconds of blocking I/O.
    ///
    /// - Throws: a classified `MediaFailure` saying why the input cannot be opened.
    package init(
        location: MediaLocation, timeout: Double, interrupt: InterruptDeadline = InterruptDeadline()
    ) throws(MediaFailure) {
        FFmpegLog.installIfNeeded()
        try location.checkLocalFile()
        var format: UnsafePointer<AVInputFormat>? = nil
        if let name = location.inputFormat { format = try DeviceInputFormat.find(name) }
        guard var context = avformat_alloc_context() else { throw .io(detail: "out of memory") }
        self.interrupt = interrupt
        networkOptions = location.isNetwork ? location.network : nil
        // In-memory and streamed inputs are read through a custom AVIOContext.
        var customIO: (any CustomIO)?
        if let memory = location.memory {
            customIO = MemoryIO(memory)
        } else if let input = location.streaming {
            customIO = StreamingIO(input, interrupt: interrupt)
        }
        if location.memory != nil || location.streaming != nil {
            guard let customIO else {
                avformat_free_context(context)
                throw .io(detail: "out of memory")
            }
            context.pointee.pb = customIO.context
            context.pointee.flags |= AVFMT_FLAG_CUSTOM_IO
        }
        self.customIO = customIO
        interrupt.attach(to: context)
        if location.isNetwork, location.streaming == nil {
            interrupt.countInputBytes(of: context)
            interrupt.limitInputSizes(
                of: context, playlist: location.network.maximumPlaylistBytes,
                segment: location.network.maximumSegmentBytes)
            if location.requiresTLS { interrupt.refuseHTTPSDowngrade() }
        }
        interrupt.expire(after: timeout)

        var options: OpaquePointer? = nil
        av_dict_set(&options, "protocol_whitelist", location.allowedProtocols, 0)
        FormatContext.addNetworkOptions(for: location, to: &options)
        defer { av_dict_free(&options) }
        if let name = location.inputFormat { av_dict_set(&options, "format_whitelist", name, 0) }

        FFmpegLog.clearLastMessage()
        var opened: UnsafeMutablePointer<AVFormatContext>? = context
        let name = location.streaming?.probeName ?? location.ffmpegURL
        let status = avformat_open_input(&opened, name, format, &options)
        guard status >= 0, let openedContext = opened else {
            // avformat_open_input frees the context on failure.
            if location.isNetwork, let refusal = interrupt.inputRefusal { throw refusal.failure(location.network) }
            if let failure = location.streaming?.failure { throw failure }
            if location.isNetwork, !interrupt.hasFired, let failure = FormatContext.networkFailure(status) {
                throw failure
            }
            throw FormatContext.classifyOpenFailure(status, interrupt: interrupt)
        }
        context = openedContext
        pointer = context
        if let declared = location.declared { apply(declared) }
        if let duration = location.streaming?.duration {
            apply(DeclaredFacts(duration: duration, metadata: [:]))
        }
        try checkNoDowngrade(location)
        // A playlist cut short by its size limit may still have opened.
        if let failure = inputRefusalFailure { throw failure }
    }

    deinit {
        interrupt.forgetCountedInputs()
        var context: UnsafeMutablePointer<AVFormatContext>? = pointer
        avformat_close_input(&context)
    }

    /// Reads the start of the streams so codec parameters, durations and frame rates are known.
    /// Failure here is not fatal for inspection; it returns FFmpeg's error when there is one.
    @discardableResult
    package func findStreamInfo(timeout: Double) -> FFmpegError? {
        interrupt.expire(after: timeout)
        FFmpegLog.clearLastMessage()
        let status = avformat_find_stream_info(pointer, nil)
        return status < 0 ? FFmpegError(code: status) : nil
    }

    /// The number of streams in the container.
    package var streamCount: Int { Int(pointer.pointee.nb_streams) }

    /// The stream at `index`.
    func stream(at index: Int) -> UnsafeMutablePointer<AVStream>? {
        guard index >= 0, index < streamCount else { return nil }
        return pointer.pointee.streams[index]
    }

    static func classifyOpenFailure(_ status: Int32, interrupt: InterruptDeadline) -> MediaFailure {
        if interrupt.isAborted { return .cancelled }
        if status == FFmpegError.exit || interrupt.hasFired { return .timedOut }
        switch status {
        case FFmpegError.posix(ENOENT): return .fileNotFound
        case FFmpegError.posix(EACCES), FFmpegError.posix(EPERM): return .permissionDenied
        case FFmpegError.posix(EISDIR): return .isDirectory
        case FFmpegError.invalidData, FFmpegError.demuxerNotFound:
            // A format guessed "with low score" was a guess: the bytes are not media.
            let guessed = FFmpegLog.recentMessages.contains { $0.contains("misdetection possible") }
            let detail = FFmpegLog.lastMessage
            return detail.isEmpty || guessed ? .notMediaFile : .damaged(detail: detail)
        case FFmpegError.protocolNotFound:
            return .io(detail: "protocol not allowed or not found")
        default:
            return .io(detail: FFmpegError(code: status).description)
        }
    }
}
