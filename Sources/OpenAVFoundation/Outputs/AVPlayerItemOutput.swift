// Playhead: the base of outputs an app attaches to a player item to receive its media.
import Foundation
import Synchronization

// Concurrency: the item link is behind a lock; any thread may ask for item times. Playhead
// sets the link on the main queue when the output is added to or removed from an item.

/// Something attached to an `AVPlayerItem` (with `add(_:)`) that receives its decoded media
/// while the item plays. Use the subclass `AVPlayerItemVideoOutput`.
open class AVPlayerItemOutput: NSObject, @unchecked Sendable {
    /// the item this output is attached to; behind its mutex
    private let attachment = Locked<WeakReference<AVPlayerItem>?>(nil)
    private let suppresses = Locked(false)

    /// Creates an unattached output.
    public override init() { super.init() }

    /// When true, the player's own rendering (player layers, the window) is meant to stop
    /// while this output is attached, because the app draws the frames.
    ///
    /// - Note: Playhead's window draws no subtitles while a legible output with this set is
    ///   attached; for video outputs it is recorded only, and the other video sinks keep
    ///   receiving frames.
    open var suppressesPlayerRendering: Bool {
        get { suppresses.withLock { $0 } }
        set { suppresses.withLock { $0 = newValue } }
    }

    /// The item time that will be on screen at `hostTimeInSeconds` (a `CACurrentMediaTime()`
    /// value), from the attached item's clock; `.invalid` when the output is not attached to a
    /// playing item.
    open func itemTime(forHostTime hostTimeInSeconds: CFTimeInterval) -> CMTime {
        guard let item = attachedItem, let engine = item.state.withLock({ $0.engine }) else {
            return .invalid
        }
        return engine.itemTime(atHost: hostTimeInSeconds)
    }

    /// The item this output is attached to.
    var attachedItem: AVPlayerItem? { attachment.withLock { $0?.value } }

    /// Records the item this output is attached to (nil: detached).
    func setAttachedItem(_ item: AVPlayerItem?) {
        attachment.withLock { $0 = item.map { WeakReference($0) } }
    }

    /// The video sink that receives frames for this output, if it takes video.
    var videoSink: (any VideoSink)? { nil }
}
