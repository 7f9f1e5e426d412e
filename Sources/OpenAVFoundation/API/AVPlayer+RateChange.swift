// Playhead: AVPlayer.rateDidChangeNotification and the reason that comes with it.
//
// Concurrency: the notification is posted on the main queue, where the player publishes its
// rate (see AVPlayer+Transport.swift); the names and keys are constants.
import Foundation

extension AVPlayer {
    /// Why `rate` changed, in `rateDidChangeNotification`'s `userInfo`.
    public struct RateDidChangeReason: RawRepresentable, Hashable, Sendable {
        /// The reason's identifier (Apple's constant names).
        public let rawValue: String
        /// The reason with this identifier.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The app changed the rate: `play()`, `pause()`, `rate`, `playImmediately(atRate:)`.
        public static let setRateCalled = RateDidChangeReason(rawValue: "AVPlayerRateDidChangeReasonSetRateCalled")
        /// The player stopped because the item failed (not produced by Playhead: a failing item
        /// leaves the rate as it is).
        public static let setRateFailed = RateDidChangeReason(rawValue: "AVPlayerRateDidChangeReasonSetRateFailed")
        /// An interruption paused playback: on Linux, the sound server asked the player's
        /// stream to pause (a call, under PulseAudio's `module-role-cork`), and to play again.
        public static let audioSessionInterrupted = RateDidChangeReason(
            rawValue: "AVPlayerRateDidChangeReasonAudioSessionInterrupted")
        /// The app went to the background and playback paused (not produced on Linux yet).
        public static let appBackgrounded = RateDidChangeReason(rawValue: "AVPlayerRateDidChangeReasonAppBackgrounded")
    }

    /// Posted on the main queue, with the player as its object, each time `rate` changes.
    /// `userInfo[rateDidChangeReasonKey]` holds `.setRateCalled` when the app set the rate,
    /// `.audioSessionInterrupted` when the sound server paused or resumed it; a pause at the
    /// item's end or a change of item carries no reason.
    nonisolated public static let rateDidChangeNotification = NSNotification.Name("AVPlayerRateDidChangeNotification")
    /// The `userInfo` key of the reason (a `RateDidChangeReason`).
    nonisolated public static let rateDidChangeReasonKey = "AVPlayerRateDidChangeReasonKey"
    /// The `userInfo` key of the participant that changed the rate in coordinated playback
    /// (never present: there is no coordinated playback on Linux).
    nonisolated public static let rateDidChangeOriginatingParticipantKey = "AVPlayerRateDidChangeOriginatingParticipantKey"

    /// The reason `event` changes the rate for, when there is one Apple names: the app's own
    /// changes and the sound server's (a failing item leaves the rate as it is, so
    /// `.setRateFailed` is not posted).
    nonisolated static func rateChangeReason(for event: PlaybackStateMachine.Event) -> RateDidChangeReason? {
        switch event {
        case .setRate: return .setRateCalled
        case .soundServerSetRate: return .audioSessionInterrupted
        default: return nil
        }
    }
}
