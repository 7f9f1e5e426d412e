// Playhead: a child process a test starts and then watches, signals or waits for (a player
// window, a grabber, a tool on the X display), spawned through `DetachedProcess` instead of
// Foundation's `Process` (see there why), with the part of `Process`'s interface tests use.
//
// Concurrency: thread-safe. A thread of its own reaps the child; its wait status is kept under
// a lock and `ended` is signalled once.
import Foundation
import OpenAVFoundation

/// A spawned child process, reaped as soon as it ends.
public final class SpawnedProcess: @unchecked Sendable {
    /// The child's process id.
    public let processIdentifier: pid_t
    private let waitStatus = Locked<Int32?>(nil)
    private let ended = DispatchSemaphore(value: 0)

    /// Starts `executable` with `arguments` and `environment` (nil: this process's); standard
    /// input, output and error are the descriptors given (nil: /dev/null), which stay the
    /// caller's to close.
    /// - Throws: ``TestSupportError`` when it cannot be started.
    public init(
        _ executable: URL, _ arguments: [String], environment: [String: String]? = nil, input: Int32? = nil,
        output: Int32? = nil, error: Int32? = nil
    ) throws {
        processIdentifier = try DetachedProcess.spawn(
            executable.path, arguments, environment: environment ?? ProcessInfo.processInfo.environment,
            input: input, output: output, error: error)
        DetachedProcess.reapInBackground(processIdentifier) { [waitStatus, ended] status in
            waitStatus.withLock { $0 = status }
            ended.signal()
        }
    }

    /// Whether it has not ended yet.
    public var isRunning: Bool { waitStatus.withLock { $0 == nil } }

    /// Sends `signal` while it runs (never to a reaped id, which the system may have reused).
    public func send(_ signal: Int32) {
        waitStatus.withLock { status in
            if status == nil { _ = kill(processIdentifier, signal) }
        }
    }

    /// Sends SIGTERM while it runs.
    public func terminate() { send(SIGTERM) }

    /// Sends SIGINT while it runs.
    public func interrupt() { send(SIGINT) }

    /// Waits until it has ended.
    public func waitUntilExit() {
        ended.wait()
        ended.signal()
    }

    /// Waits at most `seconds` for it to end; true when it has.
    public func wait(seconds: Double) -> Bool {
        guard ended.wait(timeout: .now() + seconds) == .success else { return false }
        ended.signal()
        return true
    }

    /// Its exit status, or the signal that ended it (see `wasSignalled`); 0 while it runs.
    public var terminationStatus: Int32 {
        guard let status = waitStatus.withLock({ $0 }) else { return 0 }
        let ending = DetachedProcess.ending(ofWaitStatus: status)
        return ending.exited ?? ending.signal ?? 0
    }

    /// Whether a signal ended it (a crash, or a kill).
    public var wasSignalled: Bool {
        guard let status = waitStatus.withLock({ $0 }) else { return false }
        return DetachedProcess.ending(ofWaitStatus: status).signal != nil
    }
}
