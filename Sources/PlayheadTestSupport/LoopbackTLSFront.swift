// Playhead: an https front for LoopbackHTTPServer in tests: `socat` terminates TLS on a port of
// its own with a self-signed certificate (made once by the `openssl` CLI and cached like the
// fixtures) and forwards each connection to the plain-http server.
//
// Concurrency contract: the socat child is started in `init` and killed in `stop()` (idempotent,
// any thread; `process` and `server` are only read after init). `stop()` also stops the server
// behind it, whose own contract applies.
import Foundation
import Synchronization

/// TLS in front of a ``LoopbackHTTPServer``: `https://127.0.0.1:<port>/path` reaches the
/// server's `/path`, so its rules and request log apply to https requests too.
///
/// ```swift
/// let server = try LoopbackHTTPServer(root: folder)
/// let tls = try LoopbackTLSFront(for: server)
/// defer { tls.stop() }                     // stops the server too
/// let url = tls.url(for: "clip.mp4")        // https://127.0.0.1:<port>/clip.mp4
/// ```
///
/// The certificate is self-signed, which FFmpeg's tls protocol accepts because its
/// `tls_verify` option defaults to 0.
public final class LoopbackTLSFront: Sendable {
    /// The port socat accepts TLS connections on.
    public let port: Int
    /// socat's process id.
    private let pid: pid_t
    private let server: LoopbackHTTPServer
    private let stopped = Atomic<Bool>(false)

    /// Starts socat on a free port, forwarding to `server`, and waits until it accepts.
    ///
    /// - Throws: ``TestSupportError`` when socat or openssl is missing or socat does not start.
    public init(for server: LoopbackHTTPServer) throws {
        let socat = try Subprocess.tool(named: "socat")
        let (certificate, key) = try Self.certificate()
        port = try Self.freePort()
        let arguments = [
            "OPENSSL-LISTEN:\(port),bind=127.0.0.1,reuseaddr,fork,cert=\(certificate.path),key=\(key.path),verify=0",
            "TCP:127.0.0.1:\(server.port)",
        ]
        do {
            pid = try DetachedProcess.spawn(socat.path, arguments, environment: ProcessInfo.processInfo.environment)
        } catch {
            throw TestSupportError("could not start socat: \(error)")
        }
        self.server = server
        let deadline = Date().addingTimeInterval(5)
        while !Self.accepts(port) {
            guard Date() < deadline, kill(pid, 0) == 0 else {
                stop()
                throw TestSupportError("socat did not listen on 127.0.0.1:\(port)")
            }
            Thread.sleep(forTimeInterval: 0.02)
        }
    }

    deinit { stop() }

    /// The https URL of `path` on the server behind the front.
    public func url(for path: String) -> URL {
        let relative = path.hasPrefix("/") ? String(path.dropFirst()) : path
        return URL(string: "https://127.0.0.1:\(port)/\(relative)")!
    }

    /// Stops the server behind (so every forwarded connection closes), lets socat reap its
    /// per-connection children (up to a second), then kills the listener. Idempotent.
    public func stop() {
        guard !stopped.exchange(true, ordering: .sequentiallyConsistent) else { return }
        server.stop()
        let children = "/proc/\(pid)/task/\(pid)/children"
        let deadline = Date().addingTimeInterval(1)
        while Date() < deadline,
            let list = try? String(contentsOfFile: children, encoding: .utf8),
            !list.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
        {
            Thread.sleep(forTimeInterval: 0.01)
        }
        DetachedProcess.end(pid, signal: SIGKILL)
    }

    /// A self-signed certificate and its key for 127.0.0.1, generated once.
    static func certificate() throws -> (certificate: URL, key: URL) {
        let folder = try FixtureCache.file(named: "tls-v1") { folder in
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let openssl = try Subprocess.tool(named: "openssl")
            let result = try Subprocess.run(
                openssl,
                [
                    "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "3650", "-subj", "/CN=127.0.0.1",
                    "-keyout", folder.appendingPathComponent("key.pem").path,
                    "-out", folder.appendingPathComponent("cert.pem").path,
                ], limit: 60)
            guard case .exited(0) = result.ending else {
                throw TestSupportError("openssl req failed: \(result.errorText)")
            }
        }
        return (folder.appendingPathComponent("cert.pem"), folder.appendingPathComponent("key.pem"))
    }

    /// A port no socket uses now (bound to 0, read, released).
    static func freePort() throws -> Int {
        let socketFD = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socketFD >= 0 else { throw TestSupportError("socket() failed: errno \(errno)") }
        defer { close(socketFD) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socketFD, $0, length) == 0 && getsockname(socketFD, $0, &length) == 0
            }
        }
        guard bound else { throw TestSupportError("cannot find a free port: errno \(errno)") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// True when a TCP connection to 127.0.0.1:`port` succeeds.
    static func accepts(_ port: Int) -> Bool {
        let socketFD = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socketFD >= 0 else { return false }
        defer { close(socketFD) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socketFD, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }
}
