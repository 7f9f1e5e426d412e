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
    /// owned by the decode thread
    private let codec: CodecContext

    /// The number of threads libavcodec decodes with (frame and slice threading).
    package let threadCount: Int
    /// The stream this decoder decodes.
    package let streamIndex: Int

    /// Opens a decoder for the video stream `streamIndex` of `demuxer`.
    ///
    /// - Parameters:
    ///   - demuxer: the demuxer holding the stream; only read during init.
    ///   - streamIndex: a video stream's index.
    ///   - threadCount: decoding threads; nil picks `min(cores + 1, 16)` with frame+slice
    ///     threading (one frame of latency per thread). Pass 1 for scrubbing or thumbnails.
    /// - Throws: `.unsupportedCodec(codecs:)` when this FFmpeg has no decoder for it,
    ///   `.damaged` when the stream is not video, `.limitExceeded` when it declares more
    ///   than `MediaLimits.standard` allows.
    package init(demuxer: Demuxer, streamIndex: Int, threadCount: Int? = nil) throws(MediaFailure) {
        let threads = max(1, threadCount ?? min(Int(CFFmpeg_cpu_count()) + 1, 16))
        codec = try CodecContext(
            demuxer: demuxer, streamIndex: streamIndex, type: AVMEDIA_TYPE_VIDEO,
            threadCount: Int32(threads), threadType: FF_THREAD_FRAME | FF_THREAD_SLICE)
        self.threadCount = threads
        self.streamIndex = streamIndex
    }

    /// Gives the decoder one packet of its stream.
    ///
    /// - Returns: `.outputFull` when frames must be received before this packet is taken.
    @discardableResult
    package func send(_ packet: Packet) -> DecodeStatus { codec.send(packet.pointer) }

    /// Tells the decoder no more packets follow, so it releases the frames it holds back.
    @discardableResult
    package func sendEndOfStream() -> DecodeStatus { codec.send(nil) }

    /// The next decoded frame, if one is ready.
    package func receiveFrame() -> DecodeResult<VideoFrame> {
        let timeBase = codec.timeBase
        let frameRate = codec.frameRate
        return codec.receive { frame in
            VideoFrame(movingFrom: frame, timeBase: timeBase, frameRate: frameRate)
        }
    }

    /// Drops all buffered packets and frames; call after every seek.
    package func flush() { codec.flush() }

    /// When true the decoder skips frames nothing references (AVDISCARD_NONREF): set it while
    /// decoding towards an exact-seek target far ahead, clear it near the target.
    package var skipsNonReferenceFrames: Bool {
        get { codec.pointer.pointee.skip_frame == AVDISCARD_NONREF }
        set { codec.pointer.pointee.skip_frame = newValue ? AVDISCARD_NONREF : AVDISCARD_DEFAULT }
    }

    /// Corrupt packets or frames the decoder has dropped and concealed so far.
    package var concealedErrorCount: Int { codec.concealedErrors }

    /// The threading libavcodec chose: "frame", "slice" or "none".
    package var activeThreading: String {
        let active = codec.pointer.pointee.active_thread_type
        if (active & FF_THREAD_FRAME) != 0 { return "frame" }
        if (active & FF_THREAD_SLICE) != 0 { return "slice" }
        return "none"
    }
}
