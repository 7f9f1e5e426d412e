// Playhead: the sound server's requests to pause and resume (a call under PulseAudio's
// `module-role-cork`), handed from every output the device opens to the player.
//
// Concurrency: the handler has a mutex of its own (`requestHandler`); outputs call the
// forwarding closure on their background queues.
import Foundation

extension SharedAudioDevice {
    /// Sets who hears the sound server's requests to pause and resume the player's sound
    /// (on a background queue), for every output this device opens.
    package func setServerRequestHandler(_ handler: (@Sendable (SoundServerRequest) -> Void)?) {
        requestHandler.withLock { $0 = handler }
    }

    /// Hands the sound server's requests to `output` on to the handler of the moment.
    func forwardRequests(of output: any AudioOutput) {
        output.setServerRequestHandler { [weak self] request in self?.requestHandler.withLock { $0 }?(request) }
    }
}
