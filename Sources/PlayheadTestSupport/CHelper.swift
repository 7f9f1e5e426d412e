// Playhead: small C programs that tests write and compile at test time with the system's C
// compiler (a fake desktop service on a test bus, an X drag-and-drop source): each one is a
// part of the desktop no one here wrote a library for, kept in the test that needs it.
//
// Concurrency: `build` runs the compiler on the calling thread (call it off the cooperative
// pool); a `CHelper` is used by the one test that built it.
import Foundation

/// A C program compiled into a private temporary folder, removed by `remove()`.
public final class CHelper: @unchecked Sendable {
    /// The private folder holding the source and the executable.
    public let directory: URL
    /// The compiled program.
    public let executable: URL

    /// Compiles `source` (C11) with `cc` (else `clang`), adding the flags pkg-config gives for
    /// `packages` (e.g. `["dbus-1"]`, `["x11"]`).
    /// - Throws: ``TestSupportError`` when no compiler, no pkg-config package or the build fails.
    public init(name: String, source: String, packages: [String]) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "playhead-c-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        executable = directory.appendingPathComponent(name)
        do {
            let file = directory.appendingPathComponent(name + ".c")
            try Data(source.utf8).write(to: file)
            let flags = try Subprocess.run(
                try Subprocess.tool(named: "pkg-config"), ["--cflags", "--libs"] + packages,
                limit: 30)
            guard flags.ending == .exited(0) else {
                throw TestSupportError("pkg-config \(packages): \(flags.errorText)")
            }
            let compiler =
                try (try? Subprocess.tool(named: "cc")) ?? Subprocess.tool(named: "clang")
            let arguments =
                ["-std=gnu11", "-O1", "-o", executable.path, file.path]
                + flags.standardOutput.split(whereSeparator: \.isWhitespace).map(String.init)
            let built = try Subprocess.run(compiler, arguments, limit: 120)
            guard built.ending == .exited(0) else {
                throw TestSupportError("cannot compile \(name): \(built.errorText)")
            }
        } catch {
            remove()
            throw error
        }
    }

    /// Deletes the folder.
    public func remove() { try? FileManager.default.removeItem(at: directory) }
}
