// Playhead: the PulseAudio channel map a stream of the engine's layout asks for.
//
// Concurrency: a pure function.
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
}
