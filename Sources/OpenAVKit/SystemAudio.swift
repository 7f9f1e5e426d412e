// Playhead: choosing the system audio device, and saying plainly when there is none.
import Foundation
import OpenAVFoundation

/// The system's audio device, through SDL.
package enum SystemAudio {
    /// An output on the system's audio device.
    ///
    /// - Throws: `AudioOutputError` when the machine shows no sign of a sound server or sound
    ///   card (checked first, so that SDL and ALSA do not print their own noise), or when SDL
    ///   cannot open a device.
    package static func makeOutput() throws -> any AudioOutput {
        guard deviceMayExist else { throw AudioOutputError("no audio device found") }
        return SDLAudioOutput()
    }

    /// True when a PulseAudio or PipeWire socket, or an ALSA sound card, is present, or when
    /// SDL_AUDIODRIVER names a driver explicitly.
    static var deviceMayExist: Bool {
        let environment = ProcessInfo.processInfo.environment
        if environment["SDL_AUDIODRIVER"] != nil { return true }
        let fileManager = FileManager.default
        if let runtime = environment["XDG_RUNTIME_DIR"] {
            for socket in ["pulse/native", "pipewire-0"] where fileManager.fileExists(atPath: runtime + "/" + socket) {
                return true
            }
        }
        if environment["PULSE_SERVER"] != nil { return true }
        let cards = (try? fileManager.contentsOfDirectory(atPath: "/dev/snd")) ?? []
        return cards.contains { $0.hasPrefix("pcm") }
    }
}
