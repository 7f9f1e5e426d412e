// Playhead: the one way tests run a child process (ffmpeg, ffprobe, the built `playhead` and
// its examples): captures both pipes, optionally kills it at a time limit, and tells a normal
// exit, a crash (a signal) and a hang apart. It spawns with posix_spawn (`DetachedProcess`),
// never Foundation's `Process`, whose `run()` crashes a test run now and then on Linux.
//
// Concurrency: `run` blocks its calling thread; `runOffPool` runs the same on a Dispatch thread
// so Swift Testing's small cooperative pool is never blocked. Each pipe is drained on a thread
// of its own and `SpawnedProcess` reaps the child on a third; each hands its result back under
// a lock.
import Foundation
import OpenAVFoundation
import Synchronization

/// The outcome of one child process.
public struct SubprocessResult: Sendable {
    /// How the process ended.
    public enum Ending: Sendable, Equatable {
        /// It exited by itself with this status.
        case exited(Int32)
        /// A signal ended it (SIGSEGV, SIGABRT from a trap...): a crash.
        case signalled(Int32)
        /// It was still running at the time limit and was killed.
        case hung
    }

    /// How the process ended.
    public var ending: Ending
    /// Wall-clock seconds from launch to exit (or to the kill).
    public var seconds: Double
    /// Everything written to standard output.
    public var outputData: Data
    /// Everything written to standard error.
    public var errorData: Data

    /// The exit status; 128 + the signal for a crash (as a shell reports it), -1 for a hang.
    public var status: Int32 {
        switch ending {
        case .exited(let status): return status
        case .signalled(let signal): return 128 + signal
        case .hung: return -1
        }
    }

    /// Standard output as UTF-8 text.
    public var standardOutput: String { String(decoding: outputData, as: UTF8.self) }
    /// Standard error as UTF-8 text.
    public var standardError: String { String(decoding: errorData, as: UTF8.self) }
    /// Standard error without surrounding whitespace, for messages.
    public var errorText: String { standardError.trimmingCharacters(in: .whitespacesAndNewlines) }
    /// Standard error split into lines, without the final newline (blank lines are kept).
    public var errorLines: [Substring] {
        let text = standardError
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        return Array(lines.dropLast(text.hasSuffix("\n") || text.isEmpty ? 1 : 0))
    }
}

/// Runs child processes with no standard input.
public enum Subprocess {
    /// Runs `executable` with `arguments` and waits for it to end.
    ///
    /// - Parameter limit: seconds after which the process is killed (SIGKILL) and reported as
    ///   `.hung`; nil waits for as long as it takes.
    /// - Throws: ``TestSupportError`` when the process cannot be started.
    /// - Parameter environment: the child's whole environment; nil inherits this process's.
    public static func run(
        _ executable: URL, _ arguments: [String], limit: Double? = nil, environment: [String: String]? = nil
    ) throws -> SubprocessResult {
        // posix_spawn (`SpawnedProcess`), not Foundation's `Process` (see DetachedProcess).
        let outputPipe = try Self.pipe()
        let errorPipe = try Self.pipe()
        let start = Date()
        let child: SpawnedProcess
        do {
            child = try SpawnedProcess(
                executable, arguments, environment: environment, output: outputPipe.write, error: errorPipe.write)
        } catch {
            for descriptor in [outputPipe.read, outputPipe.write, errorPipe.read, errorPipe.write] { close(descriptor) }
            throw error
        }
        close(outputPipe.write)
        close(errorPipe.write)
        let errorData = Drained(FileHandle(fileDescriptor: errorPipe.read, closeOnDealloc: true))
        let outputData = Drained(FileHandle(fileDescriptor: outputPipe.read, closeOnDealloc: true))
        var hung = false
        if let limit {
            if !child.wait(seconds: limit) {
                hung = true
                child.send(SIGKILL)
                child.waitUntilExit()
            }
        } else {
            child.waitUntilExit()
        }
        let seconds = Date().timeIntervalSince(start)
        let ending: SubprocessResult.Ending =
            hung ? .hung : child.wasSignalled ? .signalled(child.terminationStatus) : .exited(child.terminationStatus)
        // A killed process's own children could keep the pipes open: give up on them soon.
        let drainLimit = hung ? 1.0 : (limit ?? .infinity)
        return SubprocessResult(
            ending: ending, seconds: seconds, outputData: outputData.wait(limit: drainLimit),
            errorData: errorData.wait(limit: drainLimit))
    }

    /// `run` on a Dispatch thread, so many processes can run at once from async tests without
    /// tying up Swift's cooperative pool.
    public static func runOffPool(
        _ executable: URL, _ arguments: [String], limit: Double? = nil, environment: [String: String]? = nil
    ) async throws -> SubprocessResult {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global(qos: .userInitiated).async {
                continuation.resume(with: Result { try run(executable, arguments, limit: limit, environment: environment) })
            }
        }
    }

    /// Starts `executable` as `DetachedProcess.spawn` does, with its standard output on a new
    /// pipe: its process id (the caller reaps it) and the read end of that pipe.
    /// - Throws: ``TestSupportError`` when it cannot be started.
    public static func spawnReadingOutput(
        _ executable: URL, _ arguments: [String], environment: [String: String]? = nil
    ) throws -> (pid: pid_t, output: FileHandle) {
        let output = try pipe()
        defer { close(output.write) }
        do {
            let pid = try DetachedProcess.spawn(
                executable.path, arguments, environment: environment ?? ProcessInfo.processInfo.environment,
                output: output.write)
            return (pid, FileHandle(fileDescriptor: output.read, closeOnDealloc: true))
        } catch {
            close(output.read)
            throw error
        }
    }

    /// A pipe whose two ends are closed on exec (a child gets only the end it is given).
    /// - Throws: ``TestSupportError`` when the system has no descriptor left.
    public static func pipe() throws -> (read: Int32, write: Int32) {
        var descriptors: [Int32] = [-1, -1]
        guard Glibc.pipe(&descriptors) == 0 else {
            throw TestSupportError("cannot make a pipe: \(String(cString: strerror(errno)))")
        }
        // Children spawned here close everything above standard error anyway (closefrom).
        for descriptor in descriptors { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        return (descriptors[0], descriptors[1])
    }

    /// Finds a tool: `/usr/bin/<name>` first, then each directory on `PATH`.
    public static func tool(named name: String) throws -> URL {
        var directories = ["/usr/bin"]
        if let path = ProcessInfo.processInfo.environment["PATH"] {
            directories += path.split(separator: ":").map(String.init)
        }
        for directory in directories {
            let candidate = URL(fileURLWithPath: directory).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) {
                return candidate
            }
        }
        throw TestSupportError(
            "\(name) not found; run scripts/install-deps.sh to install the ffmpeg package")
    }
}

/// Reads a pipe to its end on a thread of its own.
private final class Drained: Sendable {
    private let data = Locked(Data())
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
        if limit.isFinite {
            _ = done.wait(timeout: .now() + limit)
        } else {
            done.wait()
        }
        return data.withLock { $0 }
    }
}
