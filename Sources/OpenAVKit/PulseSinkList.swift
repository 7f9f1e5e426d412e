// Playhead: the sound server's sinks (output devices), asked once through a short-lived
// libpulse connection: what `PlayheadAudio.outputDevices()` and `playhead devices` list.
//
// Concurrency: `fetch` blocks its caller (never the main queue of a running player) while a
// threaded main loop of its own answers; the answer object is written by the loop's thread
// under the loop's lock and read by the caller under the same lock.
internal import CPulse
internal import CPulseLoader
import Foundation
import OpenAVFoundation

/// An audio output device of the sound server.
public struct AudioOutputDevice: Sendable, Equatable {
    /// The sink's name: what `AVPlayer.audioOutputDeviceUniqueID` and `--audio-device` take.
    public var uniqueID: String
    /// The human-readable description the desktop shows.
    public var name: String
    /// Channels the sink has.
    public var channelCount: Int
    /// The sink's sample rate.
    public var sampleRate: Int
    /// True for the server's default sink (where players without a device play).
    public var isDefault: Bool
}

/// Lists the sinks of a PulseAudio (or pipewire-pulse) server.
enum PulseSinkList {
    private final class Answer: @unchecked Sendable {
        let mainloop: OpaquePointer
        var defaultSink: String?
        var sinks: [AudioOutputDevice] = []
        var serverDone = false
        var sinksDone = false
        init(_ mainloop: OpaquePointer) { self.mainloop = mainloop }
    }

    /// The server's sinks, the default one marked; `server` nil: the usual server.
    /// - Throws: ``AudioOutputError`` when libpulse or the server is missing.
    static func fetch(server: String? = nil) throws -> [AudioOutputDevice] {
        guard playhead_pulse_load() == 1 else { throw AudioOutputError(String(cString: playhead_pulse_load_error())) }
        guard let mainloop = pa_threaded_mainloop_new() else { throw AudioOutputError("cannot start PulseAudio's main loop") }
        defer { pa_threaded_mainloop_free(mainloop) }
        guard let context = pa_context_new(pa_threaded_mainloop_get_api(mainloop), "Playhead") else {
            throw AudioOutputError("cannot create a PulseAudio context")
        }
        defer { pa_context_unref(context) }
        let answer = Answer(mainloop)
        let opaque = Unmanaged.passUnretained(answer).toOpaque()
        pa_context_set_state_callback(context, { _, userdata in
            guard let userdata else { return }
            pa_threaded_mainloop_signal(Unmanaged<Answer>.fromOpaque(userdata).takeUnretainedValue().mainloop, 0)
        }, opaque)
        guard pa_context_connect(context, server, PA_CONTEXT_NOAUTOSPAWN, nil) >= 0 else {
            throw AudioOutputError("cannot reach the sound server: \(String(cString: pa_strerror(pa_context_errno(context))))")
        }
        guard pa_threaded_mainloop_start(mainloop) >= 0 else { throw AudioOutputError("cannot start PulseAudio's main loop thread") }
        defer { pa_threaded_mainloop_stop(mainloop) }
        pa_threaded_mainloop_lock(mainloop)
        defer {
            pa_context_disconnect(context)
            pa_threaded_mainloop_unlock(mainloop)
        }
        while pa_context_get_state(context) != PA_CONTEXT_READY {
            let state = pa_context_get_state(context)
            guard state != PA_CONTEXT_FAILED, state != PA_CONTEXT_TERMINATED else {
                throw AudioOutputError("cannot reach the sound server: \(String(cString: pa_strerror(pa_context_errno(context))))")
            }
            pa_threaded_mainloop_wait(mainloop)
        }
        if let operation = pa_context_get_server_info(context, { _, info, userdata in
            guard let userdata else { return }
            let answer = Unmanaged<Answer>.fromOpaque(userdata).takeUnretainedValue()
            if let name = info?.pointee.default_sink_name { answer.defaultSink = String(cString: name) }
            answer.serverDone = true
            pa_threaded_mainloop_signal(answer.mainloop, 0)
        }, opaque) {
            while !answer.serverDone, pa_operation_get_state(operation) == PA_OPERATION_RUNNING {
                pa_threaded_mainloop_wait(mainloop)
            }
            pa_operation_unref(operation)
        }
        if let operation = pa_context_get_sink_info_list(context, { _, info, end, userdata in
            guard let userdata else { return }
            let answer = Unmanaged<Answer>.fromOpaque(userdata).takeUnretainedValue()
            if let sink = info?.pointee, let name = sink.name {
                let uniqueID = String(cString: name)
                answer.sinks.append(
                    AudioOutputDevice(
                        uniqueID: uniqueID, name: sink.description.map { String(cString: $0) } ?? uniqueID,
                        channelCount: Int(sink.sample_spec.channels), sampleRate: Int(sink.sample_spec.rate),
                        isDefault: false))
            }
            if end != 0 { answer.sinksDone = true }
            pa_threaded_mainloop_signal(answer.mainloop, 0)
        }, opaque) {
            while !answer.sinksDone, pa_operation_get_state(operation) == PA_OPERATION_RUNNING {
                pa_threaded_mainloop_wait(mainloop)
            }
            pa_operation_unref(operation)
        }
        return answer.sinks.map { sink in
            var sink = sink
            sink.isDefault = sink.uniqueID == answer.defaultSink
            return sink
        }
    }
}

extension PlayheadAudio {
    /// The desktop sound server's output devices (PulseAudio's sinks, or PipeWire's through
    /// pipewire-pulse), the default one marked. Pass a device's `uniqueID` to
    /// `AVPlayer.audioOutputDeviceUniqueID`. Blocks while the server answers: call it off the
    /// main queue in an interactive program.
    /// - Throws: an error naming the reason when no sound server answers.
    public static func outputDevices() throws -> [AudioOutputDevice] {
        try PulseSinkList.fetch()
    }
}
