// Playhead: how AVPlayer applies the state machine: publishing rate and status changes,
// posting notifications, and telling the engine whether time runs.
//
// Concurrency: every function here runs on the main queue.
import Foundation

extension AVPlayer {
    /// Sets the desired rate; a negative rate plays backward when the current item
    /// `canPlayReverse`, and pauses otherwise.
    nonisolated func applyRate(_ rate: Float, immediately: Bool) {
        // The app's own rate wins over a pause the sound server asked for.
        state.withLock { $0.interruptedRate = nil }
        handle(.setRate(playableRate(rate), immediately: immediately))
    }

    /// `rate` as the current item can play it now: 0 for a negative rate it cannot play
    /// backward. A live stream about to play again after a pause longer than its window
    /// moves to the window's start first.
    nonisolated func playableRate(_ rate: Float) -> Float {
        var wanted = rate.isFinite ? rate : 0
        if wanted < 0, state.withLock({ $0.currentItem })?.canPlayReverse != true { wanted = 0 }
        if wanted != 0 { resumeLiveAtWindowStart() }
        return wanted
    }

    /// Feeds `event` to the state machine, publishes what changed, performs its effects and
    /// updates the engine.
    nonisolated func handle(_ event: PlaybackStateMachine.Event) {
        let before = state.withLock { $0.machine }
        var after = before
        let effects = after.handle(event)
        commit(after, replacing: before)
        if after.rate != before.rate {
            let reason = AVPlayer.rateChangeReason(for: event)
            post(AVPlayer.rateDidChangeNotification, userInfo: reason.map { [AVPlayer.rateDidChangeReasonKey: $0] })
        }
        for effect in effects { perform(effect) }
        if after.timeControl == .playing, before.timeControl != .playing {
            state.withLock { $0.currentItem }?.noteStallEnded()
        }
        syncEngine()
        settlePrerolls(after: event, before: before, now: after)
        if after.timeControl != before.timeControl || after.rate != before.rate || event.changesItem {
            let moving = after.timeControl == .playing ? Double(after.rate) : 0
            state.withLock { $0.currentItem }?.itemTimebase?.noteEffectiveRate(moving)
        }
    }

    /// Publishes the machine's new state: rate, then timeControlStatus and its reason.
    /// Nested mutations change the three together, so every observer sees all new values.
    private nonisolated func commit(_ machine: PlaybackStateMachine, replacing old: PlaybackStateMachine) {
        guard machine != old else { return }
        func store() { state.withLock { $0.machine = machine } }
        func storeWithReason() {
            if machine.waitReason != old.waitReason {
                _kvoRegistry.withMutation(\AVPlayer.reasonForWaitingToPlay, on: self) { store() }
            } else {
                store()
            }
        }
        func storeWithStatus() {
            if machine.timeControl != old.timeControl {
                _kvoRegistry.withMutation(\AVPlayer.timeControlStatus, on: self) { storeWithReason() }
            } else {
                storeWithReason()
            }
        }
        if machine.rate != old.rate {
            _kvoRegistry.withMutation(\AVPlayer.rate, on: self) { storeWithStatus() }
        } else {
            storeWithStatus()
        }
        if old.isAdvancing != machine.isAdvancing { timeObserversNoteRateChange() }
    }

    private nonisolated func perform(_ effect: PlaybackStateMachine.Effect) {
        let item = state.withLock { $0.currentItem }
        switch effect {
        case .postPlaybackStalled:
            item?.noteStallBegan()
            item?.post(AVPlayerItem.playbackStalledNotification)
        case .postDidPlayToEnd:
            item?.post(AVPlayerItem.didPlayToEndTimeNotification)
        case .advanceToNextItem:
            _advanceAfterItemEnd()
        }
    }

    /// Tells the engine whether time runs and at what rate.
    nonisolated func syncEngine() {
        let (engine, machine) = state.withLock { ($0.engine, $0.machine) }
        // The rate time will run at once it does: audio decoded ahead gets that tempo (the
        // current engine's while it waits or is paused; the next item's of a queue too).
        let upcoming = Double(machine.rate > 0 ? machine.rate : defaultRate)
        engine?.setUpcomingRate(upcoming)
        upcomingEngine?.setUpcomingRate(upcoming)
        engine?.setRate(machine.isAdvancing ? Double(machine.rate) : 0, waiting: !machine.isAdvancing && machine.rate != 0)
    }

    /// Sends volume × mute and the audio delay to the engine's audio output.
    nonisolated func applyAudioSettings() {
        let (engine, gain, delay) = state.withLock { ($0.engine, $0.isMuted ? Float(0) : $0.volume, $0.audioDelay) }
        // The next item's engine too: its first audio is heard the moment the current item's
        // ends, before the queue makes it current.
        for target in [engine, upcomingEngine].compactMap({ $0 }) {
            target.setGain(gain)
            target.setAudioDelay(delay)
        }
    }
}

extension PlaybackStateMachine.Event {
    /// True for news of the current item: another item, or its status (loading, ready, failed).
    /// The timebase of a new current item learns the player's rate from it.
    var changesItem: Bool {
        if case .item = self { return true }
        return false
    }
}
