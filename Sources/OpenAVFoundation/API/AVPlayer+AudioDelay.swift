// Playhead: the user's audio delay, a Playhead addition for audio devices that add their own
// (Bluetooth headsets, receivers): AVFoundation has no counterpart.
import Foundation

extension AVPlayer {
    /// How much later than the picture the sound plays, in seconds; negative delays the
    /// picture instead (set it to minus a Bluetooth headset's latency to line the picture up
    /// with what is heard). Default 0; kept across items. The sound server's own latency is
    /// already accounted for: this is for what the system cannot see.
    ///
    /// - Note: A Playhead addition, not part of AVFoundation.
    nonisolated public var audioDelay: TimeInterval {
        get { state.withLock { $0.audioDelay } }
        set {
            let player = self
            let delay = newValue.isFinite ? newValue : 0
            MainQueue.perform {
                player.state.withLock { $0.audioDelay = delay }
                player.applyAudioSettings()
            }
        }
    }
}
