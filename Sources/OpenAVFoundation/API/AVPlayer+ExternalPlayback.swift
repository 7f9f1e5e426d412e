// Playhead: AirPlay-style external playback, which Linux does not have: the properties exist so
// ported code compiles, read false and accept writes.
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
