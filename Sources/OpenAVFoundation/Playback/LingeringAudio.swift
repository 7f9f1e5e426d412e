// Playhead: outputs still playing out an ended item's last audio, and output changes still
// queued (a close queued there is what starts the playing out), so a program about to exit can
// let them finish instead of cutting the tail.
//
// Concurrency: a process-wide count behind a lock; `begin` and `end` from the engine's linger
// and drain threads and around each queued output change (begun on the caller's thread, ended
// on the output queue), `waitUntilQuiet` from any thread but the main queue (it blocks).
import Foundation

/// Counts outputs playing out the last audio of an ended item, and output changes not yet made.
package enum LingeringAudio {
    private static let count = Locked(0)

    /// An output started playing out, or an output change was queued.
    static func begin() { count.withLock { $0 += 1 } }

    /// An output finished playing out and closed, or a queued output change was made.
    static func end() { count.withLock { $0 -= 1 } }

    /// Waits until no output is playing out, at most `timeout` seconds; true when none is.
    /// Blocks the calling thread: call it off the main queue.
    package static func waitUntilQuiet(timeout: Double) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while count.withLock({ $0 }) > 0 {
            guard Date() < deadline else { return false }
            Thread.sleep(forTimeInterval: 0.005)
        }
        return true
    }
}
