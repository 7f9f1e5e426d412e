// Playhead: fetching playlists and segments for Playhead's own streaming loader, through
// Foundation's URLSession (connection reuse, TLS, redirects), held to the network safety rules:
// http(s) only, no https-to-http step, at most five redirects, a size limit per resource and a
// deadline per request.
//
// Concurrency: `fetch` blocks its calling thread (the loader's) and is called by one thread at a
// time. URLSession calls the delegate on the fetcher's own serial queue; the transfer in flight
// and whether the fetcher is closed are shared between the two through `Locked<Shared>`. That
// queue runs on a serial dispatch queue of its own, never on Dispatch's shared workers, which
// the app may keep busy. `close()` may be called from any thread.
//
// Cancelling: FoundationNetworking (Linux) traps ("a behaviour for a task that in not in the
// registry") when a cancellation reports after its task was retired. Three rules keep it away:
// the session has no URL cache (with one, a task's loader is made after an asynchronous cache
// lookup and a cancellation waiting on it reported late: 8 trapped runs in 12 of
// `HTTPFetcherCancellationTests` on a loaded machine, none in 37 without); `cancel()` is called
// only on the delegate queue, for a task whose completion that queue has not delivered yet;
// and `close()` cancels the task in flight, then lets the session finish and invalidate, so the
// cancelled task still reports to the delegate (`invalidateAndCancel` could detach the delegate
// first and leave a `fetch` waiting forever) and a closed session is never asked for a task
// (that traps too).
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
    /// The response's `Date` header field, as sent (nil: none).
    var dateField: String? = nil
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
        /// Asked once about the first `firstBytesNeeded` bytes: false stops the transfer.
        var firstBytes: (@Sendable (Data) -> Bool)?
        var redirects = 0
        var data = Data()
        var firstByte: Double?
        var finished = false
        var failure: FetchFailure?
        var status = 0
        var finalURL: URL?
        var dateField: String?
    }

    /// What the fetching thread and the delegate queue share.
    private struct Shared {
        var transfer: Transfer?
        /// The task of `transfer`, for cancelling it on the delegate queue.
        var task: URLSessionDataTask?
        var closed = false
        /// Whether the last fetch that ended had its response's header fields.
        var lastAnswered = false
    }

    /// The longest a fetch waits for URLSession to report a task it cancelled.
    static let cancellationGrace = 5.0
    /// How many bytes a `firstBytes` check is given.
    static let firstBytesNeeded = 64

    private let shared = Locked(Shared())
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
        // No cache at all: with one, FoundationNetworking makes a task's loader only after an
        // asynchronous cache lookup, and a cancellation waiting on that lookup can report after
        // the task was retired (a trap).
        configuration.urlCache = nil
        session = URLSession(configuration: configuration, delegate: self, delegateQueue: delegateQueue)
    }

    /// Ends the session: the request in flight is cancelled (its `fetch` returns `.cancelled`)
    /// and later requests fail the same way without reaching the network.
    func close() {
        let wasClosed = shared.withLock { state in
            defer { state.closed = true }
            return state.closed
        }
        guard !wasClosed else { return }
        delegateQueue.addOperation { [self] in
            cancelUnlessFinished(taskID: nil)
            session.finishTasksAndInvalidate()
        }
    }

    /// Cancels the task in flight (only when it is `taskID`, if given) unless its completion
    /// was reported already. Runs on the delegate queue (see the file's contract).
    private func cancelUnlessFinished(taskID: Int?) {
        let live: URLSessionDataTask? = shared.withLock { state in
            guard let current = state.transfer, !current.finished, taskID == nil || current.taskID == taskID else {
                return nil
            }
            return state.task
        }
        live?.cancel()
    }

    /// Whether `url` may be fetched by a stream that began at a URL with `secure` (https).
    static func refusal(of url: URL, secure: Bool) -> String? {
        switch url.scheme?.lowercased() {
        case "https": return nil
        case "http": return secure ? "refused https to http downgrade (\(url.absoluteString))" : nil
        default: return "refused \(url.scheme ?? "relative") URL in a remote playlist"
        }
    }

    /// Fetches `url` (the bytes of `range` when given, cut from the whole resource when the
    /// server ignores the range), waiting at most `timeout` seconds.
    ///
    /// - Parameters:
    ///   - secure: the stream began at an https URL: every request and redirect stays https.
    ///   - limit: the most bytes the resource may have.
    ///   - method: "GET", or "HEAD" for the response's header fields alone.
    ///   - shouldStop: polled every 20 ms with the bytes received and the seconds elapsed;
    ///     true cancels the request (`.cancelled`, or `.abandoned` when `abandoning`).
    ///   - firstBytes: asked once, on the delegate queue and under the fetcher's lock (it must
    ///     not call back into the fetcher), with the first `firstBytesNeeded` bytes (or more) as
    ///     they arrive: false ends the request at once (`.cancelled`). A resource shorter than
    ///     that is not asked about.
    func fetch(
        _ url: URL, range: Range<Int>? = nil, secure: Bool, limit: Int, timeout: Double, method: String = "GET",
        shouldStop: (_ received: Int, _ elapsed: Double) -> FetchStop? = { _, _ in nil },
        firstBytes: (@Sendable (Data) -> Bool)? = nil
    ) -> Result<FetchedResource, FetchFailure> {
        if let refusal = Self.refusal(of: url, secure: secure) { return .failure(.refused(refusal)) }
        var request = URLRequest(url: url, timeoutInterval: timeout)
        request.httpMethod = method
        request.setValue(userAgent, forHTTPHeaderField: "User-Agent")
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        if let range { request.setValue("bytes=\(range.lowerBound)-\(range.upperBound - 1)", forHTTPHeaderField: "Range") }
        // The task is made under the lock `close()` takes, so a closed fetcher makes none and
        // a task made before the close is the one the close cancels.
        let task: URLSessionDataTask? = shared.withLock { state in
            guard !state.closed else { return nil }
            let task = session.dataTask(with: request)
            state.transfer = Transfer(taskID: task.taskIdentifier, secure: secure, limit: limit, firstBytes: firstBytes)
            state.task = task
            return task
        }
        guard let task else { return .failure(.cancelled) }
        let started = ThreadCondition.monotonicNow()
        task.resume()
        var stop: FetchStop?
        var stoppedAt = 0.0
        while !isFinished {
            if finished.wait(timeout: .now() + .milliseconds(20)) == .success { continue }
            let now = ThreadCondition.monotonicNow()
            if stop == nil {
                let received = shared.withLock { $0.transfer?.data.count ?? 0 }
                stop = now - started > timeout ? .timedOut : shouldStop(received, now - started)
                if stop != nil {
                    stoppedAt = now
                    let id = task.taskIdentifier
                    delegateQueue.addOperation { [self] in cancelUnlessFinished(taskID: id) }
                }
            } else if now - stoppedAt > Self.cancellationGrace {
                break  // URLSession never reported the cancelled task: leave it behind
            }
        }
        let seconds = ThreadCondition.monotonicNow() - started
        let done = shared.withLock { state in
            defer {
                state.lastAnswered = state.transfer?.firstByte != nil
                state.transfer = nil
                state.task = nil
            }
            return state.transfer
        }
        guard let done, done.finished || stop != nil else { return .failure(.cancelled) }
        if let stop { return .failure(stop.failure) }
        if let failure = done.failure { return .failure(failure) }
        guard (200..<300).contains(done.status) else { return .failure(.httpStatus(done.status)) }
        var data = done.data
        // A server that does not do ranges answers 200 with the whole resource: the range is
        // cut from it (an EXT-X-BYTERANGE segment is then its own bytes, not the whole file).
        if let range, done.status == 200, method == "GET" {
            guard range.lowerBound < data.count else { return .failure(.httpStatus(416)) }
            data = data.subdata(in: range.lowerBound..<min(range.upperBound, data.count))
        }
        return .success(
            FetchedResource(
                data: data, seconds: seconds, firstByteSeconds: done.firstByte.map { $0 - started } ?? seconds,
                finalURL: done.finalURL ?? url, dateField: done.dateField))
    }

    /// Whether the last fetch that ended (this fetcher's requests are made one at a time) had
    /// its response's header fields: false for a server that never answered, as told from one
    /// that answered and then sent too slowly (both `.timedOut`).
    var lastRequestWasAnswered: Bool { shared.withLock { $0.lastAnswered } }

    /// Whether URLSession reported the end of the transfer in flight.
    private var isFinished: Bool { shared.withLock { $0.transfer?.finished ?? true } }

    // MARK: URLSession delegate (the fetcher's queue)

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void
    ) {
        let allowed: Bool = shared.withLock { state in
            guard var current = state.transfer, current.taskID == task.taskIdentifier else { return false }
            current.redirects += 1
            if current.redirects > Self.maximumRedirects {
                current.failure = .refused("more than \(Self.maximumRedirects) redirects")
            } else if let url = request.url, let refusal = Self.refusal(of: url, secure: current.secure) {
                current.failure = .refused(refusal)
            }
            state.transfer = current
            return current.failure == nil
        }
        completionHandler(allowed ? request : nil)
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        // (Ends the transfer here when the response is refused: the fetch does not wait for
        // URLSession to report the cancel.)
        let (proceed, endsHere): (Bool, Bool) = shared.withLock { state in
            guard var current = state.transfer, current.taskID == dataTask.taskIdentifier, !current.finished else {
                return (false, false)
            }
            current.firstByte = ThreadCondition.monotonicNow()
            current.status = (response as? HTTPURLResponse)?.statusCode ?? 0
            current.finalURL = response.url
            current.dateField = (response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Date")
            if current.failure == nil, response.expectedContentLength > Int64(current.limit) {
                current.failure = .tooLarge(limit: current.limit)
            }
            // Refused (its length, or a redirect refused before it): the transfer ends here.
            current.finished = current.failure != nil
            state.transfer = current
            return (current.failure == nil, current.finished)
        }
        completionHandler(proceed ? .allow : .cancel)
        if endsHere {
            // (swift-corelibs-foundation ignores the disposition: the task is cancelled too.)
            dataTask.cancel()
            finished.signal()
        }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        // (Ends the transfer here when its bytes are refused: the fetch does not wait for
        // URLSession to report the cancel.)
        let endsHere: Bool = shared.withLock { state in
            guard var current = state.transfer, current.taskID == dataTask.taskIdentifier, !current.finished,
                current.failure == nil
            else { return false }
            current.data.append(data)
            if current.data.count > current.limit {
                current.failure = .tooLarge(limit: current.limit)
                current.data = Data()
            } else if let check = current.firstBytes, current.data.count >= Self.firstBytesNeeded {
                current.firstBytes = nil
                if !check(current.data) {
                    current.failure = .cancelled
                    current.data = Data()
                }
            }
            current.finished = current.failure != nil
            state.transfer = current
            return current.finished
        }
        if endsHere {
            dataTask.cancel()
            finished.signal()
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let mine: Bool = shared.withLock { state in
            guard var current = state.transfer, current.taskID == task.taskIdentifier, !current.finished else { return false }
            current.finished = true
            if current.failure == nil, let error = error as? URLError {
                current.failure = error.code == .timedOut ? .timedOut : error.code == .cancelled ? .cancelled
                    : .network(error.localizedDescription)
            } else if current.failure == nil, let error {
                current.failure = .network("\(error)")
            }
            state.transfer = current
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
