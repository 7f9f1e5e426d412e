// Playhead: AVPlayerItemMetadataOutput, which hands an item's timed metadata (ID3 tags in
// MPEG-TS and HLS, Shoutcast/Icecast titles, MP4 timed metadata tracks) to the app as
// playback reaches it, and the deprecated `AVPlayerItem.timedMetadata` that older players
// observe.
//
// Concurrency: outputs are added to an item from any thread (the item's lock). The engine's
// subtitle thread reports groups; the player hops them to the main queue, and each output
// calls its delegate on its delegate queue (the main queue when none was given).
import Foundation

/// Receives an item's timed metadata groups as they become current.
public protocol AVPlayerItemMetadataOutputPushDelegate: AVPlayerItemOutputPushDelegate {
    /// `groups` became current (in time order). `track` is the item's metadata track they come
    /// from; nil for metadata carried by the transport (ICY titles).
    func metadataOutput(
        _ output: AVPlayerItemMetadataOutput, didOutputTimedMetadataGroups groups: [AVTimedMetadataGroup],
        from track: AVPlayerItemTrack?)
}

extension AVPlayerItemMetadataOutputPushDelegate {
    /// Does nothing.
    public func metadataOutput(
        _ output: AVPlayerItemMetadataOutput, didOutputTimedMetadataGroups groups: [AVTimedMetadataGroup],
        from track: AVPlayerItemTrack?
    ) {}
}

/// An output that hands an item's timed metadata to a delegate as playback reaches it.
///
/// ```swift
/// let output = AVPlayerItemMetadataOutput(identifiers: nil)
/// output.setDelegate(self, queue: .main)
/// item.add(output)
/// ```
///
/// After a seek the delegate hears `outputSequenceWasFlushed(_:)`, then the group that applies
/// at the new time, so an app always shows the current title.
open class AVPlayerItemMetadataOutput: AVPlayerItemOutput, @unchecked Sendable {
    private struct Delegation {
        weak var delegate: (any AVPlayerItemMetadataOutputPushDelegate)?
        var queue: DispatchQueue?
    }
    private let delegation = Locked(Delegation())
    private let advance = Locked<TimeInterval>(0)
    /// The identifiers delivered; nil delivers every item.
    private let identifiers: Set<String>?

    /// An output delivering items whose identifier is in `identifiers` (every item when nil).
    public init(identifiers: [String]?) {
        self.identifiers = identifiers.map(Set.init)
        super.init()
    }

    /// Sets the delegate and the queue it is called on (the main queue when nil).
    open func setDelegate(
        _ delegate: (any AVPlayerItemMetadataOutputPushDelegate)?, queue delegateQueue: DispatchQueue?
    ) {
        delegation.withLock { $0 = Delegation(delegate: delegate, queue: delegateQueue) }
    }

    /// The delegate (held weakly).
    open var delegate: (any AVPlayerItemMetadataOutputPushDelegate)? { delegation.withLock { $0.delegate } }
    /// The queue the delegate is called on.
    open var delegateQueue: DispatchQueue? { delegation.withLock { $0.queue } }

    /// How far ahead of their time groups should be delivered. Accepted for compatibility;
    /// Playhead delivers at the group's time.
    open var advanceIntervalForDelegateInvocation: TimeInterval {
        get { advance.withLock { $0 } }
        set { advance.withLock { $0 = max(0, newValue) } }
    }

    /// Calls the delegate: a flush first when `flushed`, then the groups that keep an item
    /// after filtering by identifier (main queue).
    func deliver(_ groups: [AVTimedMetadataGroup], flushed: Bool, track: AVPlayerItemTrack?) {
        let (delegate, queue) = delegation.withLock { ($0.delegate, $0.queue) }
        guard let delegate else { return }
        let wanted = groups.compactMap(filtered)
        guard flushed || !wanted.isEmpty else { return }
        let output = UncheckedBox(self)
        let payload = UncheckedBox((wanted, track))
        let call = { @Sendable in
            if flushed { delegate.outputSequenceWasFlushed(output.value) }
            if !payload.value.0.isEmpty {
                delegate.metadataOutput(output.value, didOutputTimedMetadataGroups: payload.value.0, from: payload.value.1)
            }
        }
        if let queue, queue !== DispatchQueue.main { queue.async(execute: call) } else { call() }
    }

    private func filtered(_ group: AVTimedMetadataGroup) -> AVTimedMetadataGroup? {
        guard let identifiers else { return group }
        let items = group.items.filter { $0.identifier.map { identifiers.contains($0.rawValue) } ?? false }
        if items.count == group.items.count { return group }
        return items.isEmpty ? nil : AVTimedMetadataGroup(items: items, timeRange: group.timeRange)
    }
}

extension AVPlayerItem {
    /// The items of the timed metadata group that applies now (the last one playback reached);
    /// nil before any. Observable. Deprecated by Apple in favour of
    /// `AVPlayerItemMetadataOutput`; older Shoutcast players still observe it.
    nonisolated public var timedMetadata: [AVMetadataItem]? {
        read(\.timedMetadata) { $0.timedMetadata }
    }

    /// Hands `groups` to the metadata outputs and updates `timedMetadata` (main queue).
    nonisolated func deliverTimedMetadata(_ groups: [AVTimedMetadataGroup], flushed: Bool) {
        let track = tracks.first { $0.assetTrack?.mediaType == .metadata }
        let fromTransport = groups.allSatisfy { $0.items.allSatisfy { $0.keySpace == .icy } }
        for case let output as AVPlayerItemMetadataOutput in outputs {
            output.deliver(groups, flushed: flushed, track: fromTransport ? nil : track)
        }
        guard let latest = groups.last else { return }
        publish(\.timedMetadata) { $0.timedMetadata = latest.items }
    }
}
