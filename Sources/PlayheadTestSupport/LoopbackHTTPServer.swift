// Playhead: a small HTTP/1.1 server on 127.0.0.1 for network tests: serves a directory with
// byte ranges, can be slowed, cut, made to fail or redirect, and logs every request.
//
// Concurrency contract: `settings` and `log` live behind mutexes and may be read or changed from
// any thread while the server runs. One accept thread owns the listening socket; each accepted
// connection gets its own thread, which owns that socket (the server only shuts sockets down
// on `stop()` to wake their threads). `stop()` may be called from any thread and returns at
// once; threads finish on their own.
import Foundation
import OpenAVFoundation
import Synchronization

/// A loopback HTTP server for tests, serving files from one directory on an ephemeral port.
///
/// ```swift
/// let server = try LoopbackHTTPServer(root: folder)
/// server.bytesPerSecond = 60_000
/// server.setRule(.notFound, for: "/missing.mp4")
/// let url = server.url(for: "clip.mp4")      // http://127.0.0.1:<port>/clip.mp4
/// ...
/// #expect(server.requests.map(\.path).contains("/clip.mp4"))
/// ```
///
/// Files are answered with `Accept-Ranges: bytes`; a `Range` header gets `206` with
/// `Content-Range`. Connections stay open between requests unless the client asks otherwise.
public final class LoopbackHTTPServer: Sendable {
    /// The port the server listens on (chosen by the system).
    public let port: Int
    /// The directory whose files are served.
    public let root: URL
    let listener: Int32
    let settings = Locked(Settings())
    let log = Locked<[Request]>([])
    let openSockets = Locked<Set<Int32>>([])
    let stopped = Atomic<Bool>(false)
    /// When the next paced chunk may go out (host seconds), shared by all connections so
    /// `bytesPerSecond` caps the server's total rate.
    let pacing = Locked(0.0)

    /// What the server does, changeable while it runs.
    struct Settings {
        var bytesPerSecond: Int?
        var headerDelay: Double = 0
        var rules: [String: Rule] = [:]
        /// Responses cut so far per path (for rules that cut a limited number of times).
        var cutsDone: [String: Int] = [:]
        /// Responses held so far per path.
        var holdsDone: [String: Int] = [:]
        /// True once `releaseHolds()` lets held responses go on.
        var holdsReleased = false
    }

    /// Starts a server for the files under `root`, listening on 127.0.0.1 at a free port.
    ///
    /// - Throws: `TestSupportError` when the socket cannot be set up.
    public init(root: URL) throws {
        self.root = root
        let socketFD = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socketFD >= 0 else { throw TestSupportError("socket() failed: errno \(errno)") }
        var yes: Int32 = 1
        setsockopt(socketFD, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socketFD, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(socketFD, 64) == 0 else {
            close(socketFD)
            throw TestSupportError("cannot listen on 127.0.0.1: errno \(errno)")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socketFD, $0, &length) }
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        listener = socketFD
        let server = self
        Thread.detachNewThread { server.acceptLoop() }
    }

    deinit { stop() }

    // MARK: - Addresses

    /// The server's base URL, `http://127.0.0.1:<port>/`.
    public var baseURL: URL { URL(string: "http://127.0.0.1:\(port)/")! }

    /// The URL of `path` (relative to the served directory; a leading "/" is optional).
    public func url(for path: String) -> URL {
        let relative = path.hasPrefix("/") ? String(path.dropFirst()) : path
        return URL(string: "http://127.0.0.1:\(port)/\(relative)")!
    }

    // MARK: - Behaviour

    /// The most body bytes per second the server sends over all connections; nil is unlimited.
    public var bytesPerSecond: Int? {
        get { settings.withLock { $0.bytesPerSecond } }
        set { settings.withLock { $0.bytesPerSecond = newValue.map { max(1, $0) } } }
    }

    /// Seconds every response waits before its headers go out (a slow start); default 0.
    public var headerDelay: Double {
        get { settings.withLock { $0.headerDelay } }
        set { settings.withLock { $0.headerDelay = max(0, newValue) } }
    }

    /// Makes requests for `path` ("/a.mp4") follow `rule` instead of the default; nil removes it.
    public func setRule(_ rule: Rule?, for path: String) {
        let key = path.hasPrefix("/") ? path : "/" + path
        settings.withLock { settings in
            settings.rules[key] = rule
            settings.cutsDone[key] = 0
            settings.holdsDone[key] = 0
        }
    }

    /// Lets every response held by a `.hold(atByte:)` rule continue (now and later).
    public func releaseHolds() { settings.withLock { $0.holdsReleased = true } }

    /// How many client connections are open now.
    public var openConnectionCount: Int { openSockets.withLock { $0.count } }

    // MARK: - Request log

    /// Every request received so far, oldest first.
    public var requests: [Request] { log.withLock { $0 } }

    /// Forgets the requests logged so far.
    public func clearRequests() { log.withLock { $0.removeAll() } }

    // MARK: - Stopping

    /// Stops accepting and drops every open connection. Returns at once; idempotent.
    public func stop() {
        guard !stopped.exchange(true, ordering: .sequentiallyConsistent) else { return }
        shutdown(listener, Int32(SHUT_RDWR))
        for socket in openSockets.withLock({ $0 }) { shutdown(socket, Int32(SHUT_RDWR)) }
    }

    /// True after `stop()`.
    var isStopped: Bool { stopped.load(ordering: .sequentiallyConsistent) }

