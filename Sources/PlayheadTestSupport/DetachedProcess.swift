// Playhead: starting long-lived helper daemons (a sound server) for tests without Foundation's
// `Process`, which takes a daemon that closes the descriptors it inherited for dead and then
// waits for it forever, stalling every other `Process` of the test run.
//
// Concurrency: stateless; the caller owns the process ids it gets.
import Foundation

/// Spawns and ends child processes with posix_spawn, kill and waitpid.
public enum DetachedProcess {
    /// Starts `path` with `arguments` and `environment`; its standard input, output and error
    /// are /dev/null and it inherits no other descriptor. Returns its process id.
    ///
    /// A daemon that kept a descriptor it inherited (dbus-daemon does) would hold open the
    /// write end of a pipe that another test's `Process` was setting up at that moment, and
    /// that `Process` would wait for the end of its output forever.
    /// - Throws: ``TestSupportError`` when it cannot be started.
    public static func spawn(_ path: String, _ arguments: [String], environment: [String: String]) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for descriptor: Int32 in [0, 1, 2] {
            posix_spawn_file_actions_addopen(&actions, descriptor, "/dev/null", descriptor == 0 ? O_RDONLY : O_WRONLY, 0)
        }
        closeInheritedDescriptors(&actions)
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, path, &actions, nil, argv, envp)
        guard status == 0 else { throw TestSupportError("cannot start \(path): \(String(cString: strerror(status)))") }
        return pid
    }

    /// glibc's posix_spawn_file_actions_addclosefrom_np (2.34 and later; Swift's Glibc module
    /// does not show it), looked up at run time.
    private typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    private nonisolated(unsafe) static let closeFrom: CloseFrom? = dlsym(
        UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np"
    ).map { unsafeBitCast($0, to: CloseFrom.self) }

    /// Makes the spawned process close every descriptor above standard error.
    private static func closeInheritedDescriptors(_ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>) {
        _ = closeFrom?(actions, 3)
    }

    /// Sends `signal` to `pid` and reaps it (SIGKILL after 5 s if it has not ended).
    public static func end(_ pid: pid_t, signal: Int32) {
        Foundation.kill(pid, signal)
        var status: Int32 = 0
        let deadline = Date().addingTimeInterval(5)
        while waitpid(pid, &status, WNOHANG) == 0 {
            if Date() > deadline {
                Foundation.kill(pid, SIGKILL)
                waitpid(pid, &status, 0)
                return
            }
            usleep(10_000)
        }
    }
}
