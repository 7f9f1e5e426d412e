// Playhead: decodes one audio stream's packets into AudioFrames.
internal import CFFmpeg
internal import CFFmpegShims

// Concurrency: an `AudioDecoder` belongs to one decode thread; every method must be called
// from it. Create it on the demux thread (or before the threads start): init reads the
// demuxer's stream parameters once and never touches the demuxer again.

/// An audio decoder for one stream. Owns its `AVCodecContext` (through `CodecContext`).
/// Same rhythm as `VideoDecoder`: send, receive until `.needsInput`, flush after seeks.
package final class AudioDecoder: @unchecked Sendable {
    /// owned by the decode thread
    private let codec: CodecContext
    /// The stream this decoder decodes.
    package let streamIndex: Int

    /// Opens a decoder for the audio stream `streamIndex` of `demuxer`.
    ///
    /// - Parameters:
    ///   - demuxer: the demuxer holding the stream; only read during init.
    ///   - streamIndex: an audio stream's index.
    ///   - threadCount: decoding threads; nil means 1 (audio gains nothing from more).
    /// - Throws: `.unsupportedCodec(codecs:)` when this FFmpeg has no decoder for it,
    ///   `.damaged` when the stream is not audio, `.limitExceeded` when it declares more
    ///   than `MediaLimits.standard` allows.
    package init(demuxer: Demuxer, streamIndex: Int, threadCount: Int? = nil) throws(MediaFailure) {
        codec = try CodecContext(
            demuxer: demuxer, streamIndex: streamIndex, type: AVMEDIA_TYPE_AUDIO,
            threadCount: Int32(max(1, threadCount ?? 1)), threadType: FF_THREAD_SLICE)
        self.streamIndex = streamIndex
    }

    /// Gives the decoder one packet of its stream.
    @discardableResult
    package func send(_ packet: Packet) -> DecodeStatus { codec.send(packet.pointer) }

    /// Tells the decoder no more packets follow.
    @discardableResult
    package func sendEndOfStream() -> DecodeStatus { codec.send(nil) }

    /// The next decoded frame, if one is ready.
    package func receiveFrame() -> DecodeResult<AudioFrame> {
        let timeBase = codec.timeBase
        return codec.receive { frame in AudioFrame(movingFrom: frame, timeBase: timeBase) }
    }

    /// Drops all buffered packets and frames; call after every seek.
    package func flush() { codec.flush() }

    /// Corrupt packets or frames the decoder has dropped and concealed so far.
    package var concealedErrorCount: Int { codec.concealedErrors }
}
