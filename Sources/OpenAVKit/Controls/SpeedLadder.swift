// Playhead: the playback speeds a player's controls offer, shared by the window's controls and
// the CLI's terminal keys.
//
// Concurrency: constants and pure functions.

/// The speeds the controls step through.
package enum SpeedLadder {
    /// The speeds the speed button cycles through.
    package static let button: [Float] = [0.25, 0.5, 0.75, 1, 1.25, 1.5, 2, 3, 4]
    /// The speeds `[` and `]` step through: the button's, then scanning speeds (the picture
    /// steps through keyframes where the media allows, silently).
    package static let keys: [Float] = button + [8, 16]

    /// The next speed up or down the key ladder from `speed`, staying at the ends.
    package static func next(from speed: Float, faster: Bool) -> Float {
        if faster { return keys.first { $0 > speed + 0.001 } ?? keys[keys.count - 1] }
        return keys.last { $0 < speed - 0.001 } ?? keys[0]
    }
}
