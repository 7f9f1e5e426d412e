// Playhead: one connection to the sound server through libpulse, with one playback stream.
//
// Concurrency: every libpulse call is made either with the threaded main loop's lock held or
// from a libpulse callback, which runs on the main loop's thread with that lock held. The write
// callback renders from the source (a lock-free ring) into libpulse's own buffer: it takes no
// lock of ours and decodes nothing. `running`, `underruns`, `lost` and the latency are atomics
// any thread may read. `isReady` is written while connecting and read by callbacks, both under
// the main loop's lock; `hasPlayed`, `fillsBeforePlaying`, `buffer`, `lastDiscardHost` and
// `framesSinceDiscard` are touched with that lock held (by callbacks, or by `setRunning`'s
// fill on the caller's thread).
// The main loop's thread runs real-time where the system allows (RealtimeAudioThread).
internal import CPulse
internal import CPulseLoader
import Foundation
import OpenAVFoundation
import Synchronization

/// One connection to the server with one playback stream on it, and the main loop thread that
/// serves both.
final class PulseStream: @unchecked Sendable {
    let mainloop: OpaquePointer
    let context: OpaquePointer
    /// nil only while connecting
    private var stream: OpaquePointer?
    private let source: any AudioRenderSource
    private var frameBytes: Int
    private let sampleRate: Int
    /// The stream's format: the one asked for, with no more channels than the sink has.
    private(set) var format: AudioOutputFormat
    /// The buffer asked for, in seconds (the grown one once grown): the latency assumed until
    /// the server has timing. Main loop lock held.
    private var buffer: Double
    /// The buffer asked for once the server ran dry while the source had audio.
    private let grownBuffer: Double
    /// When queued audio was last dropped or written over (a flush, the end of a warm-up, a
    /// write back for a rate change), main loop lock held: the server reports running dry
    /// right after such a change, which is no sign of a machine too slow for the buffer.
    private var lastDiscardHost = -Double.infinity
    /// True between `setRunning(true)` and `setRunning(false)`: the write callback renders.
    let running = Atomic<Bool>(false)
    /// Underruns the server reported.
    let underruns = Atomic<Int>(0)
    /// Set when the connection to the server failed or ended.
    let lost = Atomic<Bool>(false)
    /// While set, the stream plays silence instead of the source: a reconnected server is
    /// proven to be playing before the source is handed over (a freshly started server may
    /// take a second or two to run its sink).
    private let warmingUp = Atomic<Bool>(false)
    /// Requests answered with silence while warming up.
    let warmUpRequests = Atomic<Int>(0)
    /// Called once, on the main loop's thread, when the connection fails after it was ready.
    private let onLost: @Sendable (PulseStream) -> Void
    /// Called on the main loop's thread when the server asks the stream to pause or resume.
    private let onRequest: @Sendable (SoundServerRequest) -> Void
    private let latencyBits = Atomic<UInt64>(Double(0).bitPattern)
    /// Set once the server has played the stream (main loop lock held).
    private var hasPlayed = false
    /// Write requests answered before it played (main loop lock held).
    private var fillsBeforePlaying = 0
    /// Frames written since the server's queue was last emptied (connected, flushed, a
    /// warm-up's silence dropped), main loop lock held: a write back never goes further.
    private var framesSinceDiscard = 0

    /// How far ahead of what is heard a write back may land, at least (seconds).
    static let rewriteMargin = 0.05

    /// Seconds from a write to the moment its first frame is heard, as last measured.
    var latency: Double { Double(bitPattern: latencyBits.load(ordering: .relaxed)) }

    /// Connects to the server and opens a corked playback stream in `format` (float samples);
    /// `onLost` hears once if the server goes away later, `onRequest` each time the server
    /// asks the stream to pause or resume (both on the main loop's thread: they must not block).
    init(
        format: AudioOutputFormat, source: any AudioRenderSource, server: String?, sink: String?, buffer: Double,
        grownBuffer: Double,
        onRequest: @escaping @Sendable (SoundServerRequest) -> Void, onLost: @escaping @Sendable (PulseStream) -> Void
    ) throws {
        guard playhead_pulse_load() == 1 else {
            throw AudioOutputError(String(cString: playhead_pulse_load_error()))
        }
        guard let mainloop = pa_threaded_mainloop_new() else { throw AudioOutputError("cannot start PulseAudio's main loop") }
        guard let context = pa_context_new(pa_threaded_mainloop_get_api(mainloop), "Playhead") else {
            pa_threaded_mainloop_free(mainloop)
            throw AudioOutputError("cannot create a PulseAudio context")
        }
        self.mainloop = mainloop
        self.context = context
        self.source = source
        self.buffer = buffer
        self.grownBuffer = grownBuffer
        self.onLost = onLost
        self.onRequest = onRequest
        sampleRate = format.sampleRate
        self.format = format
        frameBytes = format.channelCount * MemoryLayout<Float>.size
        latencyBits.store(buffer.bitPattern, ordering: .relaxed)
        do {
            try connect(format: format, server: server, sink: sink)
        } catch {
            teardown()
            throw error
        }
    }

