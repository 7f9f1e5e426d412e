// Playhead: a deadline and abort switch for FFmpeg's blocking I/O.
internal import CFFmpeg
internal import CFFmpegShims

/// Bounds how long FFmpeg may block in I/O. FFmpeg polls it through AVIOInterruptCB; once the
/// deadline passes or `abort()` is called, blocking calls return AVERROR_EXIT.
///
/// Concurrency: thread-safe. The C state is atomics only; `abort()` may be called from any
/// thread while another thread is inside FFmpeg. The owner keeps it alive for as long as a
/// format context points at it.
package final class InterruptDeadline: @unchecked Sendable {
    let state: OpaquePointer

    /// Creates a switch with no deadline.
    package init() {
        guard let state = CFFmpeg_interrupt_create() else {
            preconditionFailure("out of memory allocating an interrupt switch")
        }
        self.state = state
    }

    deinit { CFFmpeg_interrupt_destroy(state) }

    /// Blocking calls give up `seconds` from now; `nil` removes the deadline.
    package func expire(after seconds: Double?) {
        let microseconds = seconds.map { Int64(($0 * 1_000_000).rounded()) } ?? 0
        CFFmpeg_interrupt_set_deadline(state, max(microseconds, seconds == nil ? 0 : 1))
    }

    /// Makes every blocking call return now and forever after.
    package func abort() { CFFmpeg_interrupt_abort(state) }

    /// Makes the blocking call in progress (or the next one) give up, once: a thread blocked
    /// reading a stalled connection returns so it can serve a seek. The reading thread clears
    /// it with `consumeKick()`. Any thread may kick.
    package func kick() { CFFmpeg_interrupt_kick(state) }

    /// What a kick did, as its consumer learns it.
    package enum KickOutcome: Sendable, Equatable {
        /// No kick was pending.
        case none
        /// A kick was pending but cut no read short (it came while no I/O was under way).
        case pending
        /// A read was cut short by the kick: the input may have stopped mid-packet.
        case cutRead
    }

    /// Clears a pending kick and says whether it cut a read short. Call on the thread doing
    /// the I/O (the callback that notes the cut runs on it).
    package func consumeKick() -> KickOutcome {
        switch CFFmpeg_interrupt_consume_kick(state) {
        case 0: return .none
        case 1: return .pending
        default: return .cutRead
        }
    }

    /// What a custom input's read callback asks before it waits: true when it must give up
    /// (as `hasFired`), and a pending kick is then noted as a read cut short, as FFmpeg's own
    /// I/O notes it through the interrupt callback. On the thread doing the I/O.
    var stopsRead: Bool { CFFmpeg_interrupt_stops_read(state) != 0 }

    /// True while a pending kick has cut a read short (`consumeKick()` will say `.cutRead`);
    /// the packet such a read returned may be truncated. On the thread doing the I/O.
    var kickCutRead: Bool { CFFmpeg_interrupt_kick_cut_read(state) != 0 }

    /// True once `abort()` was called.
    package var isAborted: Bool { CFFmpeg_interrupt_aborted(state) != 0 }

    /// True once the deadline passed or `abort()` was called.
    package var hasFired: Bool { CFFmpeg_interrupt_fired(state) != 0 }

    func attach(to context: UnsafeMutablePointer<AVFormatContext>) {
        CFFmpeg_interrupt_attach(context, state)
    }

    /// Makes this switch count the bytes every input of `context` reads (including nested
    /// HLS and DASH opens). Call after `attach(to:)`, before the context opens.
    func countInputBytes(of context: UnsafeMutablePointer<AVFormatContext>) {
        CFFmpeg_count_input_bytes(context)
    }

    /// Bytes read so far by a counting context's inputs. Only on that context's I/O thread,
    /// while it is open.
    var inputBytesRead: Int64 { CFFmpeg_input_bytes_read(state) }

    /// Bounds the bytes one playlist and one segment of a counting `context` may read (0: no
    /// bound). Call after `countInputBytes(of:)`, before the context opens.
    func limitInputSizes(of context: UnsafeMutablePointer<AVFormatContext>, playlist: Int, segment: Int) {
        CFFmpeg_limit_input_sizes(state, context, Int64(max(0, playlist)), Int64(max(0, segment)))
    }

    /// Makes a counting context refuse any input that a redirect moved from https to plain
    /// http, before a demuxer reads it. Call after `countInputBytes(of:)`, before the open.
    func refuseHTTPSDowngrade() { CFFmpeg_refuse_https_downgrade(state) }

    /// Why the counting context refused an input, nil while it refused none. Any thread.
    var inputRefusal: InputRefusal? {
        switch Int(CFFmpeg_input_refusal(state)) {
        case Int(CFFMPEG_PLAYLIST_TOO_LARGE.rawValue): return .playlistTooLarge
        case Int(CFFMPEG_SEGMENT_TOO_LARGE.rawValue): return .segmentTooLarge
        case Int(CFFMPEG_DOWNGRADE_REFUSED.rawValue):
            return .httpsDowngrade(location: String(cString: CFFmpeg_refused_location(state)))
        default: return nil
        }
    }

    /// Stops tracking inputs before their context closes.
    func forgetCountedInputs() { CFFmpeg_forget_counted_inputs(state) }

    /// Forgets what a failed open left behind (counted inputs, their bytes, a downgrade rule,
    /// a refusal), so another input can be opened with this interrupt: call on the opening
    /// thread between two opens, never while a context uses it. An abort stays.
    package func resetAfterFailedOpen() { CFFmpeg_interrupt_reset_inputs(state) }
}
