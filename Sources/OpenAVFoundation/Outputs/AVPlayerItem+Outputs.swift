// Playhead: attaching outputs (AVPlayerItemVideoOutput) to a player item.
//
// Concurrency: the list lives in the item's state (a lock); `add`/`remove` may be called from
// any thread. An output's video sink is connected to the player's sinks while the item is
// the player's current item: on add/remove, and by the player when items change (main queue).
import Foundation

extension AVPlayerItem {
    /// Attaches `output`: it receives the item's frames while the item plays. Adding an output
    /// twice, or one attached to another item, does nothing.
    nonisolated public func add(_ output: AVPlayerItemOutput) {
        guard output.attachedItem == nil else { return }
        output.setAttachedItem(self)
        let player = state.withLock { state -> AVPlayer? in
            state.outputs.append(output)
            return state.engine != nil ? state.player : nil
        }
        if let player { connectOutputs(to: player.environment.videoSinks) }
    }

    /// Detaches `output`; it receives no more frames.
    nonisolated public func remove(_ output: AVPlayerItemOutput) {
        guard output.attachedItem === self else { return }
        output.setAttachedItem(nil)
        let player = state.withLock { state -> AVPlayer? in
            state.outputs.removeAll { $0 === output }
            return state.player
        }
        if let player, let sink = output.videoSink { player.environment.videoSinks.remove(sink) }
    }

    /// The outputs attached to the item.
    nonisolated public var outputs: [AVPlayerItemOutput] { state.withLock { $0.outputs } }

    /// Connects the outputs' sinks to `sinks` (the item became current).
    nonisolated func connectOutputs(to sinks: VideoSinks) {
        for sink in outputs.compactMap(\.videoSink) where !sinks.all.contains(where: { $0 === sink }) {
            sinks.add(sink)
        }
    }

    /// Disconnects the outputs' sinks from `sinks` (the item stopped being current).
    nonisolated func disconnectOutputs(from sinks: VideoSinks) {
        for sink in outputs.compactMap(\.videoSink) {
            sinks.remove(sink)
            sink.clear()
        }
    }
}