    private var opaqueSelf: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    private static func from(_ userdata: UnsafeMutableRawPointer?) -> PulseStream? {
        userdata.map { Unmanaged<PulseStream>.fromOpaque($0).takeUnretainedValue() }
    }

    /// Connects the context, then the stream, waiting for each to be ready.
    private func connect(format: AudioOutputFormat, server: String?, sink: String?) throws {
        pa_context_set_state_callback(context, { context, userdata in
            guard let owner = PulseStream.from(userdata), let context else { return }
            let state = pa_context_get_state(context)
            if state == PA_CONTEXT_FAILED || state == PA_CONTEXT_TERMINATED { owner.noteLost() }
            // This thread writes the stream: on busy cores an ordinary one can wait longer to
            // run than the server's buffer lasts.
            if state == PA_CONTEXT_READY { RealtimeAudioThread.promoteCurrentThread() }
            pa_threaded_mainloop_signal(owner.mainloop, 0)
        }, opaqueSelf)
        guard pa_context_connect(context, server, PA_CONTEXT_NOAUTOSPAWN, nil) >= 0 else {
            throw AudioOutputError("cannot reach the sound server: \(errorText)")
        }
        guard pa_threaded_mainloop_start(mainloop) >= 0 else { throw AudioOutputError("cannot start PulseAudio's main loop thread") }
        pa_threaded_mainloop_lock(mainloop)
        defer { pa_threaded_mainloop_unlock(mainloop) }
        while true {
            let state = pa_context_get_state(context)
            if state == PA_CONTEXT_READY { break }
            guard state != PA_CONTEXT_FAILED, state != PA_CONTEXT_TERMINATED else {
                throw AudioOutputError("cannot reach the sound server: \(errorText)")
            }
            pa_threaded_mainloop_wait(mainloop)
        }
        lost.store(false, ordering: .relaxed)
        // More channels than the sink has are mixed down by FFmpeg upstream, not by the server.
        let channels = min(format.channelCount, sinkChannels(sink) ?? format.channelCount)
        self.format = AudioOutputFormat(sampleRate: format.sampleRate, channelCount: channels)
        frameBytes = channels * MemoryLayout<Float>.size
        var spec = pa_sample_spec(format: PA_SAMPLE_FLOAT32LE, rate: UInt32(format.sampleRate), channels: UInt8(channels))
        var map = Self.channelMap(channels)
        // The role desktop policies go by (as mpv's): a call corks or ducks "video" streams.
        let properties = pa_proplist_new()
        defer { if let properties { pa_proplist_free(properties) } }
        if let properties { _ = pa_proplist_sets(properties, PA_PROP_MEDIA_ROLE, "video") }
        guard let stream = pa_stream_new_with_proplist(context, "Playhead", &spec, &map, properties) else {
            throw AudioOutputError("the sound server refused the stream: \(errorText)")
        }
        self.stream = stream
        pa_stream_set_event_callback(stream, { _, name, _, userdata in
            guard let owner = PulseStream.from(userdata), let name else { return }
            switch String(cString: name) {
            case PA_STREAM_EVENT_REQUEST_CORK: owner.onRequest(.pause)
            case PA_STREAM_EVENT_REQUEST_UNCORK: owner.onRequest(.resume)
            default: break
            }
        }, opaqueSelf)
        pa_stream_set_state_callback(stream, { _, userdata in
            guard let owner = PulseStream.from(userdata) else { return }
            pa_threaded_mainloop_signal(owner.mainloop, 0)
        }, opaqueSelf)
        pa_stream_set_write_callback(stream, { stream, bytes, userdata in
            guard let owner = PulseStream.from(userdata), let stream else { return }
            owner.fill(stream, requested: bytes)
        }, opaqueSelf)
        pa_stream_set_underflow_callback(stream, { stream, userdata in
            guard let owner = PulseStream.from(userdata) else { return }
            owner.underruns.add(1, ordering: .relaxed)
            if let stream { owner.growAfterUnderrun(stream) }
        }, opaqueSelf)
        var attributes = bufferAttributes(seconds: buffer)
        // ADJUST_LATENCY: the buffer is the whole latency, the sink's included; without it an
        // idle sink may run with seconds of its own buffer and ask for audio in bursts.
        let flags = pa_stream_flags_t(
            PA_STREAM_INTERPOLATE_TIMING.rawValue | PA_STREAM_AUTO_TIMING_UPDATE.rawValue
                | PA_STREAM_ADJUST_LATENCY.rawValue | PA_STREAM_START_CORKED.rawValue)
        guard pa_stream_connect_playback(stream, sink, &attributes, flags, nil, nil) >= 0 else {
            throw AudioOutputError("the sound server refused the stream: \(errorText)")
        }
        while true {
            let state = pa_stream_get_state(stream)
            if state == PA_STREAM_READY { break }
            guard state != PA_STREAM_FAILED, state != PA_STREAM_TERMINATED else {
                throw AudioOutputError("the sound server refused the stream: \(errorText)")
            }
            pa_threaded_mainloop_wait(mainloop)
        }
        isReady = true
    }

