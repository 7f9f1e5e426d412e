// Playhead: choosing the audio device a player plays on.
import Foundation

extension AVPlayer {
    /// The unique identifier of the audio device to play on; nil plays on the system's default.
    /// On Linux the identifier is a sound-server sink name (`pactl list short sinks`); it
    /// applies to items that start playing after it is set (the current item keeps its
    /// device). Without a registered system device (`PlayheadAudio.useSystemAudioDevice()`)
    /// it has no effect.
    nonisolated open var audioOutputDeviceUniqueID: String? {
        get { state.withLock { $0.audioOutputDeviceUniqueID } }
        set { state.withLock { $0.audioOutputDeviceUniqueID = newValue } }
    }
}
