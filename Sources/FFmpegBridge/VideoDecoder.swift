// Playhead: decodes one video stream's packets into VideoFrames.
internal import CFFmpeg
internal import CFFmpegShims

// Concurrency: a `VideoDecoder` belongs to one decode thread; every method and property must
// be called from it. Create it on the demux thread (or before the threads start): init reads
// the demuxer's stream parameters once and never touches the demuxer again. Packets arrive
// from the demux thread (they are immutable), and frames leave to the video output (they are
// immutable too).

/// A video decoder for one stream. Owns its `AVCodecContext` (through `CodecContext`).
///
/// Use it in FFmpeg's send/receive rhythm: `send(_:)` a packet, then `receiveFrame()` until
/// `.needsInput`; at the end `sendEndOfStream()` and receive until `.endOfStream`. After a
/// seek call `flush()`. Corrupt data is concealed: bad packets come back `.dropped` and the
/// decoder continues.
package final class VideoDecoder: @unchecked Sendable {
    /// owned by the decode thread: the frame-threaded decoder playback uses
    private let codec: CodecContext
    /// owned by the decode thread: the slice-threaded decoder for the decode from a keyframe
    /// to an exact-seek target (`SeekCatchUp`), nil for streams that gain nothing from it
    private let catchUp: CodecContext?
    private let catchUpKind: SeekCatchUp.Kind?
    /// owned by the decode thread: packets since the last flush go to `catchUp`
    private var catchingUp = false
    /// owned by the decode thread: packets `catchUp` took since the last flush
    private var catchUpPackets = 0
    /// owned by the decode thread: `codec` or `catchUp` has taken a packet since creation
    private var hasDecoded = false
    /// owned by the decode thread: `catchUp`'s last frames, drained at the hand-over
    private var handedOver: [VideoFrame] = []
    /// owned by the decode thread: the overlap of both decoders at an HEVC CRA picture
    private var openGOPHandOver: OpenGOPHandOver?
    /// owned by the decode thread: a decoder for the first picture alone
    /// (`previewFrame(of:)`); released after its one use, with the picture buffers it made
    private var preview: CodecContext?

    /// The number of threads libavcodec decodes with (frame and slice threading).
    package let threadCount: Int
    /// The stream this decoder decodes.
    package let streamIndex: Int

    /// Opens a decoder for the video stream `streamIndex` of `demuxer`.
    ///
    /// - Parameters:
    ///   - demuxer: the demuxer holding the stream; only read during init.
    ///   - streamIndex: a video stream's index.
    ///   - threadCount: decoding threads; nil picks `defaultThreadCount` with frame+slice
    ///     threading (one frame of latency per thread). Pass 1 for scrubbing or thumbnails.
    /// - Throws: `.unsupportedCodec(codecs:)` when this FFmpeg has no decoder for it,
    ///   `.damaged` when the stream is not video, `.limitExceeded` when it declares more
    ///   than `MediaLimits.standard` allows.
    package init(demuxer: Demuxer, streamIndex: Int, threadCount: Int? = nil) throws(MediaFailure) {
        let threads = max(1, threadCount ?? Self.defaultThreadCount)
        codec = try CodecContext(
            demuxer: demuxer, streamIndex: streamIndex, type: AVMEDIA_TYPE_VIDEO,
            threadCount: Int32(threads), threadType: FF_THREAD_FRAME | FF_THREAD_SLICE)
        self.threadCount = threads
        self.streamIndex = streamIndex
        // The second decoder only helps when several threads share the work.
        let kind = threadCount == nil && threads > 1
            ? demuxer.stream(at: streamIndex).flatMap { found in
                found.stream.pointee.codecpar.flatMap { SeekCatchUp.kind(for: $0) }
            } : nil
        catchUpKind = kind
        catchUp = kind == nil
            ? nil
            : try? CodecContext(
                demuxer: demuxer, streamIndex: streamIndex, type: AVMEDIA_TYPE_VIDEO,
                threadCount: Int32(threads), threadType: FF_THREAD_SLICE)
        // Slice threads split a picture only where the stream allows it (the catch-up kinds);
        // elsewhere one thread decodes the picture as fast, without starting threads.
        preview = threadCount == nil && threads > 1
            ? try? CodecContext(
                demuxer: demuxer, streamIndex: streamIndex, type: AVMEDIA_TYPE_VIDEO,
                threadCount: kind == nil ? 1 : Int32(threads), threadType: FF_THREAD_SLICE)
            : nil
    }

    /// The picture of `packet`, a keyframe, decoded on its own before the decoder has taken
    /// any packet; nil otherwise, or when it cannot be decoded alone.
    ///
    /// Frame threading puts out the first picture only once every thread has a frame, and
    /// streams that reorder pictures hold it back until later ones are decoded too (a 2160p
    /// HEVC stream: 75–80 ms instead of 35 ms). This decodes the keyframe alone, on a decoder
    /// of its own (slice-threaded for wavefront or tiled HEVC), and drains it at once, so the
    /// first picture after opening shows as soon as it exists. The packet must still be sent
    /// as usual afterwards: the same picture then comes out again and the caller drops it by
    /// its time. The extra decoder is closed after this one picture (a 2160p stream's buffers
    /// are tens of MB).
    package func previewFrame(of packet: Packet) -> VideoFrame? {
        guard packet.isKeyframe, let context = preview else { return nil }
        defer { preview = nil }
        guard context.send(packet.pointer) == .accepted, context.send(nil) == .accepted else {
            return nil
        }
        var first: VideoFrame?
        while case .frame(let frame) = receive(from: context) {
            if first == nil { first = frame }
        }
        return first
    }

    /// The decoding threads when the caller does not choose: one per core, at least 2 and at
    /// most 16.
    ///
    /// libavcodec's own choice is one more than the cores. Measured on a 2-core machine
    /// (Benchmarks/notes.md), the extra thread made every figure worse: with three frame
    /// threads on two cores the picture on the critical path keeps losing its core, so exact
    /// seeks took 45–50 ms instead of 33 ms (1080p H.264) and 145 ms instead of 110–130 ms
    /// (2160p HEVC), and untimed playback 10–15 % longer.
    package static var defaultThreadCount: Int { min(max(Int(CFFmpeg_cpu_count()), 2), 16) }

    /// Gives the decoder one packet of its stream.
    ///
    /// - Returns: `.outputFull` when frames must be received before this packet is taken.
    @discardableResult
    package func send(_ packet: Packet) -> DecodeStatus {
        hasDecoded = true
        preview = nil  // unused when the first packet was not previewed (an exact seek at open)
        if openGOPHandOver != nil { return sendToBoth(packet) }
        guard catchingUp, let catchUp, let catchUpKind else { return codec.send(packet.pointer) }
        if catchUpPackets > 0 && SeekCatchUp.canHandOver(at: packet, kind: catchUpKind) {
            // Back to frame threading: everything before this keyframe comes out of `catchUp`
            // first, then `codec` (flushed with it) starts here.
            _ = catchUp.send(nil)
            while case .frame(let frame) = receive(from: catchUp) { handedOver.append(frame) }
            catchUp.flush()
            catchingUp = false
            return codec.send(packet.pointer)
        }
        if catchUpPackets > 0 && SeekCatchUp.startsOpenGOP(at: packet, kind: catchUpKind) {
            openGOPHandOver = OpenGOPHandOver(boundary: packet.pts)
            catchingUp = false
            return sendToBoth(packet)
        }
        catchUpPackets += 1
        return catchUp.send(packet.pointer)
    }

    /// Tells the decoder no more packets follow, so it releases the frames it holds back.
    @discardableResult
    package func sendEndOfStream() -> DecodeStatus {
        if var handOver = openGOPHandOver, let catchUp {
            if handOver.catchUpBusy {
                _ = catchUp.send(nil)
                collect(from: catchUp, into: &handOver)
                handOver.endCatchUp()
                catchUp.flush()
            }
            openGOPHandOver = handOver
            return codec.send(nil)
        }
        return active.send(nil)
    }

    /// The next decoded frame, if one is ready.
    package func receiveFrame() -> DecodeResult<VideoFrame> {
        if !handedOver.isEmpty { return .frame(handedOver.removeFirst()) }
        if openGOPHandOver != nil { return receiveDuringHandOver() }
        return receive(from: active)
    }

    // MARK: - Open-GOP hand-over

    /// During an open-GOP hand-over every packet goes to both decoders; frames they put out are
    /// sorted into the hand-over's queues so `send` never reports a full output.
    private func sendToBoth(_ packet: Packet) -> DecodeStatus {
        guard var handOver = openGOPHandOver, let catchUp else { return codec.send(packet.pointer) }
        if handOver.catchUpBusy {
            var status = catchUp.send(packet.pointer)
            while status == .outputFull {
                collect(from: catchUp, into: &handOver)
                guard handOver.catchUpBusy else { break }
                status = catchUp.send(packet.pointer)
            }
            if case .failure = status { handOver.endCatchUp() }
            if handOver.catchUpBusy { collect(from: catchUp, into: &handOver) }
            if !handOver.catchUpBusy { catchUp.flush() }
        }
        var status = codec.send(packet.pointer)
        while status == .outputFull {
            while case .frame(let frame) = receive(from: codec) { handOver.takeFromMain(frame) }
            status = codec.send(packet.pointer)
        }
        openGOPHandOver = handOver
        return status
    }

    /// Moves `catchUp`'s ready frames into the hand-over until it puts out the CRA.
    private func collect(from catchUp: CodecContext, into handOver: inout OpenGOPHandOver) {
        while handOver.catchUpBusy {
            switch receive(from: catchUp) {
            case .frame(let frame): handOver.takeFromCatchUp(frame)
            case .needsInput: return
            case .endOfStream, .failure: handOver.endCatchUp()
            }
        }
    }

    private func receiveDuringHandOver() -> DecodeResult<VideoFrame> {
        guard var handOver = openGOPHandOver, let catchUp else { return receive(from: codec) }
        defer { openGOPHandOver = handOver.isDrained && !handOver.filtersMain ? nil : handOver }
        if let frame = handOver.next() { return .frame(frame) }
        if handOver.catchUpBusy {
            collect(from: catchUp, into: &handOver)
            if !handOver.catchUpBusy { catchUp.flush() }
            if let frame = handOver.next() { return .frame(frame) }
            if handOver.catchUpBusy { return .needsInput }
        }
        while true {
            let result = receive(from: codec)
            guard case .frame(let frame) = result else { return result }
            handOver.takeFromMain(frame)
            if let frame = handOver.next() { return .frame(frame) }
        }
    }

    private func receive(from context: CodecContext) -> DecodeResult<VideoFrame> {
        let timeBase = context.timeBase
        let frameRate = context.frameRate
        return context.receive { frame in
            VideoFrame(movingFrom: frame, timeBase: timeBase, frameRate: frameRate)
        }
    }

    /// The decoder packets go to now.
    private var active: CodecContext { catchingUp ? catchUp ?? codec : codec }

    /// Drops all buffered packets and frames; call after every seek. After a seek (not at the
    /// start), streams with a catch-up decoder decode with it until the next keyframe.
    package func flush() {
        codec.flush()
        catchUp?.flush()
        handedOver.removeAll()
        openGOPHandOver = nil
        catchingUp = catchUp != nil && hasDecoded
        catchUpPackets = 0
    }

    /// True while packets go to the slice-threaded catch-up decoder (after a seek, until it
    /// has handed over).
    package var isCatchingUp: Bool { catchingUp || openGOPHandOver?.catchUpBusy == true }

    /// When true the decoder skips frames nothing references (AVDISCARD_NONREF): set it while
    /// decoding towards an exact-seek target far ahead, clear it near the target.
    package var skipsNonReferenceFrames: Bool {
        get { codec.pointer.pointee.skip_frame == AVDISCARD_NONREF }
        set {
            let discard = newValue ? AVDISCARD_NONREF : AVDISCARD_DEFAULT
            codec.pointer.pointee.skip_frame = discard
            catchUp?.pointer.pointee.skip_frame = discard
        }
    }

    /// Corrupt packets or frames the decoder has dropped and concealed so far.
    package var concealedErrorCount: Int {
        codec.concealedErrors + (catchUp?.concealedErrors ?? 0)
    }

    /// The threading libavcodec chose: "frame", "slice" or "none".
    package var activeThreading: String {
        let active = codec.pointer.pointee.active_thread_type
        if (active & FF_THREAD_FRAME) != 0 { return "frame" }
        if (active & FF_THREAD_SLICE) != 0 { return "slice" }
        return "none"
    }
}
