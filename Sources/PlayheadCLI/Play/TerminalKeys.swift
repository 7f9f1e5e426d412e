// Playhead: single-key input from a terminal for headless playback (space, arrows, [ and ], q).
//
// Concurrency: `TerminalKeys` owns one reader thread that blocks in read(2) on stdin and hands
// each key to the handler on the main queue. `start` and `stop` are called on the main queue.
// The saved terminal settings are restored by `stop()` and by the process-exit hook.
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A key the headless player understands.
public enum PlayerKey: Equatable, Sendable {
    case togglePause, seekBackward, seekForward, slower, faster, quit
    case other(UInt8)

    /// Decodes the bytes of one key press (an escape sequence for arrows).
    static func decode(_ bytes: [UInt8]) -> PlayerKey? {
        switch bytes {
        case [0x20], [UInt8(ascii: "k")]: return .togglePause
        case [UInt8(ascii: "q")], [UInt8(ascii: "Q")], [0x03], [0x1B]: return .quit
        case [0x1B, 0x5B, 0x44], [0x1B, 0x4F, 0x44], [UInt8(ascii: "j")]: return .seekBackward
        case [0x1B, 0x5B, 0x43], [0x1B, 0x4F, 0x43], [UInt8(ascii: "l")]: return .seekForward
        case [UInt8(ascii: "[")]: return .slower
        case [UInt8(ascii: "]")]: return .faster
        case let single where single.count == 1: return .other(single[0])
        default: return nil
        }
    }
}

/// Puts the terminal in raw mode and reports key presses.
public final class TerminalKeys: @unchecked Sendable {
    /// owned by the main queue
    private var saved: termios?
    private let handler: @Sendable (PlayerKey) -> Void

    /// A reader calling `handler` on the main queue for each key.
    public init(handler: @escaping @Sendable (PlayerKey) -> Void) {
        self.handler = handler
    }

    /// True when stdin is a terminal.
    public static var isInteractive: Bool { isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1 }

    /// Enters raw mode and starts reading. Does nothing when stdin is not a terminal.
    public func start() {
        guard Self.isInteractive, saved == nil else { return }
        var settings = termios()
        guard tcgetattr(STDIN_FILENO, &settings) == 0 else { return }
        saved = settings
        TerminalKeys.restoreOnExit = settings
        atexit { TerminalKeys.restoreSavedSettings() }
        var raw = settings
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        withUnsafeMutableBytes(of: &raw.c_cc) { bytes in
            bytes[Int(VMIN)] = 1
            bytes[Int(VTIME)] = 0
        }
        tcsetattr(STDIN_FILENO, TCSANOW, &raw)
        let handler = self.handler
        let thread = Thread {
            var buffer = [UInt8](repeating: 0, count: 8)
            while true {
                let count = read(STDIN_FILENO, &buffer, buffer.count)
                if count <= 0 { return }
                guard let key = PlayerKey.decode(Array(buffer[0..<count])) else { continue }
                DispatchQueue.main.async { handler(key) }
                if key == .quit { return }
            }
        }
        thread.name = "playhead.terminal-keys"
        thread.start()
    }

    /// Restores the terminal settings saved by `start()`.
    public func stop() {
        guard saved != nil else { return }
        TerminalKeys.restoreSavedSettings()
        saved = nil
    }

    nonisolated(unsafe) private static var restoreOnExit: termios?

    private static func restoreSavedSettings() {
        guard var settings = restoreOnExit else { return }
        tcsetattr(STDIN_FILENO, TCSANOW, &settings)
    }
}