    /// Buffer attributes for `seconds` of latency, the server choosing the rest.
    private func bufferAttributes(seconds: Double) -> pa_buffer_attr {
        let bytes = UInt32(Double(sampleRate) * seconds) * UInt32(frameBytes)
        return pa_buffer_attr(maxlength: UInt32.max, tlength: bytes, prebuf: UInt32.max, minreq: UInt32.max, fragsize: UInt32.max)
    }

    /// The server ran dry while playing (main loop thread, lock held): once, the stream asks
    /// for the grown buffer, as PulseAudio's own ALSA sinks raise their watermark after an
    /// underrun, so a machine that stalls longer than the buffer lasts loses sound once, not
    /// again and again. The end played out is not an underrun (the stream no longer runs), nor
    /// is the report that follows a write back over queued audio (a rate change).
    private func growAfterUnderrun(_ stream: OpaquePointer) {
        guard running.load(ordering: .relaxed), hasPlayed, grownBuffer > buffer,
            SystemHostClock.shared.now - lastDiscardHost > 0.25
        else { return }
        buffer = grownBuffer
        var attributes = bufferAttributes(seconds: grownBuffer)
        if let operation = pa_stream_set_buffer_attr(stream, &attributes, nil, nil) { pa_operation_unref(operation) }
    }

    /// The context's last error, as text (main loop lock held or not running).
    private var errorText: String { String(cString: pa_strerror(pa_context_errno(context))) }

    /// Renders `requested` bytes into the stream (main loop thread, lock held by libpulse).
    private func fill(_ stream: OpaquePointer, requested: Int) {
        guard running.load(ordering: .relaxed) else { return }
        noteWhetherPlaying(stream)
        if warmingUp.load(ordering: .relaxed) {
            fillWithSilence(stream, requested: requested)
            return
        }
        var remaining = requested
        while remaining >= frameBytes {
            // libpulse hands the buffer over in blocks: the source learns what is left of the
            // request in all.
            source.setRequestFrames(remaining / frameBytes)
            var data: UnsafeMutableRawPointer?
            var bytes = remaining
            guard pa_stream_begin_write(stream, &data, &bytes) == 0, let data else { return }
            bytes -= bytes % frameBytes
            guard bytes > 0 else {
                _ = pa_stream_cancel_write(stream)
                return
            }
            // The first frame written now is heard once everything queued before it has played.
            var microseconds: pa_usec_t = 0
            var negative: Int32 = 0
            let measured = pa_stream_get_latency(stream, &microseconds, &negative) == 0
            let latency = measured ? (negative != 0 ? 0 : Double(microseconds) / 1_000_000) : buffer
            latencyBits.store(latency.bitPattern, ordering: .relaxed)
            source.setOutputLatency(latency)
            source.setOutputPlaying(hasPlayed)
            // What is queued may be written over, up to a little ahead of what is heard (the
            // sink mixes ahead; a write back makes it mix again from there): only as measured
            // (libpulse has no latency right after a flush), and never more than was written
            // since the queue was last emptied.
            let queued = measured ? Int(max(0, latency - Self.rewriteMargin) * Double(sampleRate)) : 0
            source.setRewritableFrames(min(queued, framesSinceDiscard))
            let count = bytes / MemoryLayout<Float>.size
            source.render(
                into: UnsafeMutableBufferPointer(start: data.bindMemory(to: Float.self, capacity: count), count: count),
                hostTime: SystemHostClock.shared.now)
            // Re-made audio (a rate change) replaces audio queued here but not played yet: it is
            // written that far back, and as much again is rendered after it, so none of the old
            // audio is left beyond the new write position (what the server already played of
            // the span is dropped by the server itself).
            let rewind = source.takeRewindFrames() * frameBytes
            if rewind > 0 { lastDiscardHost = SystemHostClock.shared.now }
            guard pa_stream_write(stream, data, bytes, nil, -Int64(rewind), PA_SEEK_RELATIVE) == 0 else { return }
            framesSinceDiscard = max(0, framesSinceDiscard + (bytes - rewind) / frameBytes)
            remaining += rewind - bytes
        }
    }

