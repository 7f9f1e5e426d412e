// Playhead: a track as the player item presents it.
import Foundation

/// One of an item's tracks during playback.
open class AVPlayerItemTrack: NSObject, @unchecked Sendable {
    /// The asset track this item track presents.
    public let assetTrack: AVAssetTrack?
    /// Whether the track is played: the selected video and audio tracks are.
    public let isEnabled: Bool
    /// The rate at which video frames are shown, frames per second (0 for non-video).
    public let currentVideoFrameRate: Float

    init(assetTrack: AVAssetTrack, isEnabled: Bool) {
        self.assetTrack = assetTrack
        self.isEnabled = isEnabled
        self.currentVideoFrameRate = assetTrack.mediaType == .video ? assetTrack.nominalFrameRate : 0
        super.init()
    }
}
