// Playhead: what sending a packet to, or receiving a frame from, a decoder produced.

// Concurrency: plain values; they cross threads freely when their frame type does.

/// The outcome of giving a decoder one packet (or the end-of-stream signal).
package enum DecodeStatus: Sendable, Equatable {
    /// The decoder took the packet.
    case accepted
    /// The decoder's output is full: receive frames until `.needsInput`, then send the same
    /// packet again.
    case outputFull
    /// The packet was corrupt and was dropped; the decoder keeps going (the error is
    /// concealed, and later keyframes decode normally).
    case dropped(FFmpegError)
    /// The decoder cannot take packets: end of stream was already sent (flush to reuse it)
    /// or it ran out of memory.
    case failure(FFmpegError)
}

/// The outcome of asking a decoder for its next frame.
package enum DecodeResult<Frame> {
    /// A decoded frame.
    case frame(Frame)
    /// Send more packets first.
    case needsInput
    /// Every frame has been returned after `sendEndOfStream()`; `flush()` to reuse.
    case endOfStream
    /// The decoder cannot continue.
    case failure(FFmpegError)
}

extension DecodeResult: Sendable where Frame: Sendable {}

extension DecodeResult {
    /// The frame, when this result carries one.
    package var frame: Frame? {
        if case .frame(let frame) = self { return frame }
        return nil
    }
}
