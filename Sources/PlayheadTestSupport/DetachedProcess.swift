// Playhead: starting child processes for tests without Foundation's `Process`: its `run()`
// on Linux reads past glibc's directory buffer while it lists /proc/self/fd and now and then
// crashes the test run (swift-corelibs-foundation #5472, fixed after Swift 6.3.1), and it takes a
// daemon that closes the descriptors it inherited for dead and then waits for it forever,
// stalling every other `Process` of the test run.
//
// Concurrency: stateless; the caller owns the process ids it gets.
import Foundation

/// Spawns and ends child processes with posix_spawn, kill and waitpid.
public enum DetachedProcess {
    /// Starts `path` with `arguments` and `environment`; its standard input, output and error
    /// are the descriptors `input`, `output` and `error` (nil: /dev/null), and
    /// it inherits no other descriptor. It starts with no signal blocked and SIGPIPE at its
    /// default, whichever thread spawns it (Dispatch's workers block signals). Returns its
    /// process id; the caller reaps it (`end`, or `waitpid`).
    ///
    /// A daemon that kept a descriptor it inherited (dbus-daemon does) would hold open the
    /// write end of a pipe that another test's `Process` was setting up at that moment, and
    /// that `Process` would wait for the end of its output forever.
    /// - Throws: ``TestSupportError`` when it cannot be started.
    public static func spawn(
        _ path: String, _ arguments: [String], environment: [String: String], input: Int32? = nil,
        output: Int32? = nil, error: Int32? = nil
    ) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (target, source) in [(Int32(0), input), (Int32(1), output), (Int32(2), error)] {
            if let source {
                posix_spawn_file_actions_adddup2(&actions, source, target)
            } else {
                posix_spawn_file_actions_addopen(&actions, target, "/dev/null", target == 0 ? O_RDONLY : O_WRONLY, 0)
            }
        }
        closeInheritedDescriptors(&actions)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGPIPE)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
        guard status == 0 else { throw TestSupportError("cannot start \(path): \(String(cString: strerror(status)))") }
        return pid
    }

    /// Waits on a thread of its own for `pid` to end, reaps it and hands `ended` its wait
    /// status (see `ending(ofWaitStatus:)`).
    public static func reapInBackground(_ pid: pid_t, ended: @escaping @Sendable (Int32) -> Void) {
        Thread.detachNewThread {
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            ended(status)
        }
    }

    /// How a process reaped by `waitpid` ended: its exit status, or the signal that ended it.
    public static func ending(ofWaitStatus status: Int32) -> (exited: Int32?, signal: Int32?) {
        let signal = status & 0x7f
        return signal == 0 ? ((status >> 8) & 0xff, nil) : (nil, signal)
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
