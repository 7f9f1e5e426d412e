// Playhead: runs the built `playhead` with a time limit and tells a crash (a signal) and a hang
// (killed at the limit) apart from an ordinary exit.

import Foundation
import Synchronization
import Testing

/// One run of the executable that may have crashed or hung.
struct TimedPlayheadRun: Sendable {
    enum Ending: Sendable, Equatable {
        /// The process exited by itself with this status.
        case exited(Int32)
        /// A signal ended it (SIGSEGV, SIGABRT from a trap...): a crash.
        case signalled(Int32)
        /// Still running at the limit; it was killed.
        case hung
    }

    var ending: Ending
    var seconds: Double
    var standardOutput: String
    var standardError: String

    /// Standard error split into lines, without the final newline.
    var errorLines: [Substring] {
        standardError.split(separator: "\n", omittingEmptySubsequences: true)
    }

    /// Runs `playhead arguments`, killing it after `limit` seconds. Waits on a Dispatch
    /// thread, so many runs can proceed at once without tying up Swift's cooperative pool.
    static func run(
        _ arguments: [String], limit: Double, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> TimedPlayheadRun? {
        guard let executable = PlayheadBinary.url else {
            let searched = PlayheadBinary.searchedDirectories.map(\.path)
            Issue.record(
                "playhead executable not found near \(searched); set PLAYHEAD_BINARY",
                sourceLocation: sourceLocation)
            return nil
        }
        return try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global(qos: .userInitiated).async {
                continuation.resume(
                    with: Result { try runBlocking(executable, arguments, limit: limit) })
            }
        }
    }

    private static func runBlocking(_ executable: URL, _ arguments: [String], limit: Double) throws
        -> TimedPlayheadRun
    {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        let start = Date()
        try process.run()
        let errorData = Drained(error.fileHandleForReading)
        let outputData = Drained(output.fileHandleForReading)
        var hung = false
        if exited.wait(timeout: .now() + limit) == .timedOut {
            hung = true
            kill(process.processIdentifier, SIGKILL)
            exited.wait()
        }
        let seconds = Date().timeIntervalSince(start)
        let ending: Ending
        if hung {
            ending = .hung
        } else if process.terminationReason == .uncaughtSignal {
            ending = .signalled(process.terminationStatus)
        } else {
            ending = .exited(process.terminationStatus)
        }
        // A killed process's own children could keep the pipes open: give up on them soon.
        let drainLimit = hung ? 1.0 : limit
        return TimedPlayheadRun(
            ending: ending, seconds: seconds,
            standardOutput: String(decoding: outputData.wait(limit: drainLimit), as: UTF8.self),
            standardError: String(decoding: errorData.wait(limit: drainLimit), as: UTF8.self))
    }
}

/// Reads a pipe to its end on a thread of its own.
private final class Drained: Sendable {
    private let data = Mutex(Data())
    private let done = DispatchSemaphore(value: 0)

    init(_ handle: FileHandle) {
        Thread.detachNewThread { [self] in
            let bytes = handle.readDataToEndOfFile()
            data.withLock { $0 = bytes }
            done.signal()
        }
    }

    /// What was read, or nothing when the pipe stayed open for `limit` seconds.
    func wait(limit: Double) -> Data {
        _ = done.wait(timeout: .now() + limit)
        return data.withLock { $0 }
    }
}
