// Playhead: the player window's keyboard and wheel bindings, as plain values.
//
// Concurrency: plain values.

/// A key the player window reacts to, independent of SDL's key codes.
public enum PlayerKeyInput: Equatable, Sendable {
    /// The space bar, an arrow key, Esc, `[`, `]`, `.` or `,`.
    case space, left, right, up, down, escape, leftBracket, rightBracket, period, comma
    /// PageUp and PageDown (previous and next chapter).
    case pageUp, pageDown
    /// `-` and `=` (the `+` key without shift; the keypad's `-` and `+` too).
    case minus, equals
    /// A letter key, lower case ("k", "q", …).
    case letter(Character)
}

/// Something the user asked for with a key, the wheel or a click.
enum ControlCommand: Equatable, Sendable {
    case togglePlayPause
    case seek(by: Double)
    case changeVolume(by: Float)
    case toggleMute
    case toggleFullscreen
    case leaveFullscreen
    case slower, faster
    /// Shift the sound against the picture by this many seconds.
    case changeAudioDelay(by: Double)
    /// Show subtitles this many seconds later (negative: earlier), as mpv's z and x do.
    case changeSubtitleDelay(by: Double)
    case stepFrame(forward: Bool)
    case quit

    /// The command bound to `key`, if any.
    static func bound(to key: PlayerKeyInput) -> ControlCommand? {
        switch key {
        case .space, .letter("k"): return .togglePlayPause
        case .left: return .seek(by: -5)
        case .right: return .seek(by: 5)
        case .letter("j"): return .seek(by: -10)
        case .letter("l"): return .seek(by: 10)
        case .up: return .changeVolume(by: 0.1)
        case .down: return .changeVolume(by: -0.1)
        case .letter("m"): return .toggleMute
        case .letter("f"): return .toggleFullscreen
        case .escape: return .leaveFullscreen
        case .leftBracket: return .slower
        case .rightBracket: return .faster
        case .period: return .stepFrame(forward: true)
        case .comma: return .stepFrame(forward: false)
        case .letter("q"): return .quit
        case .minus: return .changeAudioDelay(by: -0.05)
        case .equals: return .changeAudioDelay(by: 0.05)
        case .letter("z"): return .changeSubtitleDelay(by: -0.1)
        case .letter("x"): return .changeSubtitleDelay(by: 0.1)
        default: return nil
        }
    }

    /// The volume change for one wheel notch (positive is up).
    static func wheel(notches: Int) -> ControlCommand? {
        notches == 0 ? nil : .changeVolume(by: Float(notches) * 0.05)
    }
}
