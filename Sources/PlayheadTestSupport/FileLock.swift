// Playhead: an exclusive advisory file lock shared by threads and processes.
import Foundation

/// Serialises work on one cache entry with `flock(2)`.
///
/// Each call opens its own descriptor, so the lock excludes other threads of this process as
/// well as other processes (two test runs sharing one cache directory). The kernel drops the
/// lock if the holder dies.
enum FileLock {
    /// Runs `body` while holding an exclusive lock on the file at `url`, creating it if needed.
    static func withLock<T>(at url: URL, _ body: () throws -> T) throws -> T {
        let descriptor = open(url.path, O_CREAT | O_RDWR | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw TestSupportError("cannot open lock file \(url.path): errno \(errno)")
        }
        defer { close(descriptor) }
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else {
                throw TestSupportError("cannot lock \(url.path): errno \(errno)")
            }
        }
        defer { flock(descriptor, LOCK_UN) }
        return try body()
    }
}
