// Playhead: the pull delegate of AVPlayerItemVideoOutput: "tell me when frames flow again".
//
// Concurrency: the delegate (weak), its queue and the request flag live in the output's `pull`
// lock; any thread may set them. Frames arrive on the presentation thread, which only reads
// and clears the flag under the lock and hands the calls to the delegate's queue (the main
// queue when none was given).
import Foundation

/// What an app that pulls frames (`AVPlayerItemVideoOutput`) hears about changes in the flow.
public protocol AVPlayerItemOutputPullDelegate: NSObjectProtocol {
    /// New frames are about to become available, after `requestNotificationOfMediaDataChange`
    /// (restart the display link that stopped polling).
    func outputMediaDataWillChange(_ sender: AVPlayerItemOutput)
    /// Frames from a new timeline follow (a seek or a new item): frames kept from before are
    /// stale.
    func outputSequenceWasFlushed(_ output: AVPlayerItemOutput)
}

extension AVPlayerItemOutputPullDelegate {
    /// Does nothing (the method is optional).
    public func outputMediaDataWillChange(_ sender: AVPlayerItemOutput) {}
    /// Does nothing (the method is optional).
    public func outputSequenceWasFlushed(_ output: AVPlayerItemOutput) {}
}

/// The delegate settings of one output (guarded by the output's `pull` lock, which makes the
/// non-Sendable delegate reference safe to share).
struct PullDelegation: @unchecked Sendable {
    weak var delegate: (any AVPlayerItemOutputPullDelegate)?
    var queue: DispatchQueue?
    var changeRequested = false
}

extension AVPlayerItemVideoOutput {
    /// The delegate told about changes in the flow of frames.
    public var delegate: (any AVPlayerItemOutputPullDelegate)? { pull.withLock { $0.delegate } }

    /// The queue the delegate is called on (nil: the main queue).
    public var delegateQueue: DispatchQueue? { pull.withLock { $0.queue } }

    /// Sets the delegate and the queue it is called on (nil: the main queue).
    public func setDelegate(_ delegate: (any AVPlayerItemOutputPullDelegate)?, queue delegateQueue: DispatchQueue?) {
        let settings = UncheckedBox(delegate)
        pull.withLock {
            $0.delegate = settings.value
            $0.queue = delegateQueue
        }
    }

    /// Asks for one `outputMediaDataWillChange(_:)` call when frames next arrive, for apps
    /// that stop polling while nothing changes. Playhead calls it when the next frame is
    /// presented (`interval` is accepted for compatibility).
    public func requestNotificationOfMediaDataChange(withAdvanceInterval interval: TimeInterval) {
        pull.withLock { $0.changeRequested = true }
    }

    /// Tells the delegate what the last presented frame changed (presentation thread).
    func notifyDelegate(mediaArrived: Bool, flushed: Bool) {
        let (delegate, queue, announce) = pull.withLock { state -> ((any AVPlayerItemOutputPullDelegate)?, DispatchQueue?, Bool) in
            let announce = mediaArrived && state.changeRequested
            if announce { state.changeRequested = false }
            return (state.delegate, state.queue, announce)
        }
        guard let delegate, announce || flushed else { return }
        let call = UncheckedBox((delegate, self))
        (queue ?? DispatchQueue.main).async {
            let (delegate, output) = call.value
            if flushed { delegate.outputSequenceWasFlushed(output) }
            if announce { delegate.outputMediaDataWillChange(output) }
        }
    }
}
