// Playhead: one connection of the loopback test server: reads requests, answers them (files,
// ranges, rules), paces and cuts the body.
//
// Concurrency contract: each function here runs on the connection's own thread, which owns the
// socket `connection`. Shared server state is reached only through its mutexes.
import Foundation

extension LoopbackHTTPServer {
    /// Serves requests on `connection` until the client closes it, asks to close, or a response
    /// ends it (an error, a cut).
    func serve(connection: Int32) {
        var pending = [UInt8]()
        while !isStopped {
            guard let head = readHead(connection, buffer: &pending) else { return }
            guard let request = parse(head) else {
                _ = sendAll(connection, Array(Self.head(status: 400, fields: ["Content-Length": "0"], close: true).utf8))
                return
            }
            var logged = request
            logged.receivedAt = Self.now()
            let index = log.withLock { log -> Int in
                log.append(logged)
                return log.count - 1
            }
            let keepOpen = answer(request, on: connection)
            log.withLock { log in
                if index < log.count, log[index].receivedAt == logged.receivedAt { log[index].endedAt = Self.now() }
            }
            if !keepOpen || request.headers["connection"]?.lowercased() == "close" { return }
        }
    }

    /// Reads up to the blank line ending a request's head; nil on close or oversize.
    private func readHead(_ connection: Int32, buffer: inout [UInt8]) -> String? {
        let terminator: [UInt8] = [13, 10, 13, 10]
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            if let end = firstRange(of: terminator, in: buffer) {
                let head = String(decoding: buffer[..<end], as: UTF8.self)
                buffer.removeFirst(end + terminator.count)
                return head
            }
            if buffer.count > 32_768 { return nil }
            let count = recv(connection, &chunk, chunk.count, 0)
            if count <= 0 { return nil }
            buffer += chunk[..<count]
        }
    }

    private func firstRange(of pattern: [UInt8], in bytes: [UInt8]) -> Int? {
        guard bytes.count >= pattern.count else { return nil }
        for start in 0...(bytes.count - pattern.count) where bytes[start] == pattern[0] {
            if Array(bytes[start..<(start + pattern.count)]) == pattern { return start }
        }
        return nil
    }

    private func parse(_ head: String) -> Request? {
        let lines = head.components(separatedBy: "\r\n")
        let parts = lines.first?.split(separator: " ") ?? []
        guard parts.count >= 2 else { return nil }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
            headers[name] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let target = String(parts[1])
        let pieces = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let path = String(pieces.first ?? "")
        let decoded = path.removingPercentEncoding ?? path
        var request = Request(method: String(parts[0]), path: decoded, range: headers["range"], headers: headers)
        request.query = pieces.count > 1 ? String(pieces[1]) : nil
        return request
    }

    /// Answers one request; false when the connection must close afterwards.
    private func answer(_ request: Request, on connection: Int32) -> Bool {
        let (rule, globalDelay) = settings.withLock { ($0.rules[request.path], $0.headerDelay) }
        if !pause(seconds: globalDelay + (rule?.headerDelay ?? 0), on: connection) { return false }
        if let location = rule?.redirectLocation {
            let head = Self.head(status: 302, fields: ["Location": location, "Content-Length": "0"])
            return sendAll(connection, Array(head.utf8))
        }
        if let status = rule?.status { return sendError(status, on: connection) }
        guard request.method == "GET" || request.method == "HEAD" else { return sendError(405, on: connection) }
        let content: Data
        let type: String
        if let body = rule?.body {
            content = body
            type = rule?.contentType ?? "application/octet-stream"
        } else {
            guard !request.path.contains(".."),
                let data = FileManager.default.contents(atPath: root.path + request.path)
            else { return sendError(404, on: connection) }
            content = data
            type = Self.contentType(of: request.path)
        }
        if rule?.isLiveStream == true {
            var fields = rule?.headerFields ?? [:]
            fields["Content-Type"] = type
            guard sendAll(connection, Array(Self.head(status: 200, fields: fields, close: true).utf8)) else { return false }
            if request.method == "HEAD" { return false }
            _ = content.withUnsafeBytes { bytes in
                sendBody(connection, bytes, from: 0, to: content.count, holdAt: nil)
            }
            return false
        }
        guard let range = Self.byteRange(request.range, size: content.count) else {
            let head = Self.head(
                status: 416, fields: ["Content-Range": "bytes */\(content.count)", "Content-Length": "0"])
            return sendAll(connection, Array(head.utf8))
        }
        var fields = (rule?.headerFields ?? [:]).merging([
            "Content-Type": type, "Content-Length": "\(range.count)", "Accept-Ranges": "bytes",
        ]) { _, own in own }
        if request.range != nil {
            fields["Content-Range"] = "bytes \(range.lowerBound)-\(range.upperBound - 1)/\(content.count)"
        }
        let head = Self.head(status: request.range != nil ? 206 : 200, fields: fields)
        guard sendAll(connection, Array(head.utf8)) else { return false }
        if request.method == "HEAD" { return true }
        let cutAt = cutOffset(for: request.path, rule: rule)
        let end = min(range.upperBound, max(cutAt ?? Int.max, range.lowerBound))
        let sent = content.withUnsafeBytes { bytes -> Bool in
            sendBody(connection, bytes, from: range.lowerBound, to: end, holdAt: holdOffset(for: request.path, rule: rule))
        }
        return sent && end == range.upperBound
    }

    /// The offset at which this response is held (nil: not held), counting the hold.
    private func holdOffset(for path: String, rule: Rule?) -> Int? {
        guard let offset = rule?.holdAtByte else { return nil }
        return settings.withLock { settings -> Int? in
            let done = settings.holdsDone[path, default: 0]
            if let times = rule?.holdTimes, done >= times { return nil }
            settings.holdsDone[path] = done + 1
            return offset
        }
    }

    /// The offset at which this response is cut (nil: not cut), counting the cut as done.
    private func cutOffset(for path: String, rule: Rule?) -> Int? {
        guard let offset = rule?.cutAtByte else { return nil }
        return settings.withLock { settings -> Int? in
            let done = settings.cutsDone[path, default: 0]
            if let times = rule?.cutTimes, done >= times { return nil }
            settings.cutsDone[path] = done + 1
            return offset
        }
    }

    /// Sends `bytes[start..<end]`, paced by `bytesPerSecond`; false when the client went away.
    private func sendBody(
        _ connection: Int32, _ bytes: UnsafeRawBufferPointer, from start: Int, to end: Int, holdAt: Int?
    ) -> Bool {
        var offset = start
        while offset < end {
            if isStopped { return false }
            let (rate, released) = settings.withLock { ($0.bytesPerSecond, $0.holdsReleased) }
            var length = min(end - offset, 16_384)
            if let holdAt, !released, offset < holdAt {
                length = min(length, holdAt - offset)
            } else if let holdAt, !released, offset >= holdAt {
                if !pause(seconds: 0.01, on: connection) { return false }
                continue
            }
            if let rate {
                length = min(length, max(512, rate / 20))
                if !waitForPacing(bytes: length, rate: rate, on: connection) { return false }
            }
            let chunk = UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + length)])
            guard sendAll(connection, chunk) else { return false }
            offset += length
        }
        return true
    }

    /// Reserves the next `bytes` of the shared rate budget and sleeps until they may go out.
    private func waitForPacing(bytes: Int, rate: Int, on connection: Int32) -> Bool {
        let now = Self.now()
        let start = pacing.withLock { next -> Double in
            let start = max(next, now)
            next = start + Double(bytes) / Double(rate)
            return start
        }
        return pause(seconds: start - now, on: connection)
    }

    /// Sleeps `seconds` in short slices; false when the server stopped or the client hung up
    /// meanwhile (so the connection count follows clients that give up).
    private func pause(seconds: Double, on connection: Int32) -> Bool {
        var left = seconds
        while left > 0 {
            if isStopped || clientHungUp(connection) { return false }
            let slice = min(left, 0.02)
            usleep(useconds_t(slice * 1_000_000))
            left -= slice
        }
        return !isStopped
    }

    /// True when the client closed its end (a peek reads end of stream).
    private func clientHungUp(_ connection: Int32) -> Bool {
        var byte: UInt8 = 0
        let count = recv(connection, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
        return count == 0 || (count < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
    }

    private func sendError(_ status: Int, on connection: Int32) -> Bool {
        let body = Array("\(status) \(Self.reason(status))\n".utf8)
        let head = Self.head(status: status, fields: ["Content-Type": "text/plain", "Content-Length": "\(body.count)"])
        return sendAll(connection, Array(head.utf8) + body)
    }

    private func sendAll(_ connection: Int32, _ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { sendAll(connection, $0) }
    }

    private func sendAll(_ connection: Int32, _ bytes: UnsafeRawBufferPointer) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let count = send(connection, bytes.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL))
            if count <= 0 {
                if count < 0 && errno == EINTR { continue }
                return false
            }
            sent += count
        }
        return true
    }

    // MARK: - HTTP text

    static func head(status: Int, fields: [String: String], close: Bool = false) -> String {
        var text = "HTTP/1.1 \(status) \(reason(status))\r\n"
        for (name, value) in fields.sorted(by: { $0.key < $1.key }) { text += "\(name): \(value)\r\n" }
        if close { text += "Connection: close\r\n" }
        return text + "\r\n"
    }

    static func reason(_ status: Int) -> String {
        switch status {
        case 200: return "OK"
        case 206: return "Partial Content"
        case 302: return "Found"
        case 400: return "Bad Request"
        case 403: return "Forbidden"
        case 404: return "Not Found"
        case 405: return "Method Not Allowed"
        case 416: return "Range Not Satisfiable"
        case 500: return "Internal Server Error"
        case 503: return "Service Unavailable"
        default: return "Status"
        }
    }

    /// The byte range a `Range` header asks for within `size` bytes (the whole body without
    /// one); nil when it cannot be satisfied.
    static func byteRange(_ header: String?, size: Int) -> Range<Int>? {
        guard let header else { return 0..<size }
        guard header.hasPrefix("bytes="), !header.contains(",") else { return 0..<size }
        let spec = header.dropFirst("bytes=".count)
        let parts = spec.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        if parts[0].isEmpty {
            guard let suffix = Int(parts[1]), suffix > 0 else { return nil }
            return max(0, size - suffix)..<size
        }
        guard let first = Int(parts[0]), first < size || (first == 0 && size == 0) else { return nil }
        let last = parts[1].isEmpty ? size - 1 : min(Int(parts[1]) ?? (size - 1), size - 1)
        guard last >= first - 1 else { return nil }
        return first..<(last + 1)
    }

    static func contentType(of path: String) -> String {
        switch (path as NSString).pathExtension.lowercased() {
        case "m3u8": return "application/vnd.apple.mpegurl"
        case "mpd": return "application/dash+xml"
        case "mp4", "m4v", "m4s": return "video/mp4"
        case "m4a": return "audio/mp4"
        case "ts": return "video/mp2t"
        case "webm": return "video/webm"
        case "mkv": return "video/x-matroska"
        case "mp3": return "audio/mpeg"
        default: return "application/octet-stream"
        }
    }

    /// The server's clock: monotonic seconds, as `Request.receivedAt` and `endedAt` use.
    public static func now() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }
}
