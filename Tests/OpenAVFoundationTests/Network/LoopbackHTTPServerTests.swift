// Playhead: the loopback test server itself: ranges, errors, redirects, cuts, pacing, slow
// starts and the request log.
import Foundation
import PlayheadTestSupport
import Testing

@Suite struct LoopbackHTTPServerTests {
    /// A folder holding `data.bin`: 100,000 bytes counting 0...255 over and over.
    static func servedFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("playhead-server-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let bytes = (0..<100_000).map { UInt8($0 & 255) }
        try Data(bytes).write(to: folder.appendingPathComponent("data.bin"))
        return folder
    }

    @Test func servesWholeFilesAndByteRanges() async throws {
        let server = try LoopbackHTTPServer(root: try Self.servedFolder())
        defer { server.stop() }
        #expect(server.port > 0)
        let whole = try await RawHTTPClient.fetch(port: server.port, path: "/data.bin")
        #expect(whole.status == 200)
        #expect(whole.body.count == 100_000)
        #expect(whole.headers["accept-ranges"] == "bytes")
        let part = try await RawHTTPClient.fetch(port: server.port, path: "/data.bin", headers: ["Range": "bytes=1000-1999"])
        #expect(part.status == 206)
        #expect(part.headers["content-range"] == "bytes 1000-1999/100000")
        #expect(part.body == (1000..<2000).map { UInt8($0 & 255) })
        let open = try await RawHTTPClient.fetch(port: server.port, path: "/data.bin", headers: ["Range": "bytes=99990-"])
        #expect(open.status == 206 && open.body.count == 10)
        let beyond = try await RawHTTPClient.fetch(port: server.port, path: "/data.bin", headers: ["Range": "bytes=200000-"])
        #expect(beyond.status == 416)
        #expect(server.requests.map(\.rangeStart) == [0, 1000, 99990, 200000])
        #expect(server.requests.allSatisfy { $0.path == "/data.bin" && $0.method == "GET" })
    }

    @Test func answersMissingFilesAndRulesWithErrorStatuses() async throws {
        let server = try LoopbackHTTPServer(root: try Self.servedFolder())
        defer { server.stop() }
        #expect(try await RawHTTPClient.fetch(port: server.port, path: "/nothing.mp4").status == 404)
        server.setRule(.notFound, for: "/data.bin")
        #expect(try await RawHTTPClient.fetch(port: server.port, path: "/data.bin").status == 404)
        server.setRule(.serverError, for: "/data.bin")
        #expect(try await RawHTTPClient.fetch(port: server.port, path: "/data.bin").status == 500)
        server.setRule(nil, for: "/data.bin")
        #expect(try await RawHTTPClient.fetch(port: server.port, path: "/data.bin").status == 200)
        #expect(try await RawHTTPClient.fetch(port: server.port, path: "/../etc/passwd").status == 404)
    }

    @Test func redirectsAndServesGivenContent() async throws {
        let server = try LoopbackHTTPServer(root: try Self.servedFolder())
        defer { server.stop() }
        server.setRule(.redirect(to: "/data.bin"), for: "/old.bin")
        let moved = try await RawHTTPClient.fetch(port: server.port, path: "/old.bin")
        #expect(moved.status == 302)
        #expect(moved.headers["location"] == "/data.bin")
        server.setRule(.content(Data("hello".utf8), contentType: "text/plain"), for: "/hello.txt")
        let hello = try await RawHTTPClient.fetch(port: server.port, path: "/hello.txt")
        #expect(hello.body == Array("hello".utf8))
        #expect(hello.headers["content-type"] == "text/plain")
    }

    @Test func cutsTheConnectionAtAByteOffsetAsManyTimesAsAsked() async throws {
        let server = try LoopbackHTTPServer(root: try Self.servedFolder())
        defer { server.stop() }
        server.setRule(.cut(atByte: 30_000, times: 1), for: "/data.bin")
        let first = try await RawHTTPClient.fetch(port: server.port, path: "/data.bin")
        #expect(first.cutShort)
        #expect(first.body.count == 30_000)
        let second = try await RawHTTPClient.fetch(port: server.port, path: "/data.bin")
        #expect(!second.cutShort && second.body.count == 100_000)
        server.setRule(.cut(atByte: 30_000), for: "/data.bin")
        let resumed = try await RawHTTPClient.fetch(port: server.port, path: "/data.bin", headers: ["Range": "bytes=40000-"])
        #expect(resumed.status == 206 && resumed.body.isEmpty && resumed.cutShort)
    }

    @Test func capsBandwidthAndDelaysHeaders() async throws {
        let server = try LoopbackHTTPServer(root: try Self.servedFolder())
        defer { server.stop() }
        server.bytesPerSecond = 200_000
        var start = Date()
        let paced = try await RawHTTPClient.fetch(port: server.port, path: "/data.bin")
        let pacedSeconds = Date().timeIntervalSince(start)
        #expect(paced.body.count == 100_000)
        #expect(pacedSeconds >= 0.4, "100 KB at 200 KB/s took \(pacedSeconds) s")
        server.bytesPerSecond = nil
        server.setRule(.slowStart(seconds: 0.3), for: "/data.bin")
        start = Date()
        _ = try await RawHTTPClient.fetch(port: server.port, path: "/data.bin")
        #expect(Date().timeIntervalSince(start) >= 0.3)
    }

    @Test func holdsAResponseUntilReleased() async throws {
        let server = try LoopbackHTTPServer(root: try Self.servedFolder())
        defer { server.stop() }
        server.setRule(.hold(atByte: 10_000), for: "/data.bin")
        let port = server.port
        async let pending = RawHTTPClient.fetch(port: port, path: "/data.bin")
        for _ in 0..<1000 where server.requests.isEmpty { try await Task.sleep(nanoseconds: 10_000_000) }
        try await Task.sleep(nanoseconds: 200_000_000)
        #expect(server.openConnectionCount == 1, "the held response keeps its connection open")
        server.releaseHolds()
        let response = try await pending
        #expect(response.body.count == 100_000)
    }

    @Test func stopDropsOpenConnections() async throws {
        let server = try LoopbackHTTPServer(root: try Self.servedFolder())
        server.setRule(.hold(atByte: 10), for: "/data.bin")
        let port = server.port
        async let pending = RawHTTPClient.fetch(port: port, path: "/data.bin")
        for _ in 0..<200 where server.requests.isEmpty { try await Task.sleep(nanoseconds: 10_000_000) }
        try await Task.sleep(nanoseconds: 50_000_000)
        server.stop()
        let response = try await pending
        #expect(response.status == 200 && response.body.count == 10 && response.cutShort)
        #expect(throws: (any Error).self) { try RawHTTPClient.get(port: port, path: "/data.bin") }
    }
}