    /// Notes when the server first plays the stream: its timing says so, or it has read from
    /// it. Until then what is written waits for the sink (a freshly started or suspended sink
    /// can take two seconds to run), and its latency reads as if it were heard at once: the
    /// source is told so and publishes no clock from it. A server that gives no timing is
    /// taken as playing once it asked for audio a few times. Main loop thread, lock held.
    private func noteWhetherPlaying(_ stream: OpaquePointer) {
        guard !hasPlayed else { return }
        fillsBeforePlaying += 1
        if let timing = pa_stream_get_timing_info(stream) {
            hasPlayed = timing.pointee.playing != 0 || timing.pointee.read_index > 0
        } else {
            hasPlayed = fillsBeforePlaying > 3
        }
    }

    /// Writes `requested` bytes of silence (warming up; main loop thread, lock held).
    private func fillWithSilence(_ stream: OpaquePointer, requested: Int) {
        var data: UnsafeMutableRawPointer?
        var bytes = requested - requested % frameBytes
        guard bytes > 0, pa_stream_begin_write(stream, &data, &bytes) == 0, let data else { return }
        bytes -= bytes % frameBytes
        data.initializeMemory(as: UInt8.self, repeating: 0, count: bytes)
        if pa_stream_write(stream, data, bytes, nil, 0, PA_SEEK_RELATIVE) == 0 {
            warmUpRequests.add(1, ordering: .relaxed)
        }
    }

    /// Plays silence, without touching the source, until `endWarmUp()`.
    func startWarmUp() {
        pa_threaded_mainloop_lock(mainloop)
        defer { pa_threaded_mainloop_unlock(mainloop) }
        warmingUp.store(true, ordering: .relaxed)
        running.store(true, ordering: .relaxed)
        guard let stream, !lost.load(ordering: .relaxed) else { return }
        if let operation = pa_stream_cork(stream, 0, nil, nil) { pa_operation_unref(operation) }
        let writable = pa_stream_writable_size(stream)
        if writable > 0 { fillWithSilence(stream, requested: writable) }
    }

    /// Hands the stream to the source (after `startWarmUp()`), playing when `run`: the
    /// silence still queued is dropped so the source's audio is heard at once.
    func endWarmUp(running run: Bool) {
        pa_threaded_mainloop_lock(mainloop)
        warmingUp.store(false, ordering: .relaxed)
        lastDiscardHost = SystemHostClock.shared.now
        framesSinceDiscard = 0
        if let stream, !lost.load(ordering: .relaxed), let operation = pa_stream_flush(stream, nil, nil) {
            pa_operation_unref(operation)
        }
        pa_threaded_mainloop_unlock(mainloop)
        setRunning(run)
    }

    /// Starts or stops rendering: corks or uncorks the stream (queued audio stays queued, so a
    /// pause resumes where it stopped). After `setRunning(false)` returns no render runs.
    func setRunning(_ run: Bool) {
        pa_threaded_mainloop_lock(mainloop)
        defer { pa_threaded_mainloop_unlock(mainloop) }
        running.store(run, ordering: .relaxed)
        guard let stream, !lost.load(ordering: .relaxed) else { return }
        if let operation = pa_stream_cork(stream, run ? 0 : 1, nil, nil) { pa_operation_unref(operation) }
        // Requests the server made while corked were left unanswered: answer them now.
        if run {
            let writable = pa_stream_writable_size(stream)
            if writable > 0 { fill(stream, requested: writable) }
        }
    }

