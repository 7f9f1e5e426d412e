// Playhead: a tiny blocking HTTP/1.1 client over POSIX sockets, so the loopback test server
// can be checked without FFmpeg (URLSession needs libcurl, which CI machines may lack).
import Foundation

/// One response as read off the wire.
struct RawHTTPResponse {
    var status: Int
    /// Header names lower-cased.
    var headers: [String: String]
    var body: [UInt8]
    /// True when the connection closed before `Content-Length` bytes arrived.
    var cutShort: Bool
}

enum RawHTTPClient {
    /// Sends `GET path` (with `headers`) to 127.0.0.1:`port` and reads one response.
    static func get(port: Int, path: String, headers: [String: String] = [:]) throws -> RawHTTPResponse {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure("socket") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port)).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw Failure("connect") }
        var request = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
        for (name, value) in headers { request += "\(name): \(value)\r\n" }
        request += "\r\n"
        _ = request.withCString { send(fd, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
        var data = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = recv(fd, &chunk, chunk.count, 0)
            if count <= 0 { break }
            data += chunk[..<count]
        }
        let terminator: [UInt8] = [13, 10, 13, 10]
        guard let end = (0...(max(0, data.count - 4))).first(where: { Array(data[$0..<min($0 + 4, data.count)]) == terminator })
        else { throw Failure("no header end in \(data.count) bytes") }
        let head = String(decoding: data[..<end], as: UTF8.self).components(separatedBy: "\r\n")
        let status = Int(head.first?.split(separator: " ").dropFirst().first ?? "") ?? 0
        var fields: [String: String] = [:]
        for line in head.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            fields[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let body = Array(data[(end + 4)...])
        let expected = fields["content-length"].flatMap { Int($0) } ?? body.count
        return RawHTTPResponse(status: status, headers: fields, body: body, cutShort: body.count < expected)
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}

extension RawHTTPClient {
    /// `get` on a thread of its own, so a response the server holds back never blocks Swift
    /// Testing's small cooperative pool.
    static func fetch(port: Int, path: String, headers: [String: String] = [:]) async throws -> RawHTTPResponse {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Result { try get(port: port, path: path, headers: headers) })
            }
        }
    }
}
