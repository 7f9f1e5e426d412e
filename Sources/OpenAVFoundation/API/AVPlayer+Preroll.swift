// Playhead: preroll(atRate:): getting a paused player's current item ready to start at once.
//
// Concurrency: the public calls may come from any thread and hop to the main queue; the
// pending handlers live in the player's state and are settled on the main queue by `handle`.
import Foundation

extension AVPlayer {
    /// Fills the current item's buffers so that playback at `rate` can start without delay;
    /// `completionHandler` runs on the main queue with true once the item is ready and likely
    /// to keep up, or with false when the preroll is interrupted first (a rate change, a seek,
    /// another item, `cancelPendingPrerolls()`).
    ///
    /// The engine reads ahead and decodes the first picture while paused anyway, so a local
    /// file is usually prerolled as soon as it is ready. Apple raises an exception when the
    /// player is not ready or is playing; Playhead completes with false instead.
    nonisolated public func preroll(atRate rate: Float, completionHandler: (@Sendable (Bool) -> Void)? = nil) {
        let player = self
        let handler = completionHandler ?? { _ in }
        MainQueue.perform { player.startPreroll(handler) }
    }

    /// Prerolls as `preroll(atRate:completionHandler:)` does and returns whether it finished.
    nonisolated public func preroll(atRate rate: Float) async -> Bool {
        await withCheckedContinuation { done in
            preroll(atRate: rate) { finished in done.resume(returning: finished) }
        }
    }

    /// Ends every pending preroll; each completion handler runs with false.
    nonisolated public func cancelPendingPrerolls() {
        let player = self
        MainQueue.perform { player.finishPrerolls(false) }
    }

    /// Registers a preroll, refusing it unless ready and paused (main queue).
    private nonisolated func startPreroll(_ handler: @escaping @Sendable (Bool) -> Void) {
        let machine = state.withLock { $0.machine }
        guard status == .readyToPlay, machine.rate == 0, machine.item == .ready || machine.item == .loading else {
            handler(false)
            return
        }
        state.withLock { $0.prerolls.append(handler) }
        settlePrerolls(machine)
    }

    /// After a state-machine step: interrupted prerolls complete with false, finished ones
    /// with true (main queue).
    nonisolated func settlePrerolls(
        after event: PlaybackStateMachine.Event, before: PlaybackStateMachine, now machine: PlaybackStateMachine
    ) {
        guard state.withLock({ !$0.prerolls.isEmpty }) else { return }
        let interrupted = event == .timeJumped || machine.rate != before.rate
            || machine.item == .none || machine.item == .failed
            || (before.item == .ready && machine.item == .loading)
        if interrupted {
            finishPrerolls(false)
        } else {
            settlePrerolls(machine)
        }
    }

    private nonisolated func settlePrerolls(_ machine: PlaybackStateMachine) {
        guard machine.item == .ready, machine.buffer.isLikelyToKeepUp || machine.buffer.isFull else { return }
        finishPrerolls(true)
    }

    private nonisolated func finishPrerolls(_ finished: Bool) {
        let handlers = state.withLock { state in
            defer { state.prerolls = [] }
            return state.prerolls
        }
        for handler in handlers { handler(finished) }
    }
}
