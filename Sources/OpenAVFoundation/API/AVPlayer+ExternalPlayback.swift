// Playhead: AirPlay-style external playback and HDR output, which Linux does not have here: the
// properties exist so ported code compiles, read false and accept writes.
//
// Concurrency: stateless; callable from any thread.
import Foundation

extension AVPlayer {
    /// Whether the player may switch to external playback. Always false on Linux: there is no
    /// external playback route, so an app that hides its AirPlay button when this is false
    /// does the right thing. Writes are accepted and ignored.
    nonisolated public var allowsExternalPlayback: Bool {
        get { false }
        set {}
    }

    /// Whether playback currently goes to an external device. Always false on Linux.
    nonisolated public var isExternalPlaybackActive: Bool { false }

    /// Whether the player switches to external playback while an external screen mirrors the
    /// display. Always false on Linux; writes are accepted and ignored.
    nonisolated public var usesExternalPlaybackWhileExternalScreenIsActive: Bool {
        get { false }
        set {}
    }
}

extension AVPlayer {
    /// Whether this system can show HDR video as HDR. Always false on Linux: Playhead's window
    /// draws in SDR (an HDR track still plays; ask a track with
    /// `hasMediaCharacteristic(.containsHDRVideo)` whether it is HDR).
    nonisolated public class var eligibleForHDRPlayback: Bool { false }

    /// Posted when ``eligibleForHDRPlayback`` changes (never, on Linux).
    nonisolated public static let eligibleForHDRPlaybackDidChangeNotification = NSNotification.Name(
        "AVPlayerEligibleForHDRPlaybackDidChangeNotification")
}
