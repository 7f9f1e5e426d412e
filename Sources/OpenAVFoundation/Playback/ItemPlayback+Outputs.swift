// Playhead: what item outputs ask the engine (the item time at a host time).
//
// Concurrency: any thread; reads the coordinator's state.
import FFmpegBridge
import Foundation

extension ItemPlayback {
    /// The item time at `host` (seconds on the environment's host clock): the seek target while
    /// a seek is in flight, else the playback clock, kept within the item.
    func itemTime(atHost host: Double) -> CMTime {
        coordinator.read { $0.itemTime(atHost: host) }
    }
}
