// Playhead: the PulseAudio channel map a stream of the engine's layout asks for, and the
// channel count of the sink it plays to.
//
// Concurrency: `channelMap` is a pure function; `sinkChannels` runs with the main loop's lock
// held, on the connecting thread.
internal import CPulse
internal import CPulseLoader

extension PulseStream {
    /// PulseAudio's positions for FFmpeg's default layout of `channels` channels (the order
    /// the engine's resampler writes): mono, stereo, 2.1, 4.0, 5.0, 5.1, 6.1, 7.1.
    static func channelMap(_ channels: Int) -> pa_channel_map {
        let layouts: [[pa_channel_position_t]] = [
            [PA_CHANNEL_POSITION_MONO],
            [PA_CHANNEL_POSITION_FRONT_LEFT, PA_CHANNEL_POSITION_FRONT_RIGHT],
            [PA_CHANNEL_POSITION_FRONT_LEFT, PA_CHANNEL_POSITION_FRONT_RIGHT, PA_CHANNEL_POSITION_LFE],
            [PA_CHANNEL_POSITION_FRONT_LEFT, PA_CHANNEL_POSITION_FRONT_RIGHT, PA_CHANNEL_POSITION_FRONT_CENTER,
                PA_CHANNEL_POSITION_REAR_CENTER],
            [PA_CHANNEL_POSITION_FRONT_LEFT, PA_CHANNEL_POSITION_FRONT_RIGHT, PA_CHANNEL_POSITION_FRONT_CENTER,
                PA_CHANNEL_POSITION_REAR_LEFT, PA_CHANNEL_POSITION_REAR_RIGHT],
            [PA_CHANNEL_POSITION_FRONT_LEFT, PA_CHANNEL_POSITION_FRONT_RIGHT, PA_CHANNEL_POSITION_FRONT_CENTER,
                PA_CHANNEL_POSITION_LFE, PA_CHANNEL_POSITION_REAR_LEFT, PA_CHANNEL_POSITION_REAR_RIGHT],
            [PA_CHANNEL_POSITION_FRONT_LEFT, PA_CHANNEL_POSITION_FRONT_RIGHT, PA_CHANNEL_POSITION_FRONT_CENTER,
                PA_CHANNEL_POSITION_LFE, PA_CHANNEL_POSITION_REAR_CENTER, PA_CHANNEL_POSITION_SIDE_LEFT,
                PA_CHANNEL_POSITION_SIDE_RIGHT],
            [PA_CHANNEL_POSITION_FRONT_LEFT, PA_CHANNEL_POSITION_FRONT_RIGHT, PA_CHANNEL_POSITION_FRONT_CENTER,
                PA_CHANNEL_POSITION_LFE, PA_CHANNEL_POSITION_REAR_LEFT, PA_CHANNEL_POSITION_REAR_RIGHT,
                PA_CHANNEL_POSITION_SIDE_LEFT, PA_CHANNEL_POSITION_SIDE_RIGHT],
        ]
        var map = pa_channel_map()
        guard (1...layouts.count).contains(channels) else {
            pa_channel_map_init_extend(&map, UInt32(channels), PA_CHANNEL_MAP_DEFAULT)
            return map
        }
        map.channels = UInt8(channels)
        withUnsafeMutableBytes(of: &map.map) { raw in
            let positions = raw.bindMemory(to: pa_channel_position_t.self)
            for (index, position) in layouts[channels - 1].enumerated() { positions[index] = position }
        }
        return map
    }

    /// The channel count of `sink` (nil: the default sink), or nil when the server does not
    /// say (main loop lock held).
    func sinkChannels(_ sink: String?) -> Int? {
        final class Answer: @unchecked Sendable {
            var channels: Int?
            var done = false
            let mainloop: OpaquePointer
            init(_ mainloop: OpaquePointer) { self.mainloop = mainloop }
        }
        let answer = Answer(mainloop)
        let opaque = Unmanaged.passUnretained(answer).toOpaque()
        guard
            let operation = pa_context_get_sink_info_by_name(context, sink ?? "@DEFAULT_SINK@", { _, info, end, userdata in
                guard let userdata else { return }
                let answer = Unmanaged<Answer>.fromOpaque(userdata).takeUnretainedValue()
                if let info { answer.channels = Int(info.pointee.sample_spec.channels) }
                if end != 0 { answer.done = true }
                pa_threaded_mainloop_signal(answer.mainloop, 0)
            }, opaque)
        else { return nil }
        defer { pa_operation_unref(operation) }
        while !answer.done, pa_operation_get_state(operation) == PA_OPERATION_RUNNING {
            pa_threaded_mainloop_wait(mainloop)
        }
        return answer.channels.flatMap { $0 > 0 ? $0 : nil }
    }
}
