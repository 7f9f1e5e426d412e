// Playhead: AVPlayerItem.timebase, a read-only CMTimebase that follows the item's playback:
// its time is the engine's clock (the audio clock when there is sound), its rate the rate time
// actually moves at (0 while paused or waiting for data).
//
// Concurrency: the effective rate sits behind the timebase's lock; the player sets it on the
// main queue after every state change, and posts the notifications there.
import Foundation

/// The timebase of one player item.
final class ItemTimebase: CMTimebase, @unchecked Sendable {
    private weak var item: AVPlayerItem?
    private let effective = Locked<Double>(0)

    init(item: AVPlayerItem, clock: CMClock) {
        self.item = item
        super.init(clock: clock)
    }

    /// The item's current time, as its engine reports it.
    override var time: CMTime { item?.currentTime() ?? .invalid }
    /// The rate time moves at: the player's rate while playing, else 0.
    override var rate: Float64 { effective.withLock { $0 } }
    override var effectiveRate: Float64 { rate }

    override func setTime(_ time: CMTime) throws { throw CMTimebaseError(status: kCMTimebaseError_ReadOnly) }
    override func setRate(_ rate: Float64) throws { throw CMTimebaseError(status: kCMTimebaseError_ReadOnly) }
    override func setRateAndAnchorTime(rate: Float64, anchorTime: CMTime, immediateSourceTime: CMTime) throws {
        throw CMTimebaseError(status: kCMTimebaseError_ReadOnly)
    }

    /// Records the rate time moves at now, posting `effectiveRateChanged` when it changed.
    func noteEffectiveRate(_ rate: Double) {
        let changed = effective.withLock { current -> Bool in
            defer { current = rate }
            return current != rate
        }
        if changed { post(Self.effectiveRateChanged) }
    }

    /// Posts `timeJumped` (a seek landed).
    func noteJump() { post(Self.timeJumped) }
}

extension AVPlayerItem {
    /// The item's timebase while it belongs to a player (nil before): its time is the item's
    /// current time on the engine's clock, its rate the rate playback moves at (0 while paused or
    /// waiting). Read-only: setting its rate or time fails with `kCMTimebaseError_ReadOnly`.
    /// `CMTimebase.effectiveRateChanged` and `.timeJumped` are posted for it on the main queue.
    nonisolated public var timebase: CMTimebase? {
        state.withLock { $0.player == nil ? nil : $0.timebase }
    }

    /// The timebase, made on first use for a player whose engine runs on `clock`.
    nonisolated func attachTimebase(clock: @escaping @Sendable () -> Double) {
        let item = self
        state.withLock { state in
            if state.timebase == nil { state.timebase = ItemTimebase(item: item, clock: CMClock(seconds: clock)) }
        }
    }

    /// The timebase when one was made.
    nonisolated var itemTimebase: ItemTimebase? { state.withLock { $0.timebase } }
}
