// Playhead: an audio output on the desktop's sound server through PulseAudio's client library
// (PipeWire serves the same protocol through pipewire-pulse), with the latency the server
// measures instead of a guess.
//
// Concurrency: `open`, `start`, `stop`, `close` and `discardBuffered` may be called from any
// thread; `lock` serialises them. Every libpulse call is made either with the threaded main
// loop's lock held or from a libpulse callback, which runs on the main loop's thread with that
// lock held. The write callback renders from the source (a lock-free ring) and writes into
// libpulse's own buffer: it takes no lock of ours and decodes nothing. `running`,
// `latencyBits`, `underrunCount` and `serverLost` are atomics any thread may read.
internal import CPulse
internal import CPulseLoader
import Foundation
import OpenAVFoundation
import Synchronization

/// Plays the engine's audio on the sound server's default sink (or a named one).
package final class PulseAudioOutput: AudioOutput, @unchecked Sendable {
    /// The audio the stream keeps queued on the server: enough that a busy machine does not
    /// run dry, little enough for a prompt pause and seek (mpv keeps about as much).
    static let targetBuffer = 0.1

    package let name = "pulse"
    /// The sink to play on; nil: the server's default.
    private let sinkName: String?
    /// The server to connect to (`unix:/path` or a host); nil: libpulse's own choice
    /// (`PULSE_SERVER`, then the user's runtime directory).
    private let server: String?
    private let lock = NSLock()
    /// protected by lock
    private var stream: PulseStream?

    /// An output for `sinkName` (nil: the default sink) on `server` (nil: the user's);
    /// nothing connects until `open`.
    package init(server: String? = nil, sinkName: String? = nil) {
        self.server = server
        self.sinkName = sinkName
    }

    package var outputLatency: Double { current?.latency ?? 0 }

    /// Times the server ran out of audio to play since `open`.
    package var underrunCount: Int { current?.underruns.load(ordering: .relaxed) ?? 0 }

    /// True once the connection to the server was lost.
    package var serverLost: Bool { current?.lost.load(ordering: .relaxed) ?? false }

    package func open(format: AudioOutputFormat, source: any AudioRenderSource) throws -> AudioOutputFormat {
        lock.lock()
        defer { lock.unlock() }
        precondition(stream == nil, "PulseAudioOutput opened twice")
        stream = try PulseStream(
            format: format, source: source, server: server, sink: sinkName, buffer: Self.targetBuffer)
        return format
    }

    package func start() {
        lock.lock()
        defer { lock.unlock() }
        stream?.setRunning(true)
    }

    package func stop() {
        lock.lock()
        defer { lock.unlock() }
        stream?.setRunning(false)
    }

    package func discardBuffered() {
        lock.lock()
        defer { lock.unlock() }
        stream?.flush()
    }

    package func close() {
        lock.lock()
        let closing = stream
        stream = nil
        lock.unlock()
        closing?.close()
    }

    /// The open stream, if any.
    private var current: PulseStream? {
        lock.lock()
        defer { lock.unlock() }
        return stream
    }
}

/// One connection to the server with one playback stream on it, and the main loop thread that
/// serves both.
final class PulseStream: @unchecked Sendable {
    private let mainloop: OpaquePointer
    private let context: OpaquePointer
    /// nil only while connecting
    private var stream: OpaquePointer?
    private let source: any AudioRenderSource
    private let frameBytes: Int
    private let sampleRate: Int
    /// The buffer asked for, in seconds: the latency assumed until the server has timing.
    private let buffer: Double
    /// True between `setRunning(true)` and `setRunning(false)`: the write callback renders.
    let running = Atomic<Bool>(false)
    /// Underruns the server reported.
    let underruns = Atomic<Int>(0)
    /// Set when the connection to the server failed or ended.
    let lost = Atomic<Bool>(false)
    private let latencyBits = Atomic<UInt64>(Double(0).bitPattern)

    /// Seconds from a write to the moment its first frame is heard, as last measured.
    var latency: Double { Double(bitPattern: latencyBits.load(ordering: .relaxed)) }

    /// Connects to the server and opens a corked playback stream in `format` (float samples).
    init(
        format: AudioOutputFormat, source: any AudioRenderSource, server: String?, sink: String?, buffer: Double
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
        sampleRate = format.sampleRate
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
        var spec = pa_sample_spec(format: PA_SAMPLE_FLOAT32LE, rate: UInt32(format.sampleRate), channels: UInt8(format.channelCount))
        var map = pa_channel_map()
        pa_channel_map_init_extend(&map, UInt32(format.channelCount), PA_CHANNEL_MAP_DEFAULT)
        guard let stream = pa_stream_new(context, "Playhead", &spec, &map) else {
            throw AudioOutputError("the sound server refused the stream: \(errorText)")
        }
        self.stream = stream
        pa_stream_set_state_callback(stream, { _, userdata in
            guard let owner = PulseStream.from(userdata) else { return }
            pa_threaded_mainloop_signal(owner.mainloop, 0)
        }, opaqueSelf)
        pa_stream_set_write_callback(stream, { stream, bytes, userdata in
            guard let owner = PulseStream.from(userdata), let stream else { return }
            owner.fill(stream, requested: bytes)
        }, opaqueSelf)
        pa_stream_set_underflow_callback(stream, { _, userdata in
            PulseStream.from(userdata)?.underruns.add(1, ordering: .relaxed)
        }, opaqueSelf)
        let bufferBytes = UInt32(Double(sampleRate) * buffer) * UInt32(frameBytes)
        var attributes = pa_buffer_attr(
            maxlength: UInt32.max, tlength: bufferBytes, prebuf: UInt32.max, minreq: UInt32.max, fragsize: UInt32.max)
        let flags = pa_stream_flags_t(
            PA_STREAM_INTERPOLATE_TIMING.rawValue | PA_STREAM_AUTO_TIMING_UPDATE.rawValue
                | PA_STREAM_START_CORKED.rawValue)
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
    }

    /// The context's last error, as text (main loop lock held or not running).
    private var errorText: String { String(cString: pa_strerror(pa_context_errno(context))) }

    /// Renders `requested` bytes into the stream (main loop thread, lock held by libpulse).
    private func fill(_ stream: OpaquePointer, requested: Int) {
        guard running.load(ordering: .relaxed) else { return }
        var remaining = requested
        while remaining >= frameBytes {
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
            let latency = pa_stream_get_latency(stream, &microseconds, &negative) == 0
                ? (negative != 0 ? 0 : Double(microseconds) / 1_000_000) : buffer
            latencyBits.store(latency.bitPattern, ordering: .relaxed)
            source.setOutputLatency(latency)
            let count = bytes / MemoryLayout<Float>.size
            source.render(
                into: UnsafeMutableBufferPointer(start: data.bindMemory(to: Float.self, capacity: count), count: count),
                hostTime: SystemHostClock.shared.now)
            guard pa_stream_write(stream, data, bytes, nil, 0, PA_SEEK_RELATIVE) == 0 else { return }
            remaining -= bytes
        }
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

    /// Drops the audio queued on the server (a seek made it stale).
    func flush() {
        pa_threaded_mainloop_lock(mainloop)
        defer { pa_threaded_mainloop_unlock(mainloop) }
        guard let stream, !lost.load(ordering: .relaxed) else { return }
        if let operation = pa_stream_flush(stream, nil, nil) { pa_operation_unref(operation) }
    }

    /// The server went away (main loop thread).
    private func noteLost() {
        lost.store(true, ordering: .relaxed)
    }

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
