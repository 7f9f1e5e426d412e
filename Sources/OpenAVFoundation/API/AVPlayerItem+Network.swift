// Playhead: AVPlayerItem settings and facts that matter for network media.
//
// Concurrency: like the rest of AVPlayerItem: settings are read and written under the item's
// state lock from any thread.
import Foundation

extension AVPlayerItem {
    /// The most network bandwidth, in bits per second, the item should use; 0 (the default)
    /// sets no limit. For a multivariant HLS stream it caps the variant chosen when playback
    /// starts. Set it before the item is given to a player.
    nonisolated public var preferredPeakBitRate: Double {
        get { state.withLock { $0.preferredPeakBitRate } }
        set { state.withLock { $0.preferredPeakBitRate = max(0, newValue.isFinite ? newValue : 0) } }
    }

    /// The `BANDWIDTH` of the HLS variant being played, in bits per second; nil when the item
    /// is not a multivariant stream (or is not playing). Apple reports this through the access
    /// log, which Playhead does not have yet.
    nonisolated var playingVariantBitRate: Int? {
        let engine = state.withLock { $0.engine }
        return engine?.coordinator.read { $0.variantBitRate }
    }
}
