// Playhead: AVPlayerItemOutput, the base of the objects that receive an item's media, and
// adding outputs to an item.
//
// Concurrency: outputs are added and removed from any thread; the list lives in the item's
// state (a Mutex). Each output subclass documents how it delivers.
import Foundation
import Synchronization

/// The base class of the objects that receive media from a playing `AVPlayerItem`.
open class AVPlayerItemOutput: NSObject, @unchecked Sendable {
    /// Whether the output keeps the player's own rendering of this media from happening:
    /// Playhead's window draws no subtitles while a legible output with this set is added.
    open var suppressesPlayerRendering: Bool {
        get { settings.withLock { $0 } }
        set { settings.withLock { $0 = newValue } }
    }
    private let settings = Mutex(false)
}

extension AVPlayerItem {
    /// The outputs added to the item.
    nonisolated public var outputs: [AVPlayerItemOutput] { state.withLock { $0.outputs } }

    /// Adds `output`; a legible output starts receiving the item's subtitles.
    nonisolated public func add(_ output: AVPlayerItemOutput) {
        state.withLock { state in
            if !state.outputs.contains(where: { $0 === output }) { state.outputs.append(output) }
        }
    }

    /// Removes `output`.
    nonisolated public func remove(_ output: AVPlayerItemOutput) {
        state.withLock { $0.outputs.removeAll { $0 === output } }
    }
}