    private func acceptLoop() {
        while !isStopped {
            let client = accept(listener, nil, nil)
            if client < 0 {
                if errno == EINTR { continue }
                break
            }
            var yes: Int32 = 1
            setsockopt(client, Int32(IPPROTO_TCP), TCP_NODELAY, &yes, socklen_t(MemoryLayout<Int32>.size))
            openSockets.withLock { _ = $0.insert(client) }
            if isStopped { shutdown(client, Int32(SHUT_RDWR)) }
            let server = self
            Thread.detachNewThread {
                server.serve(connection: client)
                server.openSockets.withLock { _ = $0.remove(client) }
                close(client)
            }
        }
        close(listener)
    }
}

extension LoopbackHTTPServer {
    /// One request as the server received it.
    public struct Request: Sendable, Equatable {
        /// "GET" or "HEAD" (other methods are logged and refused).
        public let method: String
        /// The path, without the query ("/clip.mp4").
        public let path: String
        /// The `Range` header's value, nil when absent ("bytes=1000-").
        public let range: String?
        /// The first byte the `Range` header asks for (0 without one).
        public var rangeStart: Int {
            guard let range, let spec = range.split(separator: "=").last,
                let first = spec.split(separator: "-", omittingEmptySubsequences: false).first
            else { return 0 }
            return Int(first) ?? 0
        }
        /// Header names (lower-cased) and values.
        public let headers: [String: String]
        /// The query, without the '?' ("token=abc"); nil when there is none.
        public internal(set) var query: String?
        /// When the server read the request, in seconds on the monotonic clock
        /// (`LoopbackHTTPServer.now()`): timed on the server's own thread, so the gaps between
        /// requests do not depend on how busy the test process's main queue is.
        public internal(set) var receivedAt: Double = 0
        /// When the server was done with it (the response sent, or the client hung up while
        /// it waited), on the same clock; nil while it is being answered.
        public internal(set) var endedAt: Double?
        /// Seconds from receiving the request to being done with it, nil while answering.
        public var servedSeconds: Double? { endedAt.map { $0 - receivedAt } }
    }

    /// A non-default way to answer requests for one path.
    public struct Rule: Sendable, Equatable {
        /// An HTTP status to answer with instead of the file (404, 500, ...).
        public var status: Int?
        /// Redirect here (an absolute URL or a path) with status 302.
        public var redirectLocation: String?
        /// Drop the connection once the response has sent the file up to this byte offset.
        public var cutAtByte: Int?
        /// How many responses are cut (nil: every one).
        public var cutTimes: Int?
        /// Extra seconds before the headers of this path's responses.
        public var headerDelay: Double = 0
        /// Stop sending at this byte offset of the file until `releaseHolds()` (a stalled
        /// server that keeps the connection open).
        public var holdAtByte: Int?
        /// How many responses are held (nil: every one).
        public var holdTimes: Int?
        /// Serve these bytes instead of a file.
        public var body: Data?
        /// The Content-Type for `body`.
        public var contentType: String?
        /// Answer as a live stream does: status 200 with no length and no ranges, the whole
        /// body, then close (Shoutcast/Icecast radio).
        public var isLiveStream = false
        /// Extra response header fields (`icy-metaint`, `Date`, ...).
        public var headerFields: [String: String] = [:]

        /// A rule with every field given.
        public init(
            status: Int? = nil, redirectLocation: String? = nil, cutAtByte: Int? = nil,
            cutTimes: Int? = nil, headerDelay: Double = 0, holdAtByte: Int? = nil, holdTimes: Int? = nil,
            body: Data? = nil, contentType: String? = nil
        ) {
            self.holdAtByte = holdAtByte
            self.holdTimes = holdTimes
            self.status = status
            self.redirectLocation = redirectLocation
            self.cutAtByte = cutAtByte
            self.cutTimes = cutTimes
            self.headerDelay = headerDelay
            self.body = body
            self.contentType = contentType
        }

        /// Answers 404 Not Found.
        public static let notFound = Rule(status: 404)
        /// Answers 500 Internal Server Error.
        public static let serverError = Rule(status: 500)
        /// Redirects (302) to `location`, an absolute URL or a path on this server.
        public static func redirect(to location: String) -> Rule { Rule(redirectLocation: location) }
        /// Drops the connection when the response reaches byte `offset` of the file, for the
        /// first `times` responses (nil: always), without a clean end (the client sees fewer
        /// bytes than Content-Length promised).
        public static func cut(atByte offset: Int, times: Int? = nil) -> Rule {
            Rule(cutAtByte: offset, cutTimes: times)
        }
        /// Stops sending at byte `offset` of the file, keeping the connection open, until
        /// `releaseHolds()` is called, for the first `times` responses (nil: every one).
        public static func hold(atByte offset: Int, times: Int? = nil) -> Rule {
            Rule(holdAtByte: offset, holdTimes: times)
        }
        /// Waits `seconds` before sending the headers.
        public static func slowStart(seconds: Double) -> Rule { Rule(headerDelay: seconds) }
        /// Serves `data` (with `contentType`) instead of a file.
        public static func content(_ data: Data, contentType: String) -> Rule {
            Rule(body: data, contentType: contentType)
        }
        /// Serves `data` as a server that does not do ranges: status 200 and the whole body
        /// whatever the `Range` header asks, then close.
        public static func ignoringRanges(_ data: Data, contentType: String = "video/mp2t") -> Rule {
            var rule = Rule(body: data, contentType: contentType)
            rule.isLiveStream = true
            return rule
        }
        /// Serves `body` as a Shoutcast/Icecast station does: a live response whose body holds
        /// a metadata block after every `metaInterval` bytes of audio (build it with
        /// ``ICYStream/body(audio:metaInterval:titles:)``).
        public static func icyStation(_ body: Data, metaInterval: Int, contentType: String = "audio/mpeg") -> Rule {
            var rule = Rule(body: body, contentType: contentType)
            rule.isLiveStream = true
            rule.headerFields = ["icy-metaint": "\(metaInterval)", "icy-name": "Playhead test radio"]
            return rule
        }
    }
}
