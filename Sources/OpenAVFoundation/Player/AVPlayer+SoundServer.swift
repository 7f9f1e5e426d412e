// Playhead: the sound server's own requests to pause and resume a player's sound, followed as
// Apple's players follow an audio session interruption: a call that PulseAudio's
// `module-role-cork` gives the speakers to pauses playback (the server has muted the stream
// already; playing on would lose what plays meanwhile), and the end of the call resumes it at
// the rate it had (or the `defaultRate` the app chose meanwhile: a speed picked during the
// call), unless the app set the rate or the item changed in between (a reopened output,
// which the server never asks to resume, leaves it paused). Both changes post
// `rateDidChangeNotification` with `.audioSessionInterrupted`.
//
// Concurrency: the handler is set once, at creation; the outputs call it on their background
// queues and it hops to the main queue, where the player's state machine runs.
import Foundation

extension AVPlayer {
    /// Hears the sound server's requests for this player's shared audio device.
    nonisolated func followSoundServerRequests() {
        environment.sharedAudio?.setServerRequestHandler { [weak self] request in
            guard let player = self else { return }
            MainQueue.perform { player.handleSoundServerRequest(request) }
        }
    }

    /// Pauses for the server (remembering the rate), or resumes the rate it interrupted.
    /// Main queue.
    nonisolated func handleSoundServerRequest(_ request: SoundServerRequest) {
        switch request {
        case .pause:
            let (rate, item, defaultRate) = state.withLock { ($0.machine.rate, $0.currentItem, $0.defaultRate) }
            guard rate != 0 else { return }
            state.withLock { $0.interruptedRate = InterruptedRate(rate: rate, item: item, defaultRate: defaultRate) }
            handle(.soundServerSetRate(0))
        case .resume:
            let interrupted = state.withLock { state -> Float? in
                defer { state.interruptedRate = nil }
                guard let interrupted = state.interruptedRate, state.machine.rate == 0,
                    interrupted.item === state.currentItem
                else { return nil }
                return state.defaultRate != interrupted.defaultRate ? state.defaultRate : interrupted.rate
            }
            guard let interrupted else { return }
            handle(.soundServerSetRate(playableRate(interrupted)))
        }
    }
}
