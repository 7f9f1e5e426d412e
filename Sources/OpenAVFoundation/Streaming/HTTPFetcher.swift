// Playhead: fetching playlists and segments for Playhead's own streaming loader, through
// Foundation's URLSession (connection reuse, TLS, redirects), held to the network safety rules:
// http(s) only, no https-to-http step, at most five redirects, a size limit per resource and a
// deadline per request.
//
// Concurrency: `fetch` blocks its calling thread (the loader's) and is called by one thread at a
// time. URLSession calls the delegate on the fetcher's own serial queue; the transfer in flight
// is shared between the two through `Locked<Transfer?>`. That queue runs on a serial dispatch
// queue of its own, never on Dispatch's shared workers, which the app may keep busy.
// `cancel()` may be called from any thread.
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What a finished request brought.
struct FetchedResource: Sendable {
    let data: Data
    /// Seconds from the request to its last byte.
    let seconds: Double
    /// Seconds from the request to the response headers.
    let firstByteSeconds: Double
    /// The URL the bytes came from, after redirects.
    let finalURL: URL
}

/// Why a request brought nothing usable.
enum FetchFailure: Error, Equatable, Sendable {
    case refused(String)
    case httpStatus(Int)
    case tooLarge(limit: Int)
    case timedOut
    case cancelled
    case abandoned
    case network(String)

    /// One line for logs and warnings.
    var reason: String {
        switch self {
        case .refused(let why): return why
        case .httpStatus(let status): return "HTTP \(status)"
        case .tooLarge(let limit): return "larger than \(limit >> 20) MiB"
        case .timedOut: return "timed out"
        case .cancelled: return "cancelled"
        case .abandoned: return "abandoned for a lower variant"
        case .network(let detail): return detail
        }
    }
}

