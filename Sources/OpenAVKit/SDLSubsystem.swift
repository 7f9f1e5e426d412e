// Playhead: starting SDL's subsystems once per process.
//
// Concurrency: thread-safe; the first caller initialises under a lock.
internal import CSDL2
internal import CSDL2Loader
import Foundation
import OpenAVFoundation

/// SDL initialisation shared by OpenAVKit's outputs and windows.
enum SDLSubsystem {
    private static let audioStarted = Locked<Bool?>(nil)
    /// protected by its mutex: how many windows use the video subsystem, and whether
    /// SDL_ttf is initialised. Also serialises SDL_InitSubSystem/SDL_QuitSubSystem for video
    /// against each other.
    private static let video = Locked<(users: Int, fonts: Bool)>((0, false))

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

    /// Starts SDL's video and events subsystems for one more user (a window).
    ///
    /// - Important: Call on the thread that will run the window's event loop.
    static func startVideo() throws(SDLError) {
        let ok = video.withLock { state -> Bool in
            // Under SDL's own X error handler, so it is still in place when SDL closes its
            // X connections (see CSDL2Loader_tolerateStaleWakeUps).
            CSDL2Loader_tolerateStaleWakeUps()
            SDL_SetMainReady()
            guard SDL_InitSubSystem(UInt32(SDL_INIT_VIDEO | SDL_INIT_EVENTS)) == 0 else { return false }
            state.users += 1
            return true
        }
        guard ok else { throw SDLError("SDL video is unavailable: \(lastError)") }
    }

    /// Releases one user's hold on the video subsystem.
    static func stopVideo() {
        video.withLock { state in
            guard state.users > 0 else { return }
            state.users -= 1
            SDL_QuitSubSystem(UInt32(SDL_INIT_VIDEO | SDL_INIT_EVENTS))
        }
    }

    /// Starts SDL_ttf (once per process); false when it cannot.
    static func startFonts() -> Bool {
        video.withLock { state in
            if !state.fonts { state.fonts = TTF_Init() == 0 }
            return state.fonts
        }
    }

    /// SDL's last error message.
    static var lastError: String {
        guard let text = SDL_GetError() else { return "unknown error" }
        return String(cString: text)
    }
}

/// Sets Playhead's players to play audio on the system's device by default.
public enum PlayheadAudio {
    /// Makes new players play through the desktop's sound server (PulseAudio, or PipeWire
    /// through pipewire-pulse), or through SDL on machines with only ALSA; they fall back to a
    /// silent clock when no device can be opened. `PLAYHEAD_AUDIO=sdl` forces SDL.
    public static func useSystemAudioDevice() {
        DefaultAudioOutput.register({ try SystemAudio.makeOutput() }, onDevice: { try SystemAudio.makeOutput(sinkName: $0) })
    }
}
