// Playhead: the single owner of an open AVCodecContext (a decoder) and its receive frame.
internal import CFFmpeg
internal import CFFmpegShims

// Concurrency: one decode thread owns a `CodecContext` (through its VideoDecoder or
// AudioDecoder) and is the only thread that calls into it. Creation reads the demuxer's
// stream parameters, so it happens on the demux thread or before the threads start.
// FFmpeg's own frame/slice worker threads are internal to libavcodec.

/// An open decoder for one stream, shared machinery of `VideoDecoder` and `AudioDecoder`.
/// Owns the `AVCodecContext` and a scratch `AVFrame`; frees both in `deinit`.
final class CodecContext {
    /// owned by the decode thread; freed in deinit
    let pointer: UnsafeMutablePointer<AVCodecContext>
    /// owned by the decode thread; each received frame is moved out of it; freed in deinit
    private let scratch: UnsafeMutablePointer<AVFrame>
    /// The stream's time base, copied at init.
    let timeBase: AVRational
    /// The stream's frame rate guess (0/1 when unknown), copied at init.
    let frameRate: AVRational
    /// owned by the decode thread: corrupt packets or frames skipped so far
    private(set) var concealedErrors = 0

    init(
        demuxer: Demuxer, streamIndex: Int, type: CFFmpeg.AVMediaType, threadCount: Int32,
        threadType: Int32, options: [(String, String)] = []
    ) throws(MediaFailure) {
        guard let (container, stream) = demuxer.stream(at: streamIndex) else {
            throw .damaged(detail: "the container has no stream \(streamIndex)")
        }
        let parameters = stream.pointee.codecpar!
        let codecID = parameters.pointee.codec_id
        let codecName = String(cString: avcodec_get_name(codecID))
        guard parameters.pointee.codec_type == type else {
            throw .damaged(
                detail:
                    "stream \(streamIndex) (\(codecName)) is not \(type == AVMEDIA_TYPE_VIDEO ? "video" : "audio")"
            )
        }
        if let failure = MediaLimits.standard.violation(of: stream) { throw failure }
        guard let codec = avcodec_find_decoder(codecID) else {
            throw .unsupportedCodec(codecs: [codecName])
        }
        guard let context = avcodec_alloc_context3(codec), let frame = av_frame_alloc() else {
            throw .io(detail: "out of memory")
        }
        var owned: UnsafeMutablePointer<AVCodecContext>? = context
        var status = avcodec_parameters_to_context(context, parameters)
        if status >= 0 {
            context.pointee.pkt_timebase = stream.pointee.time_base
            context.pointee.thread_count = threadCount
            context.pointee.thread_type = threadType
            // Frames that grow past the limit mid-stream are refused (and concealed) by
            // libavcodec instead of allocated.
            context.pointee.max_pixels = Int64(MediaLimits.standard.maximumPixels)
            for (name, value) in options {
                _ = av_opt_set(context, name, value, AV_OPT_SEARCH_CHILDREN)
            }
            FFmpegLog.clearLastMessage()
            status = avcodec_open2(context, codec, nil)
        }
        guard status >= 0 else {
            var frameOptional: UnsafeMutablePointer<AVFrame>? = frame
            av_frame_free(&frameOptional)
            avcodec_free_context(&owned)
            throw status == FFmpegError.posix(ENOMEM)
                ? .io(detail: "out of memory") : .unsupportedCodec(codecs: [codecName])
        }
        self.pointer = context
        self.scratch = frame
        self.timeBase = stream.pointee.time_base
        self.frameRate = av_guess_frame_rate(container.pointer, stream, nil)
    }

    /// Opens a decoder for `codecID` that no container stream describes (closed captions
    /// carried inside the video), with packet times in `timeBase` and private `options` set
    /// before opening.
    init(decoderFor codecID: AVCodecID, timeBase: AVRational, options: [(String, String)])
        throws(MediaFailure)
    {
        let codecName = String(cString: avcodec_get_name(codecID))
        guard let codec = avcodec_find_decoder(codecID) else {
            throw .unsupportedCodec(codecs: [codecName])
        }
        guard let context = avcodec_alloc_context3(codec), let frame = av_frame_alloc() else {
            throw .io(detail: "out of memory")
        }
        context.pointee.pkt_timebase = timeBase
        context.pointee.time_base = timeBase
        for (name, value) in options {
            _ = av_opt_set(context, name, value, AV_OPT_SEARCH_CHILDREN)
        }
        guard avcodec_open2(context, codec, nil) >= 0 else {
            var owned: UnsafeMutablePointer<AVCodecContext>? = context
            var frameOptional: UnsafeMutablePointer<AVFrame>? = frame
            av_frame_free(&frameOptional)
            avcodec_free_context(&owned)
            throw .unsupportedCodec(codecs: [codecName])
        }
        self.pointer = context
        self.scratch = frame
        self.timeBase = timeBase
        self.frameRate = AVRational(num: 0, den: 1)
    }

    deinit {
        var frame: UnsafeMutablePointer<AVFrame>? = scratch
        av_frame_free(&frame)
        var context: UnsafeMutablePointer<AVCodecContext>? = pointer
        avcodec_free_context(&context)
    }

    /// Sends one packet (nil: end of stream), classifying the result. An empty packet is
    /// dropped rather than sent: libavcodec would read it as end of stream or reject it.
    func send(_ packet: UnsafePointer<AVPacket>?) -> DecodeStatus {
        if let packet, packet.pointee.size <= 0 {
            concealedErrors += 1
            return .dropped(FFmpegError(code: FFmpegError.invalidData))
        }
        let status = avcodec_send_packet(pointer, packet)
        if status >= 0 { return .accepted }
        if status == FFmpegError.tryAgain { return .outputFull }
        if isFatal(status) { return .failure(FFmpegError(code: status)) }
        concealedErrors += 1
        return .dropped(FFmpegError(code: status))
    }

    /// Receives the next frame into the scratch frame and hands it to `make`, which must move
    /// the reference out. Errors caused by corrupt data are counted and skipped.
    func receive<F>(_ make: (UnsafeMutablePointer<AVFrame>) -> F?) -> DecodeResult<F> {
        for _ in 0..<64 {
            let status = avcodec_receive_frame(pointer, scratch)
            if status >= 0 {
                defer { av_frame_unref(scratch) }
                guard let frame = make(scratch) else {
                    return .failure(FFmpegError(code: FFmpegError.posix(ENOMEM)))
                }
                return .frame(frame)
            }
            if status == FFmpegError.tryAgain { return .needsInput }
            if status == FFmpegError.endOfFile { return .endOfStream }
            if isFatal(status) { return .failure(FFmpegError(code: status)) }
            concealedErrors += 1
        }
        return .needsInput
    }

    /// Drops every buffered packet and frame (after a seek) and makes the decoder accept
    /// packets again after end of stream.
    func flush() { avcodec_flush_buffers(pointer) }

    private func isFatal(_ status: Int32) -> Bool {
        status == FFmpegError.endOfFile || status == FFmpegError.posix(ENOMEM)
            || status == FFmpegError.posix(EINVAL)
    }
}