/// Blocking HTTP requests with the safety rules of Playhead's network inputs.
final class HTTPFetcher: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    /// The most redirects one request may follow.
    static let maximumRedirects = 5

    /// The request in flight and what came of it so far.
    private struct Transfer {
        let taskID: Int
        let secure: Bool
        let limit: Int
        var redirects = 0
        var data = Data()
        var firstByte: Double?
        var finished = false
        var failure: FetchFailure?
        var status = 0
        var finalURL: URL?
    }

    private let transfer = Locked<Transfer?>(nil)
    private let finished = DispatchSemaphore(value: 0)
    private let headers: [String: String]
    private let userAgent: String
    private let delegateQueue: OperationQueue
    /// The serial dispatch queue under `delegateQueue`, held here because the operation queue
    /// does not retain it. A serial queue draws its thread from Dispatch's overcommitting pool,
    /// so the delegate's calls go on while the app keeps every shared worker busy; a default
    /// operation queue's did not (a loopback request waited past ten seconds on two cores).
    private let delegateDispatchQueue = DispatchQueue(label: "playhead.fetch")
    /// Made on first use, invalidated by `close()`.
    private var session: URLSession!

    init(headers: [String: String], userAgent: String) {
        self.headers = headers
        self.userAgent = userAgent
        delegateQueue = OperationQueue()
        delegateQueue.maxConcurrentOperationCount = 1
        delegateQueue.underlyingQueue = delegateDispatchQueue
        super.init()
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = 2
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        session = URLSession(configuration: configuration, delegate: self, delegateQueue: delegateQueue)
    }

    /// Ends the session; requests in flight are cancelled.
    func close() { session.invalidateAndCancel() }

    /// Whether `url` may be fetched by a stream that began at a URL with `secure` (https).
    static func refusal(of url: URL, secure: Bool) -> String? {
        switch url.scheme?.lowercased() {
        case "https": return nil
        case "http": return secure ? "refused https to http downgrade (\(url.absoluteString))" : nil
        default: return "refused \(url.scheme ?? "relative") URL in a remote playlist"
        }
    }

    /// Fetches `url` (the bytes of `range` when given), waiting at most `timeout` seconds.
    ///
    /// - Parameters:
    ///   - secure: the stream began at an https URL: every request and redirect stays https.
    ///   - limit: the most bytes the resource may have.
    ///   - shouldStop: polled every 20 ms with the bytes received and the seconds elapsed;
    ///     true cancels the request (`.cancelled`, or `.abandoned` when `abandoning`).
    func fetch(
        _ url: URL, range: Range<Int>? = nil, secure: Bool, limit: Int, timeout: Double,
        shouldStop: (_ received: Int, _ elapsed: Double) -> FetchStop? = { _, _ in nil }
    ) -> Result<FetchedResource, FetchFailure> {
        if let refusal = Self.refusal(of: url, secure: secure) { return .failure(.refused(refusal)) }
        var request = URLRequest(url: url, timeoutInterval: timeout)
        request.setValue(userAgent, forHTTPHeaderField: "User-Agent")
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        if let range { request.setValue("bytes=\(range.lowerBound)-\(range.upperBound - 1)", forHTTPHeaderField: "Range") }
        let task = session.dataTask(with: request)
        let started = ThreadCondition.monotonicNow()
        transfer.withLock { $0 = Transfer(taskID: task.taskIdentifier, secure: secure, limit: limit) }
        task.resume()
        var stop: FetchStop?
        while finished.wait(timeout: .now() + .milliseconds(20)) == .timedOut {
            let elapsed = ThreadCondition.monotonicNow() - started
            let received = transfer.withLock { $0?.data.count ?? 0 }
            stop = elapsed > timeout ? .timedOut : shouldStop(received, elapsed)
            if stop != nil {
                // A task that finished meanwhile is not cancelled: FoundationNetworking's
                // cancel() of a task it already retired traps (its completion removed it from
                // the session's registry before the cancellation's failure report looks it up).
                if finished.wait(timeout: .now()) == .success { break }
                task.cancel()
                finished.wait()
                break
            }
        }
        let seconds = ThreadCondition.monotonicNow() - started
        let done = transfer.withLock { state in
            defer { state = nil }
            return state
        }
        guard let done else { return .failure(.cancelled) }
        if let stop { return .failure(stop.failure) }
        if let failure = done.failure { return .failure(failure) }
        guard (200..<300).contains(done.status) else { return .failure(.httpStatus(done.status)) }
        return .success(
            FetchedResource(
                data: done.data, seconds: seconds, firstByteSeconds: done.firstByte.map { $0 - started } ?? seconds,
                finalURL: done.finalURL ?? url))
    }

    // MARK: URLSession delegate (the fetcher's queue)

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void
    ) {
        let allowed: Bool = transfer.withLock { state in
            guard var current = state, current.taskID == task.taskIdentifier else { return false }
            current.redirects += 1
            if current.redirects > Self.maximumRedirects {
                current.failure = .refused("more than \(Self.maximumRedirects) redirects")
            } else if let url = request.url, let refusal = Self.refusal(of: url, secure: current.secure) {
                current.failure = .refused(refusal)
            }
            state = current
            return current.failure == nil
        }
        completionHandler(allowed ? request : nil)
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        let proceed: Bool = transfer.withLock { state in
            guard var current = state, current.taskID == dataTask.taskIdentifier else { return false }
            current.firstByte = ThreadCondition.monotonicNow()
            current.status = (response as? HTTPURLResponse)?.statusCode ?? 0
            current.finalURL = response.url
            if response.expectedContentLength > Int64(current.limit) { current.failure = .tooLarge(limit: current.limit) }
            state = current
            return current.failure == nil
        }
        completionHandler(proceed ? .allow : .cancel)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let overflow: Bool = transfer.withLock { state in
            guard var current = state, current.taskID == dataTask.taskIdentifier else { return false }
            current.data.append(data)
            if current.data.count > current.limit {
                current.failure = .tooLarge(limit: current.limit)
                current.data = Data()
            }
            state = current
            return current.failure != nil
        }
        if overflow { dataTask.cancel() }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let mine: Bool = transfer.withLock { state in
            guard var current = state, current.taskID == task.taskIdentifier, !current.finished else { return false }
            current.finished = true
            if current.failure == nil, let error = error as? URLError {
                current.failure = error.code == .timedOut ? .timedOut : error.code == .cancelled ? .cancelled
                    : .network(error.localizedDescription)
            } else if current.failure == nil, let error {
                current.failure = .network("\(error)")
            }
            state = current
            return true
        }
        if mine { finished.signal() }
    }
}

/// Why a fetch was stopped before its end.
enum FetchStop: Sendable {
    case cancelled
    case abandoned
    case timedOut

    var failure: FetchFailure {
        switch self {
        case .cancelled: return .cancelled
        case .abandoned: return .abandoned
        case .timedOut: return .timedOut
        }
    }
}
