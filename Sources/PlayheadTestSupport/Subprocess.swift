// Playhead: runs an external tool (ffmpeg, ffprobe) and captures what it prints.
import Foundation

/// The outcome of one finished child process.
struct SubprocessResult: Sendable {
    var status: Int32
    var standardOutput: Data
    var standardError: Data

    var errorText: String {
        String(decoding: standardError, as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

/// Runs tools synchronously with no standard input.
enum Subprocess {
    /// Runs `executable` with `arguments` and waits for it to exit.
    ///
    /// Standard output and standard error are drained on separate threads, so a chatty tool
    /// cannot fill a pipe and stall.
    static func run(_ executable: URL, _ arguments: [String]) throws -> SubprocessResult {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        let outPipe = Pipe()
        let errPipe = Pipe()
        process.standardOutput = outPipe
        process.standardError = errPipe
        do {
            try process.run()
        } catch {
            throw TestSupportError("could not start \(executable.path): \(error)")
        }
        let errorBox = DataBox()
        let drained = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            errorBox.data = errPipe.fileHandleForReading.readDataToEndOfFile()
            drained.signal()
        }
        let output = outPipe.fileHandleForReading.readDataToEndOfFile()
        drained.wait()
        process.waitUntilExit()
        return SubprocessResult(
            status: process.terminationStatus, standardOutput: output,
            standardError: errorBox.data)
    }

    /// Finds a tool: `/usr/bin/<name>` first, then each directory on `PATH`.
    static func tool(named name: String) throws -> URL {
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

/// Hands bytes from the draining thread back to the caller; the semaphore orders the access.
private final class DataBox: @unchecked Sendable {
    var data = Data()
}