    /// Lets the server play everything queued, then corks (the source ended): the write
    /// callback adds nothing more, and `pa_stream_drain` answers once the last byte was
    /// played, or `timeout` seconds pass (a hung server). The stream running dry after its
    /// last audio is its end, not an underrun.
    func playOut(timeout: Double) {
        final class Drained: @unchecked Sendable {
            var done = false  // main loop lock held
        }
        pa_threaded_mainloop_lock(mainloop)
        defer { pa_threaded_mainloop_unlock(mainloop) }
        let wasRunning = running.exchange(false, ordering: .relaxed)
        guard let stream, !lost.load(ordering: .relaxed) else { return }
        let underrunsBefore = underruns.load(ordering: .relaxed)
        if wasRunning {
            let drained = Drained()
            let box = Unmanaged.passRetained(drained)
            if let operation = pa_stream_drain(stream, { _, _, userdata in
                guard let userdata else { return }
                Unmanaged<Drained>.fromOpaque(userdata).takeUnretainedValue().done = true
            }, box.toOpaque()) {
                // The main loop's own wait has no timeout: poll instead, the lock let go.
                let deadline = Date().addingTimeInterval(timeout)
                while !drained.done, pa_operation_get_state(operation) == PA_OPERATION_RUNNING,
                    !lost.load(ordering: .relaxed), Date() < deadline
                {
                    pa_threaded_mainloop_unlock(mainloop)
                    usleep(5_000)
                    pa_threaded_mainloop_lock(mainloop)
                }
                if pa_operation_get_state(operation) == PA_OPERATION_RUNNING { pa_operation_cancel(operation) }
                pa_operation_unref(operation)
            }
            // A cancelled operation never calls back: the box is released either way.
            box.release()
        }
        underruns.store(underrunsBefore, ordering: .relaxed)
        if !lost.load(ordering: .relaxed), let operation = pa_stream_cork(stream, 1, nil, nil) {
            pa_operation_unref(operation)
        }
    }

    /// Drops the audio queued on the server (a seek made it stale). A playing stream is corked
    /// around the flush: corking has the sink take back what it had mixed but not yet played
    /// (a rewind), which the flush then drops with the rest; a flush alone drops only the
    /// stream's own queue, and the sink's part (a third of the buffer or so) was heard after
    /// the seek.
    func flush() {
        pa_threaded_mainloop_lock(mainloop)
        defer { pa_threaded_mainloop_unlock(mainloop) }
        guard let stream, !lost.load(ordering: .relaxed) else { return }
        lastDiscardHost = SystemHostClock.shared.now
        framesSinceDiscard = 0
        // (The stream is uncorked while it runs: setRunning, a warm-up. A play-out drains
        // uncorked with `running` cleared, but holds the output's lock, so no flush comes then.)
        let playing = running.load(ordering: .relaxed)
        if playing, let operation = pa_stream_cork(stream, 1, nil, nil) { pa_operation_unref(operation) }
        if let operation = pa_stream_flush(stream, nil, nil) { pa_operation_unref(operation) }
        if playing, let operation = pa_stream_cork(stream, 0, nil, nil) { pa_operation_unref(operation) }
    }

    /// The server went away (main loop thread). Reported once, and only for a connection
    /// that was ready: a failed connect throws from `init` instead.
    private func noteLost() {
        guard !lost.exchange(true, ordering: .relaxed), isReady else { return }
        onLost(self)
    }

    /// True once `init` finished connecting (set on the connecting thread under the main
    /// loop's lock, read by callbacks that hold it).
    private var isReady = false

    /// Disconnects and stops the main loop thread.
    func close() {
        pa_threaded_mainloop_lock(mainloop)
        running.store(false, ordering: .relaxed)
        pa_threaded_mainloop_unlock(mainloop)
        teardown()
    }

    /// Releases the stream, the context and the main loop.
    private func teardown() {
        pa_threaded_mainloop_lock(mainloop)
        if let stream {
            pa_stream_set_write_callback(stream, nil, nil)
            pa_stream_set_state_callback(stream, nil, nil)
            pa_stream_set_underflow_callback(stream, nil, nil)
            pa_stream_set_event_callback(stream, nil, nil)
            _ = pa_stream_disconnect(stream)
            pa_stream_unref(stream)
            self.stream = nil
        }
        pa_context_set_state_callback(context, nil, nil)
        pa_context_disconnect(context)
        pa_context_unref(context)
        pa_threaded_mainloop_unlock(mainloop)
        pa_threaded_mainloop_stop(mainloop)
        pa_threaded_mainloop_free(mainloop)
    }
}
