// Playhead: starting SDL's subsystems once per process.
//
// Concurrency: thread-safe; the first caller initialises under a lock.
internal import CSDL2
import Foundation
import OpenAVFoundation
import Synchronization

/// SDL initialisation shared by OpenAVKit's outputs and windows.
enum SDLSubsystem {
    private static let audioStarted = Mutex<Bool?>(nil)

    /// Starts SDL's audio subsystem (once).
    static func startAudio() throws {
        let started = audioStarted.withLock { state -> Bool in
            if let state { return state }
            SDL_SetMainReady()
            let ok = SDL_InitSubSystem(UInt32(SDL_INIT_AUDIO)) == 0
            state = ok
            return ok
        }
        guard started else { throw AudioOutputError("SDL audio is unavailable: \(lastError)") }
    }

    /// SDL's last error message.
    static var lastError: String {
        guard let text = SDL_GetError() else { return "unknown error" }
        return String(cString: text)
    }
}

/// Sets Playhead's players to play audio through SDL by default.
public enum PlayheadAudio {
    /// Makes new players use the system's audio device through SDL (falling back to a silent
    /// clock when no device can be opened).
    public static func useSystemAudioDevice() {
        DefaultAudioOutput.register { SDLAudioOutput() }
    }
}
