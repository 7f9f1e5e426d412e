// Playhead: the one owner of an item's engine state.
//
// Concurrency contract: the coordinator is a serial section, not a thread. Whoever has news
// (the main queue with a command, a worker with progress) posts an event; the poster runs
// `EngineState.handle(_:)` inside the section and carries out the decided actions there, in
// order, before the next event is taken. So a seek's flush is done before any thread can see
// its generation, reports leave in the order they were decided, and a seek reaches the workers
// with no thread hop in between. Actions done in the section never block and never post (a
// wake, a queue flush or mark, an atomic kick, an async dispatch, a report sent off the main
// queue); `.reply` goes back to the poster and `.clearVideo` (which calls the sinks) runs after
// the section. Threads read the state only as a copy (`state`) or through `read`, never
// keeping a reference to it.
import FFmpegBridge
import Foundation

/// Owns one item's `EngineState` and applies events to it one at a time.
final class EngineCoordinator: Sendable {
    /// protected by its mutex: the state, changed only by `post`
    private let owned: Locked<EngineState>

    /// A coordinator starting from `initial`.
    init(_ initial: EngineState) {
        owned = Locked(initial)
    }

    /// Applies `event`, carrying out each decided action with `perform` inside the section
    /// (given the parts the state knows: the pipeline once open). Returns the actions left for
    /// the poster (its reply, and clearing the video), in order.
    func post(_ event: EngineEvent, performing perform: (EngineAction, Pipeline?) -> Void) -> [EngineAction] {
        owned.withLock { state in
            var left: [EngineAction] = []
            for action in state.handle(event) {
                switch action {
                case .reply, .clearVideo: left.append(action)
                default: perform(action, state.pipeline)
                }
            }
            return left
        }
    }

    /// A copy of the state now.
    var state: EngineState { owned.withLock { $0 } }

    /// Reads one fact of the state now, without copying the rest.
    func read<Value>(_ fact: (EngineState) -> Value) -> Value {
        owned.withLock { fact($0) }
    }
}
