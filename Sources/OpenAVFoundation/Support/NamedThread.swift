// Playhead: starting engine threads with names that show in `top -H`, gdb and /proc.
import Foundation

/// Starts threads named "playhead.<role>".
///
/// Concurrency: `start` may be called from any thread. The name is set from inside the new
/// thread, because Linux applies a thread name only to the calling thread, and it is kept
/// within Linux's 15-character limit.
package enum NamedThread {
    /// Starts a thread named "playhead.<role>" (the role is cut to fit) running `body`.
    package static func start(
        _ role: String, stackSize: Int = 1 << 20, _ body: @escaping @Sendable () -> Void
    ) {
        let name = String(("playhead." + role).prefix(15))
        let thread = Thread {
            Thread.current.name = name
            body()
        }
        thread.stackSize = stackSize
        thread.start()
    }
}
