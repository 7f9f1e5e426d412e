// Playhead: AVPlayerItemLegibleOutput, which hands subtitle text (and Playhead's cues with
// styling, position and pictures) to the app as the item plays.
//
// Concurrency: outputs are added to an item from any thread (stored in the item's lock).
// The engine's subtitle thread reports changes; the player hops them to the main queue, and
// each output calls its delegate on its delegate queue (the main queue when none was given).
import Foundation
import Synchronization

/// What an output's delegate may implement.
public protocol AVPlayerItemOutputPushDelegate: AnyObject, Sendable {
    /// The output's sequence was flushed (after a seek or a change of selection).
    func outputSequenceWasFlushed(_ output: AVPlayerItemOutput)
}

extension AVPlayerItemOutputPushDelegate {
    /// Does nothing.
    public func outputSequenceWasFlushed(_ output: AVPlayerItemOutput) {}
}

/// Receives the subtitles of an item as they should show.
public protocol AVPlayerItemLegibleOutputPushDelegate: AVPlayerItemOutputPushDelegate {
    /// The text showing from `itemTime` on: one attributed string per cue; empty when the
    /// previous cues ended and nothing shows. `nativeSamples` is always empty on Playhead.
    func legibleOutput(
        _ output: AVPlayerItemLegibleOutput,
        didOutputAttributedStrings strings: [NSAttributedString],
        nativeSampleBuffers nativeSamples: [Any], forItemTime itemTime: CMTime)

    /// The cues showing from `itemTime` on, with styling, position and bitmaps (empty when
    /// nothing shows). A Playhead addition; the default does nothing.
    func legibleOutput(
        _ output: AVPlayerItemLegibleOutput, didOutputCues cues: [AVSubtitleCue],
        forItemTime itemTime: CMTime)
}

extension AVPlayerItemLegibleOutputPushDelegate {
    /// Does nothing.
    public func legibleOutput(
        _ output: AVPlayerItemLegibleOutput,
        didOutputAttributedStrings strings: [NSAttributedString],
        nativeSampleBuffers nativeSamples: [Any], forItemTime itemTime: CMTime
    ) {}

    /// Does nothing.
    public func legibleOutput(
        _ output: AVPlayerItemLegibleOutput, didOutputCues cues: [AVSubtitleCue],
        forItemTime itemTime: CMTime
    ) {}
}

/// An output that hands an item's subtitles to a delegate at the times they should show.
///
/// ```swift
/// let output = AVPlayerItemLegibleOutput()
/// output.setDelegate(self, queue: .main)
/// item.add(output)
/// ```
open class AVPlayerItemLegibleOutput: AVPlayerItemOutput, @unchecked Sendable {
    private struct Delegation {
        weak var delegate: (any AVPlayerItemLegibleOutputPushDelegate)?
        var queue: DispatchQueue?
    }
    private let delegation = Locked(Delegation())
    private let advance = Locked<TimeInterval>(0)
    private let styling = Locked(TextStylingResolution.default)

    /// An output with no delegate.
    public override init() { super.init() }

    /// An output for the given subtitle media subtypes; Playhead delivers every kind.
    public convenience init(mediaSubtypesForNativeRepresentation subtypes: [NSNumber]) {
        self.init()
    }

    /// Sets the delegate and the queue it is called on (the main queue when nil).
    open func setDelegate(
        _ delegate: (any AVPlayerItemLegibleOutputPushDelegate)?,
        queue delegateQueue: DispatchQueue?
    ) {
        delegation.withLock { $0 = Delegation(delegate: delegate, queue: delegateQueue) }
    }

    /// The delegate (held weakly).
    open var delegate: (any AVPlayerItemLegibleOutputPushDelegate)? {
        delegation.withLock { $0.delegate }
    }
    /// The queue the delegate is called on.
    open var delegateQueue: DispatchQueue? { delegation.withLock { $0.queue } }

    /// Which styling the delivered attributed strings carry.
    public struct TextStylingResolution: RawRepresentable, Hashable, Sendable {
        /// The resolution's identifier (Apple's constant names).
        public let rawValue: String
        /// The resolution with this identifier.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The source's styling, with the user's and the item's text style rules applied.
        public static let `default` = TextStylingResolution(rawValue: "AVPlayerItemLegibleOutputTextStylingResolutionDefault")
        /// Only the source's styling and the item's own rules, not the user's preferences.
        public static let sourceAndRulesOnly = TextStylingResolution(
            rawValue: "AVPlayerItemLegibleOutputTextStylingResolutionSourceAndRulesOnly")
    }

    /// Which styling the delivered strings carry (default `.default`). Recorded: Playhead's
    /// cues carry the source's own styling under either value, since Linux has no system-wide
    /// caption preferences to leave out.
    open var textStylingResolution: TextStylingResolution {
        get { styling.withLock { $0 } }
        set { styling.withLock { $0 = newValue } }
    }

    /// How far ahead of their time cues should be delivered. Accepted for compatibility;
    /// Playhead delivers at the cue's time.
    open var advanceIntervalForDelegateInvocation: TimeInterval {
        get { advance.withLock { $0 } }
        set { advance.withLock { $0 = max(0, newValue) } }
    }

    /// Calls the delegate with `cues` (main queue).
    func deliver(_ cues: [AVSubtitleCue], at time: CMTime) {
        let (delegate, queue) = delegation.withLock { ($0.delegate, $0.queue) }
        guard let delegate else { return }
        let strings = cues.filter { !$0.runs.isEmpty }.map(\.attributedString)
        let output = UncheckedBox(self)
        let payload = UncheckedBox(strings)
        let call = { @Sendable in
            delegate.legibleOutput(
                output.value, didOutputAttributedStrings: payload.value, nativeSampleBuffers: [],
                forItemTime: time)
            delegate.legibleOutput(output.value, didOutputCues: cues, forItemTime: time)
        }
        if let queue, queue !== DispatchQueue.main { queue.async(execute: call) } else { call() }
    }
}

extension AVPlayerItem {
    /// Hands the cues showing from `time` on to the legible outputs (main queue).
    nonisolated func deliverLegible(_ cues: [AVSubtitleCue], at time: CMTime) {
        for case let output as AVPlayerItemLegibleOutput in outputs {
            output.deliver(cues, at: time)
        }
    }
}
